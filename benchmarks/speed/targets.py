"""The issue's speed targets, checked against one run's measurements."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.speed import formatting
from benchmarks.speed.context_latency import ContextResult, ContextSize
from benchmarks.speed.ingest import IN_PROCESS, IngestMode, IngestResult
from benchmarks.speed.llm_cost import LLMCostResult
from benchmarks.speed.store_open import OpenMeasurement
from omoide.errors import InvalidInput

MET, MISSED, NOT_MEASURED = "met", "missed", "not measured"
UNIT_FORMATS: dict[str, Callable[[float], str]] = {
    "ms": formatting.milliseconds,
    "s": formatting.seconds,
    "bytes": formatting.size_bytes,
    "ratio": formatting.percent,
    "calls": lambda value: f"{value:,.0f} calls",
}


@dataclass(frozen=True, slots=True)
class TargetCheck:
    """One target: its limit, what was measured, and whether it was met."""

    name: str
    limit: float
    unit: str
    higher_is_better: bool
    measured: float | None
    note: str = ""

    def __post_init__(self) -> None:
        if self.unit not in UNIT_FORMATS:
            raise InvalidInput(f"unknown unit {self.unit!r} for target {self.name!r}")

    @property
    def status(self) -> str:
        if self.measured is None:
            return NOT_MEASURED
        if self.higher_is_better:
            return MET if self.measured >= self.limit else MISSED
        return MET if self.measured <= self.limit else MISSED

    def shown(self, value: float | None) -> str:
        return formatting.MISSING if value is None else UNIT_FORMATS[self.unit](value)

    @property
    def limit_text(self) -> str:
        return ("≥ " if self.higher_is_better else "≤ ") + self.shown(self.limit)

    @property
    def margin(self) -> str:
        """How far from the limit, in the target's unit and as a share of the limit."""
        if self.measured is None:
            return self.note or NOT_MEASURED
        gap = abs(self.measured - self.limit)
        share = f" ({self.measured / self.limit:.2g}x the limit)" if self.limit else ""
        if self.status == MET:
            return "met" if gap == 0 else f"met with {self.shown(gap)} to spare{share}"
        return f"missed by {self.shown(gap)}{share}"


def context_targets(context: ContextResult | None) -> list[TargetCheck]:
    checks = []
    for episodes, limit in ((100_000, 10.0), (1_000_000, 20.0)):
        size = _context_size(context, episodes)
        name = f"reply context p95 at {episodes:,} episodes (USE query embedding included)"
        measured = size.latency["with_embedding"].p95_ms if size else None
        checks.append(TargetCheck(name, limit, "ms", False, measured, _unmeasured(size)))
    return checks


def _context_size(context: ContextResult | None, episodes: int) -> ContextSize | None:
    if context is None:
        return None
    return next((size for size in context.sizes if size.episodes == episodes), None)


def _unmeasured(found: object | None) -> str:
    return "" if found is not None else "not measured in this profile"


def ingest_targets(ingest: IngestResult | None) -> list[TargetCheck]:
    """Batched ingest against the embedder, judged on ``store_interaction_batches`` (the
    API a bulk importer should use) when it was measured, else on the loop of calls."""
    modes = [mode for mode in ingest.modes if mode.batch_size > 1] if ingest else []
    judged = [mode for mode in modes if mode.pipelined and IN_PROCESS not in mode.name] or modes
    checks = [
        TargetCheck(
            f"batched ingest ({mode.batch_size} per call, {_api_of(mode)}) "
            "vs the embedder's own batches",
            0.8,
            "ratio",
            True,
            mode.ratio_to_embedder,
        )
        for mode in judged
    ]
    if not checks:
        checks.append(
            TargetCheck("batched ingest vs the embedder", 0.8, "ratio", True, None, "not measured")
        )
    return checks


def _api_of(mode: IngestMode) -> str:
    return "store_interaction_batches" if mode.pipelined else "store_interactions"


def open_targets(opens: Sequence[OpenMeasurement], episodes: int) -> list[TargetCheck]:
    store = [m for m in opens if m.target == "store" and m.episodes == episodes]
    service = [m for m in opens if m.target == "service" and m.episodes == episodes]
    first = store[0] if store else None
    warmth = "" if first is None or first.cold else "page cache could not be dropped: warm"
    label = f"{episodes:,} episodes"
    return [
        TargetCheck(
            f"open + first query of a store of {label} (fresh process, cold)",
            2.0,
            "s",
            False,
            first.open_and_first_query_seconds if first else None,
            warmth or _unmeasured(first),
        ),
        TargetCheck(
            f"peak memory of the process that opened the store of {label}",
            1.5e9,
            "bytes",
            False,
            max((m.peak_rss_bytes for m in store), default=None),
            _unmeasured(first),
        ),
        TargetCheck(
            f"peak memory of the whole service (USE loaded) on {label}",
            1.5e9,
            "bytes",
            False,
            max((m.peak_rss_bytes for m in service), default=None),
            _unmeasured(service[0] if service else None),
        ),
    ]


def llm_targets(llm: LLMCostResult | None) -> list[TargetCheck]:
    configurations = llm.configurations if llm else ()
    reply = sum(cost.reply_calls for cost in configurations) if llm else None
    rules_only = [cost for cost in configurations if not cost.uses_real_llm]
    write = sum(cost.write_calls for cost in rules_only) if rules_only else None
    return [
        TargetCheck(
            "LLM calls on the reply path (every configuration)",
            0,
            "calls",
            False,
            reply,
            "" if llm else "not measured",
        ),
        TargetCheck(
            "LLM calls on the write path without a real LLM (none, scripted)",
            0,
            "calls",
            False,
            write,
            "" if llm else "not measured",
        ),
    ]

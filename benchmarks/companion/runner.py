"""Run companion cases on omoide through its public library API, and judge them.

Each case gets a fresh embedded omoide in a temporary directory, built by the composition
root from explicit settings (the code's defaults, an explicit embedder, no LLM), so the
developer's ``OMOIDE_*`` environment cannot change the run. Every turn of the case's
timeline is stored with ``MemoryManager.store_interaction`` at its own time (the system may
skip a turn below its store threshold); then ``retrieve_context`` answers the probe at the
probe's time and its rendered memory section is judged. Two baselines rank the same stored
episodes of the viewer with only the store's keyword search or only its vector search.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.companion.checks import contains
from benchmarks.companion.dataset import Case, FillerLine, timeline
from omoide.config import Settings
from omoide.domain import Episode
from omoide.embed.base import Embedder
from omoide.store.base import EpisodeFilter, Hit
from omoide.wiring import Omoide, build, build_embedder

logger = logging.getLogger(__name__)

BASELINE_TOP = 5
SECTION_HEAD_LINES = 4


@dataclass(frozen=True, slots=True)
class CaseResult:
    id: str
    file: str
    kind: str
    split: str
    embedder: str
    recalled: bool
    leaked: tuple[str, ...]
    tokens: int
    budget: int
    bm25_only: bool
    vector_only: bool
    stored: int
    turns: int
    target_stored: bool
    """Whether any stored episode of the viewer holds an expected key in its user message."""
    section_head: tuple[str, ...]
    miss_reason: str = ""
    """Why a missed key did not reach the section (:func:`miss_reason`); empty if recalled."""

    @property
    def over_budget(self) -> bool:
        return self.tokens > self.budget


def settings_for(data_dir: Path, embedder: str) -> Settings:
    """Every setting explicit: the code's defaults, the given embedder (``use+e5:0.7``:
    fused, e5's weight 0.7), no LLM and no worker process (one in-process model serves
    every case)."""
    values: dict[str, Any] = {
        name: field.get_default(call_default_factory=True)
        for name, field in Settings.model_fields.items()
    }
    name, _, weight = embedder.partition(":")
    if weight:
        values.update(fused_e5_weight=float(weight))
    values.update(data_dir=data_dir, embedder=name, llm="none", embedder_worker=False)
    return Settings(**values)


def judge_text(text: str, keys: Sequence[str]) -> tuple[str, ...]:
    """The keys that appear in ``text`` (NFKC, case-folded)."""
    return tuple(key for key in keys if contains(text, key))


def _hits_recall(hits: Sequence[Hit[Episode]], keys: Sequence[str]) -> bool:
    return any(judge_text(hit.item.user_message, keys) for hit in hits[:BASELINE_TOP])


async def _baselines(app: Omoide, case: Case, now: datetime) -> tuple[bool, bool]:
    where = EpisodeFilter(until=now)
    keyword = await app.store.search_episode_keywords(
        case.scope, case.probe.text, where=where, limit=BASELINE_TOP
    )
    vector = await app.embedder.embed_query(case.probe.text)
    similar = await app.store.search_episode_vectors(
        case.scope, vector, where=where, limit=BASELINE_TOP
    )
    return _hits_recall(keyword, case.expect_any), _hits_recall(similar, case.expect_any)


async def _store_all(app: Omoide, case: Case, pools: dict[str, list[FillerLine]]) -> int:
    turns = timeline(case, pools)
    for stored in turns:
        await app.memory.store_interaction(
            stored.scope, stored.turn.user, stored.turn.bot, timestamp=stored.turn.at
        )
    return sum(1 for stored in turns if stored.scope == case.scope)


async def _viewer_episodes(app: Omoide, case: Case) -> list[Episode]:
    return await app.store.list_episodes(case.scope, where=EpisodeFilter(), limit=10_000)


def _section_head(text: str) -> tuple[str, ...]:
    """The section's first memory lines (headings and items, not its fixed preamble)."""
    lines = [line for line in text.splitlines() if line.startswith(("-", "["))]
    return tuple(lines[:SECTION_HEAD_LINES])


NOT_LEARNED = "not learned, not found"
FACT_NOT_SHOWN = "fact known, not shown"
STALE_FACT_ONLY = "only as an outdated fact"
BELOW_FLOOR = "episode found, below the relevance floor"
NOT_CHOSEN = "episode relevant, not chosen"
MISS_REASONS = (NOT_LEARNED, FACT_NOT_SHOWN, STALE_FACT_ONLY, BELOW_FLOOR, NOT_CHOSEN)
DIAGNOSIS_LIMIT = 200


async def miss_reason(app: Omoide, case: Case, floor: float) -> str:
    """Where a key that did not reach the section was lost: a current fact of the viewer
    holds it (the profile or the fact ranking left it out), only a replaced fact does, an
    episode holding it is among the ranked candidates (below the relevance floor, or above
    it but not chosen), or nothing found holds it (not learned and not found by search).
    Run after the probe: inspecting ranks everything and reinforces nothing."""
    keys = case.expect_any
    facts = await app.memory.list_facts(case.scope, include_inactive=True)
    if any(judge_text(fact.text, keys) for fact in facts if fact.is_current):
        return FACT_NOT_SHOWN
    context = await app.memory.search(
        case.scope, case.probe.text, now=case.probe.at, limit=DIAGNOSIS_LIMIT
    )
    for entry in context.episodes:
        if judge_text(entry.item.user_message, keys):
            return NOT_CHOSEN if entry.components.relevance >= floor else BELOW_FLOOR
    if any(judge_text(fact.text, keys) for fact in facts):
        return STALE_FACT_ONLY
    return NOT_LEARNED


async def calibrate(embedder: Embedder, name: str, directory: Path) -> list[Path]:
    """Build omoide once in ``directory`` and return the JSON files it wrote there: the
    per-embedder calibrations (relevance floor, duplicate threshold), computed from the
    model alone, which every case's fresh directory then starts with instead of
    recomputing them (a few seconds per case)."""
    app = await build(settings_for(directory, name), embedder=embedder)
    await app.aclose()
    return sorted(directory.glob("*.json"))


async def run_case(
    case: Case,
    pools: dict[str, list[FillerLine]],
    embedder: Embedder,
    name: str,
    caches: Sequence[Path] = (),
) -> CaseResult:
    with tempfile.TemporaryDirectory(prefix="omoide-companion-") as directory:
        settings = settings_for(Path(directory), name)
        for cache in caches:
            shutil.copy(cache, Path(directory) / cache.name)
        app = await build(settings, embedder=embedder)
        try:
            turns = await _store_all(app, case, pools)
            now = case.probe.at
            recollection = await app.memory.retrieve_context(case.scope, case.probe.text, now=now)
            bm25_only, vector_only = await _baselines(app, case, now)
            recalled = bool(judge_text(recollection.rendered.text, case.expect_any))
            reason = "" if recalled else await miss_reason(app, case, settings.min_relevance)
            episodes = await _viewer_episodes(app, case)
        finally:
            await app.aclose()
    text = recollection.rendered.text
    return CaseResult(
        id=case.id,
        file=case.file,
        kind=case.kind,
        split=case.split,
        embedder=name,
        recalled=recalled,
        leaked=judge_text(text, case.forbid),
        tokens=recollection.rendered.tokens,
        budget=settings.context_token_budget,
        bm25_only=bm25_only,
        vector_only=vector_only,
        stored=len(episodes),
        turns=turns,
        target_stored=any(judge_text(e.user_message, case.expect_any) for e in episodes),
        section_head=_section_head(text),
        miss_reason=reason,
    )


async def run_cases(
    cases: Sequence[Case], pools: dict[str, list[FillerLine]], name: str
) -> list[CaseResult]:
    """Every case with the embedder ``name``, loaded once for all of them."""
    with tempfile.TemporaryDirectory(prefix="omoide-companion-model-") as directory:
        embedder = await build_embedder(settings_for(Path(directory), name))
        try:
            return await _run_all(cases, pools, embedder, name, Path(directory))
        finally:
            await embedder.aclose()


async def _run_all(
    cases: Sequence[Case],
    pools: dict[str, list[FillerLine]],
    embedder: Embedder,
    name: str,
    directory: Path,
) -> list[CaseResult]:
    caches = await calibrate(embedder, name, directory / "calibration")
    results: list[CaseResult] = []
    for case in cases:
        result = await run_case(case, pools, embedder, name, caches)
        logger.info("%s %s: %s", name, case.id, "recalled" if result.recalled else "missed")
        results.append(result)
    return results

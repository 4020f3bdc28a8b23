"""Report sections 3-5 and the method notes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from benchmarks.speed import formatting as fmt
from benchmarks.speed import report_text as text
from benchmarks.speed.context_latency import ContextResult
from benchmarks.speed.formatting import markdown_table
from benchmarks.speed.ingest import IngestResult
from benchmarks.speed.llm_cost import LLMCost, LLMCostResult
from benchmarks.speed.stats import ratio
from benchmarks.speed.store_open import OpenMeasurement

if TYPE_CHECKING:
    from benchmarks.speed.qdrant_baseline import QdrantResult, QdrantSize
    from benchmarks.speed.results import SpeedResults

TARGET_LABELS = {
    "store": "SQLite store alone",
    "service": "omoide service (USE loaded)",
    "qdrant": "seed: Qdrant local",
}


def open_rows(opens: Sequence[OpenMeasurement]) -> list[list[str]]:
    return [
        [
            TARGET_LABELS.get(m.target, m.target),
            fmt.count(m.episodes),
            "cold" if m.cold else "warm",
            fmt.seconds(m.process_seconds),
            fmt.seconds(m.import_seconds),
            fmt.seconds(m.open_seconds),
            fmt.seconds(m.first_query_seconds),
            fmt.size_bytes(m.rss_after_open_bytes),
            fmt.size_bytes(m.peak_rss_bytes),
            fmt.size_bytes(m.store_bytes),
        ]
        for m in opens
    ]


def open_section(opens: Sequence[OpenMeasurement]) -> str:
    ours = [m for m in opens if m.target != "qdrant"]
    if not ours:
        return "## 3. Store size, memory and open time\n\nNot run."
    title = "## 3. Store size, memory and open time (fresh process each)"
    table = markdown_table(text.OPEN_HEADERS, open_rows(ours))
    return "\n\n".join([title, text.OPEN_METHOD, table, text.OPEN_LIMITS])


def baseline_section(
    qdrant: QdrantResult | None,
    context: ContextResult | None,
    ingest: IngestResult | None,
    opens: Sequence[OpenMeasurement],
) -> str:
    if qdrant is None:
        return "## 4. Baseline: the seed's design (Qdrant local mode)\n\nNot run."
    seed_opens = [m for size in qdrant.sizes for m in size.opens]
    version = qdrant.client_version
    return "\n\n".join([
        f"## 4. Baseline: the seed's design (qdrant-client {version}, local mode)",
        text.BASELINE_METHOD,
        markdown_table(text.BASELINE_HEADERS, [_baseline_row(size) for size in qdrant.sizes]),
        _comparison(qdrant.sizes, context, ingest, [*opens, *seed_opens]),
        markdown_table(text.OPEN_HEADERS, open_rows(seed_opens)),
        text.BASELINE_LIMITS,
    ])  # fmt: skip


def _baseline_row(size: QdrantSize) -> list[str]:
    capped = " (time cap)" if size.queries_stopped_by_time else ""
    with_embedding, search = size.query_with_embedding, size.query_search_only
    return [
        fmt.count(size.episodes),
        fmt.seconds(size.bulk_load_seconds) + (" (cached)" if size.bulk_load_reused else ""),
        f"{fmt.rate(size.per_call_turns_per_second)} ({size.per_call_turns} turns in "
        f"{fmt.seconds(size.per_call_seconds)})",
        fmt.seconds(size.extrapolated_ingest_seconds),
        f"{fmt.milliseconds(with_embedding.p50_ms)} / {fmt.milliseconds(with_embedding.p95_ms)}",
        f"{fmt.milliseconds(search.p50_ms)} / {fmt.milliseconds(search.p95_ms)}",
        f"{search.count}{capped}",
        fmt.size_bytes(size.disk_bytes),
    ]


def _comparison(
    sizes: Sequence[QdrantSize],
    context: ContextResult | None,
    ingest: IngestResult | None,
    opens: Sequence[OpenMeasurement],
) -> str:
    ours_ingest = {mode.name: mode.turns_per_second for mode in ingest.modes} if ingest else {}
    rows = []
    for size in sizes:
        ours = next(
            (s for s in (context.sizes if context else ()) if s.episodes == size.episodes), None
        )
        our_p95 = ours.latency["with_embedding"].p95_ms if ours else None
        seed_p95 = size.query_with_embedding.p95_ms
        our_open = _cold_open(opens, "store", size.episodes)
        seed_open = _cold_open(opens, "qdrant", size.episodes)
        seed_rate = fmt.rate(size.per_call_turns_per_second)
        rows.append(
            [
                fmt.count(size.episodes),
                f"{fmt.milliseconds(our_p95)} vs {fmt.milliseconds(seed_p95)}"
                f" (seed ÷ ours: {fmt.times(ratio(seed_p95, our_p95))})",
                f"{fmt.rate(ours_ingest.get('single'))} vs {seed_rate}",
                f"{fmt.rate(ours_ingest.get('batch-256'))} vs {seed_rate}",
                f"{fmt.seconds(our_open)} vs {fmt.seconds(seed_open)}",
            ]
        )
    return "Ours against the seed's, same run:\n\n" + markdown_table(text.COMPARISON_HEADERS, rows)


def _cold_open(opens: Sequence[OpenMeasurement], target: str, episodes: int) -> float | None:
    found = [m for m in opens if m.target == target and m.episodes == episodes]
    return found[0].open_and_first_query_seconds if found else None


def llm_section(llm: LLMCostResult | None) -> str:
    if llm is None:
        return "## 5. LLM calls and tokens\n\nNot run."
    method = text.LLM_METHOD.format(turns=fmt.count(llm.turns), batch=llm.batch_size)
    return "\n\n".join([
        "## 5. LLM calls and tokens per 1,000 turns (write path) and on the reply path",
        method,
        markdown_table(text.LLM_HEADERS, [_llm_row(cost) for cost in llm.configurations]),
        text.LLM_LIMITS,
    ])  # fmt: skip


def _llm_row(cost: LLMCost) -> list[str]:
    by_kind = cost.write_calls_by_kind
    reply = f"{cost.reply_calls} in {cost.reply_queries} contexts"
    return [
        cost.name,
        f"`OMOIDE_LLM={cost.llm_setting}`",
        "yes" if cost.uses_real_llm else "no",
        f"{cost.per_thousand(cost.write_calls):,.0f}",
        f"{cost.per_thousand(by_kind.get('importance', 0)):,.0f}",
        f"{cost.per_thousand(by_kind.get('extraction', 0)):,.0f}",
        f"{cost.per_thousand(cost.write_tokens_in):,.0f}",
        f"{cost.per_thousand(cost.write_tokens_out):,.0f}",
        reply + ("" if cost.has_model else " (no model)"),
    ]


def method_section(results: SpeedResults) -> str:
    return text.METHOD.format(profile=results.profile)

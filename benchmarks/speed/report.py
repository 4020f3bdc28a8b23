"""The Markdown report of one run: targets first, then each measurement with its limits."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.speed import formatting as fmt
from benchmarks.speed import report_text as text
from benchmarks.speed.context_latency import ContextResult, ContextSize
from benchmarks.speed.formatting import markdown_table
from benchmarks.speed.ingest import IngestResult
from benchmarks.speed.profiling import ProfileResult
from benchmarks.speed.report_sections import (
    baseline_section,
    llm_section,
    method_section,
    open_section,
)
from benchmarks.speed.report_server import server_section
from benchmarks.speed.results import SpeedResults

MODE_LABELS = {
    "with_embedding": "reply context, query embedded by USE",
    "precomputed_query": "reply context, query vector precomputed",
    "embed_query_alone": "USE `embed_query` alone",
}
STORE_CALL_LABELS = {
    "episode_vectors": "episode vector search (k=30)",
    "episode_keywords": "episode keyword search (FTS5, 30)",
    "fact_vectors": "fact vector search (k=20)",
    "fact_keywords": "fact keyword search (FTS5, 20)",
    "emotions": "emotions of the last 7 days",
    "reply_reads_all": "the reply's reads in one call, after the embedding (embedded "
    "store: all four searches, emotions, every fact)",
    "reply_reads_words": "the reply's reads without the vector, one call (both keyword "
    "searches, emotions, every fact)",
    "reply_reads_meaning": "the reply's reads by the vector, one call (both vector searches)",
}

SINGLE_CALLS = frozenset(name for name in STORE_CALL_LABELS if not name.startswith("reply_"))
"""The single-purpose reads (the reply path's calls are made of them)."""


def render_report(results: SpeedResults, *, plots: Sequence[str]) -> str:
    """The whole report; ``plots`` are image file names beside it."""
    parts = [
        header(results),
        targets_section(results),
        context_section(results.context, results.profiles),
        server_section(results.server, results.context, results.skipped.get("server")),
        ingest_section(results.ingest, results.profiles),
        open_section(results.opens),
        baseline_section(results.qdrant, results.context, results.ingest, results.opens),
        llm_section(results.llm),
        method_section(results),
    ]
    if plots:
        parts.append("## Plots\n\n" + "\n\n".join(f"![{name}]({name})" for name in plots))
    return "\n\n".join(part for part in parts if part) + "\n"


def header(results: SpeedResults) -> str:
    env = results.environment
    commit = env.commit + (" (with uncommitted changes)" if env.uncommitted_changes else "")
    versions = ", ".join(f"{name} {version}" for name, version in env.versions.items())
    skipped = "".join(
        f"\n- Not run: **{section}** ({reason})" for section, reason in results.skipped.items()
    )
    return (
        f"# omoide speed and cost benchmarks: `{results.profile}` profile\n\n"
        f"- Command: `{env.command}`\n"
        f"- Date: {env.date} (run took {fmt.seconds(results.duration_seconds)})\n"
        f"- Machine: {env.nproc} CPUs (`nproc`), {env.cpu_model}, "
        f"{fmt.size_bytes(env.memory_bytes)} RAM; {env.platform}\n"
        f"- Load average (1/5/15 min) at start {_load(env.load_average)}, "
        f"at end {_load(results.load_average_at_end)}: other work shares the machine\n"
        f"- Commit: `{commit}`\n"
        f"- Python {env.python}, SQLite {env.sqlite}; {versions}\n"
        f"- Embedder: `{results.embedder}` (1 thread, the default)"
        f"{skipped}"
    )


def _load(average: Sequence[float]) -> str:
    return " / ".join(f"{value:.1f}" for value in average)


def targets_section(results: SpeedResults) -> str:
    rows = [
        [
            check.name,
            check.limit_text,
            check.shown(check.measured),
            check.status.upper(),
            check.margin,
        ]
        for check in results.targets
    ]
    return "## Targets\n\n" + markdown_table(
        ["target", "limit", "measured", "status", "margin"], rows
    )


def context_section(context: ContextResult | None, profiles: Sequence[ProfileResult]) -> str:
    if context is None:
        return "## 1. Reply context latency\n\nNot run.\n\n" + _stage_table(profiles, "context")
    latency_rows = [
        [
            fmt.count(size.episodes),
            fmt.count(size.episodes / size.viewers),
            MODE_LABELS[mode],
            fmt.milliseconds(summary.p50_ms),
            fmt.milliseconds(summary.p95_ms),
            fmt.milliseconds(summary.p99_ms),
            fmt.milliseconds(summary.mean_ms),
            str(summary.count),
        ]
        for size in context.sizes
        for mode, summary in size.latency.items()
    ]
    parts = [
        "## 1. Reply context latency (`MemoryManager.retrieve_context`)",
        text.CONTEXT_METHOD,
        markdown_table(
            ["episodes", "per viewer", "what", "p50", "p95", "p99", "mean", "samples"],
            latency_rows,
        ),
        _ratios_table(context.sizes),
        _misses_warning(context.sizes),
        _store_calls_table(context.sizes),
        _slowest_call(context.sizes[-1]) if context.sizes else "",
        _build_table(context),
        _stage_table(profiles, "context"),
        text.CONTEXT_LIMITS.format(pool=fmt.count(context.pool_texts), noise=context.noise),
    ]
    return "\n\n".join(part for part in parts if part)


RATIO_HEADERS = [
    "episodes", "context ÷ embed_query (p50s)", "embedding's cost inside the context "
    "(median per-query difference)", "embed_query alone (p50)",
    "everything but the embedding (p50)", "context tokens / episodes / facts (mean)",
]  # fmt: skip


def _ratios_table(sizes: Sequence[ContextSize]) -> str:
    rows = []
    for size in sizes:
        full = size.latency["with_embedding"].p50_ms
        without = size.latency["precomputed_query"].p50_ms
        alone = size.latency["embed_query_alone"].p50_ms
        contents = (
            f"{size.mean_context_tokens:.0f} / {size.mean_context_episodes:.1f} / "
            f"{size.mean_context_facts:.1f}"
        )
        rows.append([
            fmt.count(size.episodes), fmt.times(full / alone),
            fmt.milliseconds(size.paired_embedding_ms), fmt.milliseconds(alone),
            fmt.milliseconds(without), contents,
        ])  # fmt: skip
    intro = "Against the embedder's own cost, same queries, same run:\n\n"
    return intro + markdown_table(RATIO_HEADERS, rows)


def _misses_warning(sizes: Sequence[ContextSize]) -> str:
    missed = [f"{size.episodes:,}: {size.precomputed_misses}" for size in sizes
              if size.precomputed_misses]  # fmt: skip
    if not missed:
        return ""
    return "Warning: some precomputed queries were embedded anyway (" + ", ".join(missed) + ")."


def _store_calls_table(sizes: Sequence[ContextSize]) -> str:
    rows = [
        [
            fmt.count(size.episodes),
            STORE_CALL_LABELS.get(name, name),
            fmt.milliseconds(summary.p50_ms),
            fmt.milliseconds(summary.p95_ms),
        ]
        for size in sizes
        for name, summary in size.store_calls.items()
    ]
    return "Each store call of the reply path, timed alone (same queries):\n\n" + (
        markdown_table(["episodes", "store call", "p50", "p95"], rows)
    )


def _slowest_call(size: ContextSize) -> str:
    """Which store call costs most at the largest size, against the whole reply path."""
    if not size.store_calls:
        return ""
    single = {name: call for name, call in size.store_calls.items() if name in SINGLE_CALLS}
    if not single:
        return ""
    name, summary = max(single.items(), key=lambda item: item[1].p50_ms)
    whole = size.latency["precomputed_query"].p50_ms
    return (
        f"At {fmt.count(size.episodes)} episodes the costliest store call is "
        f"{STORE_CALL_LABELS.get(name, name)}: p50 {fmt.milliseconds(summary.p50_ms)}, "
        f"{fmt.percent(summary.p50_ms / whole if whole else None)} of the reply path's p50 "
        "without the embedding."
    )


def _build_table(context: ContextResult) -> str:
    rows = [
        [
            fmt.count(size.episodes),
            fmt.seconds(size.build_write_seconds),
            fmt.rate(size.build_episodes_per_second, "episodes/s"),
            fmt.seconds(size.build_fact_seconds),
            fmt.size_bytes(size.store_bytes),
            f"reused (built {size.store_built_at})" if size.store_reused else "built in this run",
        ]
        for size in context.sizes
    ]
    pool = (
        f"The pool of {fmt.count(context.pool_texts)} exchanges and "
        f"{fmt.count(context.pool_facts)} facts took {fmt.seconds(context.pool_embed_seconds)} "
        f"to embed ({fmt.rate(context.pool_texts_per_second, 'texts/s')})"
        + (", cached from an earlier run" if context.pool_reused else "")
        + ". Building a store writes episodes and emotion records through `write_turns` in "
        "batches of 5,000 (one transaction each), then 20 facts per viewer via `add_facts`:"
    )
    return (
        pool
        + "\n\n"
        + markdown_table(
            ["episodes", "writing episodes", "rate", "writing facts", "file size", "store"], rows
        )
    )


def _stage_table(profiles: Sequence[ProfileResult], workload: str) -> str:
    profile = next((p for p in profiles if p.workload == workload), None)
    if profile is None:
        return ""
    rows = [
        [share.stage, fmt.percent(share.share), fmt.count(share.samples)]
        for share in profile.stages
    ]
    return (
        f"Where the time goes ({profile.workload}, py-spy, {fmt.count(profile.samples)} "
        f"busy samples over {fmt.seconds(profile.seconds)}, all threads; idle samples "
        f"left out; raw stacks in `{profile.raw_path}`):\n\n"
        + markdown_table(["stage", "share of busy samples", "samples"], rows)
    )


def ingest_section(ingest: IngestResult | None, profiles: Sequence[ProfileResult]) -> str:
    if ingest is None:
        return "## 2. Ingest throughput\n\nNot run.\n\n" + _stage_table(profiles, "ingest")
    rows = [
        [mode.name, fmt.rate(mode.turns_per_second), fmt.rate(mode.baseline_turns_per_second),
         fmt.percent(mode.ratio_to_embedder), fmt.percent(mode.embedding_share_of_ingest),
         f"{mode.texts_embedded_per_stored_turn:.2f}", str(len(mode.runs)),
         fmt.count(sum(run.turns for run in mode.runs))]
        for mode in ingest.modes
    ]  # fmt: skip
    mismatch = [
        mode.name
        for mode in ingest.modes
        if any(run.stored != run.predicted_stored for run in mode.runs)
    ]
    warning = f"Stored-turn counts differed from the rule prediction in {mismatch}."
    parts = [
        "## 2. Ingest throughput (`store_interaction`, `store_interactions`, "
        "`store_interaction_batches`)",
        text.INGEST_METHOD.format(viewers=ingest.viewers),
        markdown_table(text.INGEST_HEADERS, rows),
        text.INGEST_NOTE,
        warning if mismatch else "",
        _stage_table(profiles, "ingest"),
        text.INGEST_LIMITS,
    ]
    return "\n\n".join(part for part in parts if part)

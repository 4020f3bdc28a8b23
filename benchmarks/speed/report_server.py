"""Report section 1b: the reply path on the server profile, beside the embedded one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from benchmarks.speed import formatting as fmt
from benchmarks.speed.context_latency import ContextResult, ContextSize, ReplyTiming
from benchmarks.speed.formatting import markdown_table
from benchmarks.speed.stats import LatencySummary, ratio

if TYPE_CHECKING:
    from benchmarks.speed.server_latency import ServerResult

TITLE = "## 1b. Reply context latency: embedded (SQLite) and server (PostgreSQL + Qdrant)"
QUERY_MODES = {
    "with_embedding": "query embedded by USE",
    "precomputed_query": "query vector precomputed",
}
SIDE_BY_SIDE_HEADERS = [
    "episodes", "query", "embedded p50", "embedded p95", "embedded p99",
    "server p50", "server p95", "server p99", "server ÷ embedded (p50)",
]  # fmt: skip
LOAD_HEADERS = [
    "episodes", "copied (episodes / facts / emotions)", "copy + check (`migrate_sqlite`)",
    "rate", "index wait after the copy", "check", "Qdrant points (episodes / facts)", "copy",
]  # fmt: skip
STORE_CALL_HEADERS = ["episodes", "store call", "server p50", "server p95", "embedded p50"]
STORE_CALL_LABELS = {
    "episode_vectors": "episode vector search (k=30)",
    "episode_keywords": "episode keyword search (30)",
    "fact_vectors": "fact vector search (k=20)",
    "fact_keywords": "fact keyword search (20)",
    "emotions": "emotions of the last 7 days",
    "reply_reads_all": "the reply's reads in one call, after the embedding (embedded "
    "store: all four searches, emotions, every fact)",
    "reply_reads_words": "the reply's reads without the vector, one call (both keyword "
    "searches, emotions, every fact)",
    "reply_reads_meaning": "the reply's reads by the vector, one call (both vector searches)",
}

SERVER_METHOD = (
    "The embedded benchmark stores above are copied into a local PostgreSQL and a single "
    "Qdrant node (`scripts/local_servers.py`, started for this section on this machine) "
    "with `omoide.store.server.migrate.migrate_sqlite`, which also checks the copy. Then "
    "`retrieve_context` is timed through `OMOIDE_STORE=server` exactly as in section 1: the "
    "same queries from the same viewers, the same three interleaved modes, after the same "
    "warm-up. **What the server numbers include:** for each message, the vector and "
    "keyword searches (episodes and facts) are gRPC round trips to Qdrant, and the records "
    "and emotions are PostgreSQL queries over TCP through the store's connection pool; "
    "both servers run on 127.0.0.1, so there is no network latency, but they share the "
    "machine's CPUs with the benchmark. The embedded numbers are section 1's, measured in "
    "the same run. Qdrant builds its index while the copy runs; what remains after it is "
    "the index wait below."
)


def server_section(
    server: ServerResult | None, context: ContextResult | None, reason: str | None
) -> str:
    """The whole section, or why it was not run."""
    if server is None:
        because = f" ({reason})" if reason else ""
        return f"{TITLE}\n\nNot run{because}. Nothing in this section is estimated."
    versions = (
        f"PostgreSQL {server.postgres_version}, Qdrant {server.qdrant_version}; {server.transport}."
    )
    parts = [
        TITLE,
        SERVER_METHOD + " " + versions,
        markdown_table(SIDE_BY_SIDE_HEADERS, side_by_side_rows(server, context)),
        contents_comparison(server, context),
        _not_measured(server),
        "Each store call of the reply path, timed alone (same queries):\n\n"
        + markdown_table(STORE_CALL_HEADERS, store_call_rows(server, context)),
        "Copying the stores in (not part of the reply path; reused from an earlier run "
        "when the embedded store is unchanged):\n\n"
        + markdown_table(LOAD_HEADERS, load_rows(server)),
    ]
    return "\n\n".join(part for part in parts if part)


def side_by_side_rows(server: ServerResult, context: ContextResult | None) -> list[list[str]]:
    """One row per size and query mode: embedded and server percentiles side by side."""
    embedded = {size.episodes: size.latency for size in context.sizes} if context else {}
    rows = []
    for size in server.sizes:
        for mode, label in QUERY_MODES.items():
            ours = embedded.get(size.episodes, {}).get(mode)
            theirs = size.timing.latency[mode]
            rows.append([
                fmt.count(size.episodes), label, *_percentiles(ours), *_percentiles(theirs),
                fmt.times(ratio(theirs.p50_ms, ours.p50_ms if ours else None)),
            ])  # fmt: skip
    return rows


def contents_comparison(server: ServerResult, context: ContextResult | None) -> str:
    """The contexts' mean contents in both profiles: the same memories should come back."""
    embedded = {size.episodes: size for size in context.sizes} if context else {}
    lines = [
        f"- {fmt.count(size.episodes)} episodes: embedded "
        f"{_contents(embedded.get(size.episodes))}, server {_contents(size.timing)}"
        for size in server.sizes
    ]
    intro = "Mean context contents (tokens / episodes / facts, query vector precomputed):\n\n"
    return intro + "\n".join(lines) if lines else ""


def _contents(measured: ContextSize | ReplyTiming | None) -> str:
    if measured is None:
        return fmt.MISSING
    return (
        f"{measured.mean_context_tokens:.0f} / {measured.mean_context_episodes:.1f} / "
        f"{measured.mean_context_facts:.1f}"
    )


def _percentiles(summary: LatencySummary | None) -> list[str]:
    if summary is None:
        return [fmt.MISSING] * 3
    return [fmt.milliseconds(value) for value in (summary.p50_ms, summary.p95_ms, summary.p99_ms)]


def store_call_rows(server: ServerResult, context: ContextResult | None) -> list[list[str]]:
    embedded = {size.episodes: size.store_calls for size in context.sizes} if context else {}
    rows = []
    for size in server.sizes:
        for name, summary in size.timing.store_calls.items():
            ours = embedded.get(size.episodes, {}).get(name)
            rows.append([
                fmt.count(size.episodes), STORE_CALL_LABELS.get(name, name),
                fmt.milliseconds(summary.p50_ms), fmt.milliseconds(summary.p95_ms),
                fmt.milliseconds(ours.p50_ms if ours else None),
            ])  # fmt: skip
    return rows


def load_rows(server: ServerResult) -> list[list[str]]:
    rows = []
    for size in server.sizes:
        load = size.load
        rows.append([
            fmt.count(load.episodes),
            f"{fmt.count(load.copied_episodes)} / {fmt.count(load.copied_facts)} / "
            f"{fmt.count(load.copied_emotions)}",
            fmt.seconds(load.load_seconds), fmt.rate(load.episodes_per_second, "episodes/s"),
            fmt.seconds(load.index_seconds), "passed" if load.verified else "FAILED",
            f"{fmt.count(load.episode_points)} / {fmt.count(load.fact_points)}",
            f"reused (made {load.loaded_at})" if load.reused else "made in this run",
        ])  # fmt: skip
    return rows


def _not_measured(server: ServerResult) -> str:
    if not server.not_measured:
        return ""
    lines: Sequence[str] = [
        f"- {int(size):,} episodes: not measured, {reason}."
        for size, reason in server.not_measured.items()
    ]
    return "\n".join(lines)

"""The stream benchmark's Markdown report."""

from __future__ import annotations

from typing import Any


def markdown_report(results: dict[str, Any]) -> str:
    latency = results["retrieve_context_ms"]
    ingest = results["ingest"]
    lines = [
        f"# Stream benchmark ({results['profile']})",
        "",
        f"{results['messages']:,} synthetic comments (ko/ja/zh/en) from {results['viewers']:,} "
        f"viewers, {results['events_per_request']} per ingest request; embedder: "
        f"{results['embedder']}; LLM: {results['llm']}. The stream worker and a "
        "`retrieve_context` sampler ran concurrently with ingestion.",
        "",
        "| measure | value |",
        "| --- | --- |",
        f"| ingestion throughput | {results['messages_per_second']:,} messages/s "
        f"({results['ingest_seconds']} s) |",
        f"| model calls per 1,000 messages | {results['llm_calls_per_1000_messages']} "
        f"({results['llm_calls']:,} calls) |",
        f"| retrieve_context p50 / p95 / p99 under load | {latency['p50']} / {latency['p95']} / "
        f"{latency['p99']} ms ({latency['samples']:,} samples) |",
        f"| stored / low-signal / below threshold / answered | {ingest['stored']:,} / "
        f"{ingest['skipped_low_signal']:,} / {ingest['skipped_below_threshold']:,} / "
        f"{ingest['replied']:,} |",
        f"| viewer batches / diary entries | {results['viewer_batches']:,} / "
        f"{results['diary_entries']} |",
        f"| end of stream + drain | {results['drain_seconds_after_end']} s |",
        "",
        f"Machine: {results['environment']['cpus']} CPUs, Python "
        f"{results['environment']['python']}. Reproduce with "
        f"`python -m benchmarks.stream --profile {results['profile']}`.",
        "",
    ]
    return "\n".join(lines)

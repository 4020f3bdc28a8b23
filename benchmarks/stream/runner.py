"""Replay a synthetic stream through the stream service and measure it.

Three things run at once, as on a live server: ingestion (comments in batches, the measured
throughput), the stream worker (per-viewer model batches, diary entries and identity
proposals, answered by a scripted model) and a sampler asking ``retrieve_context`` for
viewers already seen (the measured latency). The embedder is the default one (USE).
"""

from __future__ import annotations

import json
import logging
import platform
import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import numpy as np

from benchmarks.stream.profiles import PROFILES, StreamProfile
from benchmarks.stream.report import markdown_report
from benchmarks.stream.scripted import stream_benchmark_responder
from benchmarks.stream.synthetic import START, Viewer, make_viewers, question, stream_events
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.events import StreamEvent
from omoide.stream.service import StreamService
from omoide.wiring import Omoide, build

logger = logging.getLogger(__name__)

REPOSITORY = Path(__file__).resolve().parents[2]
CHARACTER = "haru"
STREAM = "bench-stream"


@dataclass
class _Load:
    """What the concurrent tasks share while the stream is replayed."""

    seen: list[Viewer] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    ingesting: bool = True


async def run_stream_benchmark(profile_name: str, results_dir: Path) -> dict[str, Any]:
    profile = PROFILES[profile_name]
    generator = random.Random(profile.seed)
    viewers = make_viewers(profile.viewers, generator)
    events = list(
        stream_events(
            viewers,
            profile.messages,
            spacing_seconds=profile.seconds_between_messages,
            generator=generator,
        )
    )
    by_id = {viewer.viewer_id: viewer for viewer in viewers}
    with tempfile.TemporaryDirectory(prefix="omoide-stream-bench-") as work:
        clock = FixedClock(START)
        settings = Settings(data_dir=Path(work), embedder="use", llm="none", stream_llm="on")
        model = ScriptedChatModel(responder=stream_benchmark_responder)
        built = await build(settings, clock=clock, chat_model=model)
        try:
            measured = await _replay(built, built.streams, profile, events, by_id, clock)
        finally:
            await built.aclose()
    results = _results(profile, measured, model)
    results_dir.mkdir(parents=True, exist_ok=True)
    stem = results_dir / f"stream-{profile.name}"
    stem.with_suffix(".json").write_text(
        json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    stem.with_suffix(".md").write_text(markdown_report(results), encoding="utf-8")
    return results


async def _replay(
    built: Omoide,
    service: StreamService,
    profile: StreamProfile,
    events: list[StreamEvent],
    by_id: dict[str, Viewer],
    clock: FixedClock,
) -> dict[str, Any]:
    load = _Load()
    totals = {"stored": 0, "skipped_low_signal": 0, "skipped_below_threshold": 0, "replied": 0}
    async with anyio.create_task_group() as group:
        group.start_soon(_worker, service, load)
        group.start_soon(_sampler, built, load, profile, clock)
        started = time.perf_counter()
        for start in range(0, len(events), profile.events_per_request):
            batch = events[start : start + profile.events_per_request]
            clock.set(batch[-1].time)
            report = await service.ingest(CHARACTER, STREAM, batch)
            for name in totals:
                totals[name] += getattr(report, name)
            load.seen.extend(by_id[event.viewer_id] for event in batch if event.viewer_id in by_id)
            if start // profile.events_per_request % 20 == 0:
                logger.info("ingested %d/%d comments", start + len(batch), len(events))
        ingest_seconds = time.perf_counter() - started
        load.ingesting = False
    clock.set(events[-1].time + timedelta(minutes=30))
    drained_at = time.perf_counter()
    end = await service.end_stream(CHARACTER, STREAM)
    await service.drain()
    return {
        "ingest_seconds": ingest_seconds,
        "drain_seconds": time.perf_counter() - drained_at,
        "totals": totals,
        "latencies_ms": load.latencies_ms,
        "stats": service.stats(),
        "diary_entries": len(await service.diary(CHARACTER, limit=1000)),
        "end_identity": [outcome.status.value for outcome in end.identity],
        "metrics": built.metrics.snapshot(),
    }


async def _worker(service: StreamService, load: _Load) -> None:
    """The background worker, as a server runs it, until ingestion ends."""
    while load.ingesting:
        report = await service.flush_due()
        if not report.did_work:
            await anyio.sleep(0.05)


async def _sampler(built: Omoide, load: _Load, profile: StreamProfile, clock: FixedClock) -> None:
    """Reply-time context requests for viewers already seen, while ingestion runs."""
    generator = random.Random(profile.seed + 1)
    while load.ingesting:
        if load.seen:
            viewer = generator.choice(load.seen)
            scope = Scope(CHARACTER, viewer.viewer_id)
            text = question(viewer, generator)
            started = time.perf_counter()
            await built.memory.retrieve_context(scope, text, now=clock.now())
            load.latencies_ms.append((time.perf_counter() - started) * 1000)
        await anyio.sleep(profile.recall_pause_seconds)


def _percentile(values: list[float], share: float) -> float | None:
    return round(float(np.percentile(values, share)), 2) if values else None


def _results(
    profile: StreamProfile, measured: dict[str, Any], model: ScriptedChatModel
) -> dict[str, Any]:
    stats = measured["stats"]
    latencies = measured["latencies_ms"]
    rate = profile.messages / measured["ingest_seconds"]
    results: dict[str, Any] = {
        "profile": profile.name,
        "messages": profile.messages,
        "viewers": profile.viewers,
        "languages": ["ko", "ja", "zh", "en"],
        "events_per_request": profile.events_per_request,
        "embedder": "use (multilingual USE v3, default)",
        "llm": "scripted (answers instantly; counts calls)",
        "ingest_seconds": round(measured["ingest_seconds"], 2),
        "messages_per_second": round(rate, 1),
        "drain_seconds_after_end": round(measured["drain_seconds"], 2),
        "ingest": measured["totals"],
        "llm_calls": stats.llm_calls,
        "llm_calls_per_1000_messages": round(stats.llm_calls_per_1000_messages, 2),
        "model_calls_total": model.call_count,
        "viewer_batches": stats.viewer_batches,
        "diary_entries": measured["diary_entries"],
        "retrieve_context_ms": {
            "samples": len(latencies),
            "p50": _percentile(latencies, 50),
            "p95": _percentile(latencies, 95),
            "p99": _percentile(latencies, 99),
        },
        "environment": {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": _cpus(),
        },
        "metrics": {
            k: v
            for k, v in sorted(measured["metrics"].items())
            if k.startswith(("stream.", "identity.", "llm."))
        },
    }
    results["summary"] = _summary(results)
    return results


def _summary(results: dict[str, Any]) -> str:
    latency = results["retrieve_context_ms"]
    return (
        f"stream {results['profile']}: {results['messages']} messages from "
        f"{results['viewers']} viewers at {results['messages_per_second']:.0f} messages/s; "
        f"{results['llm_calls_per_1000_messages']} model calls per 1,000 messages; "
        f"retrieve_context p50 {latency['p50']} ms, p95 {latency['p95']} ms under load"
    )


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

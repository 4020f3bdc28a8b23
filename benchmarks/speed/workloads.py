"""Steady workloads for the sampling profiler: reply contexts, or batched ingest.

Each sets up (model loaded, store open, a few warm-up calls), prints ``ready`` on stdout
so the profiler attaches only then, and runs for the given number of seconds.
"""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks.speed.context_latency import open_service
from benchmarks.speed.corpus import CHARACTER_ID, DEFAULT_TIMELINE, viewer_scope
from benchmarks.speed.ingest import INGEST_VIEWERS, open_ingest_service, to_inputs
from benchmarks.speed.stats import Stopwatch
from benchmarks.speed.synthetic import ChatGenerator
from omoide.embed.use import USEEmbedder

WARMUP_CALLS = 5
READY = "ready"


def announce_ready() -> None:
    sys.stdout.write(READY + "\n")
    sys.stdout.flush()


async def run_context_workload(data_dir: Path, *, seconds: float, viewers: int = 1000) -> int:
    """Reply contexts for random viewers of the store in ``data_dir``; returns how many."""
    now = DEFAULT_TIMELINE.end
    generator = ChatGenerator(seed=7, viewers=viewers, timeline=DEFAULT_TIMELINE)
    service = await open_service(data_dir, USEEmbedder(), now)
    try:
        count = 0
        for index in range(WARMUP_CALLS + 1):
            if index == WARMUP_CALLS:
                announce_ready()
            viewer = generator.random_viewer()
            await service.memory.retrieve_context(
                viewer_scope(viewer), generator.query(viewer), now=now
            )
        watch = Stopwatch()
        while watch.elapsed() < seconds:
            viewer = generator.random_viewer()
            await service.memory.retrieve_context(
                viewer_scope(viewer), generator.query(viewer), now=now
            )
            count += 1
    finally:
        await service.aclose()
    return count


async def run_ingest_workload(data_dir: Path, *, seconds: float, batch_size: int) -> int:
    """Batched ``store_interactions`` into a fresh store in ``data_dir``; returns turns written."""
    generator = ChatGenerator(seed=11, viewers=INGEST_VIEWERS, timeline=DEFAULT_TIMELINE)
    service = await open_ingest_service(data_dir, USEEmbedder())
    try:
        await service.memory.store_interactions(
            CHARACTER_ID, to_inputs(generator.turns(batch_size))
        )
        announce_ready()
        count = 0
        watch = Stopwatch()
        while watch.elapsed() < seconds:
            turns = to_inputs(generator.turns(batch_size))
            await service.memory.store_interactions(CHARACTER_ID, turns)
            count += len(turns)
    finally:
        await service.aclose()
    return count

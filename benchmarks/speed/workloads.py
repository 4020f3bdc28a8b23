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
from omoide.config import Settings
from omoide.embed.use import USEEmbedder
from omoide.wiring import build_embedder

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
    """``store_interaction_batches`` (four batches a call) into a fresh store in ``data_dir``
    with the default embedder as the composition root builds it (large batches in a worker
    process); returns turns written."""
    generator = ChatGenerator(seed=11, viewers=INGEST_VIEWERS, timeline=DEFAULT_TIMELINE)
    embedder = await build_embedder(Settings(data_dir=data_dir))
    service = await open_ingest_service(data_dir, embedder)

    async def write() -> int:
        groups = [to_inputs(generator.turns(batch_size)) for _ in range(4)]
        await service.memory.store_interaction_batches(CHARACTER_ID, groups)
        return batch_size * len(groups)

    try:
        await write()
        announce_ready()
        count = 0
        watch = Stopwatch()
        while watch.elapsed() < seconds:
            count += await write()
    finally:
        await service.aclose()
        await embedder.aclose()
    return count

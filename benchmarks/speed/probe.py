"""Work run in a fresh process: cold opens (time and memory) and workloads for the profiler.

``python -m benchmarks.speed.probe <command> ...``; open commands print one JSON object.
Imports of omoide and of the vendors happen inside the commands, after the stopwatch
starts, because their cost is part of what an open costs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

STATUS_FIELDS = {"VmRSS": "rss_bytes", "VmHWM": "peak_rss_bytes"}


def parse_proc_status(text: str) -> dict[str, int]:
    """Resident and peak resident memory in bytes from ``/proc/<pid>/status`` text."""
    found: dict[str, int] = {}
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name in STATUS_FIELDS:
            number, _, unit = value.strip().partition(" ")
            if unit.strip() != "kB":
                raise ValueError(f"unexpected unit {unit!r} for {name} in /proc status")
            found[STATUS_FIELDS[name]] = int(number) * 1024
    missing = set(STATUS_FIELDS.values()) - set(found)
    if missing:
        raise ValueError(f"/proc status lacks {sorted(missing)}")
    return found


def memory_now() -> dict[str, int]:
    return parse_proc_status(Path("/proc/self/status").read_text(encoding="ascii"))


class PhaseClock:
    """Seconds and resident memory after each named phase of a probe."""

    def __init__(self) -> None:
        self._last = time.perf_counter()
        self.report: dict[str, float | int] = {}

    def phase(self, name: str) -> None:
        now = time.perf_counter()
        self.report[f"{name}_seconds"] = now - self._last
        self.report[f"rss_after_{name}_bytes"] = memory_now()["rss_bytes"]
        self._last = time.perf_counter()

    def finish(self) -> dict[str, float | int]:
        self.report["peak_rss_bytes"] = memory_now()["peak_rss_bytes"]
        return self.report


async def open_store(arguments: argparse.Namespace) -> dict[str, float | int]:
    """Open the SQLite store and run the store calls of one reply (no embedder)."""
    clock = PhaseClock()
    from datetime import datetime, timedelta

    import numpy as np

    from omoide.domain import Scope
    from omoide.store.base import EmbeddingInfo, EpisodeFilter, FactFilter
    from omoide.store.sqlite.store import open_sqlite_store

    clock.phase("import")
    info = EmbeddingInfo(arguments.model_name, arguments.dimensions)
    store = await open_sqlite_store(Path(arguments.database), embedding=info)
    clock.phase("open")
    scope = Scope(arguments.character, arguments.viewer)
    vector = np.random.default_rng(1).standard_normal(arguments.dimensions).astype(np.float32)
    vector /= np.linalg.norm(vector)
    now = datetime.fromisoformat(arguments.now)
    where = EpisodeFilter(until=now)
    await store.search_episode_vectors(scope, vector, where=where, limit=30)
    await store.search_episode_keywords(scope, arguments.query, where=where, limit=30)
    await store.search_fact_vectors(scope, vector, where=FactFilter(), limit=20)
    await store.search_fact_keywords(scope, arguments.query, where=FactFilter(), limit=20)
    await store.list_emotions(scope, since=now - timedelta(days=7), until=now)
    clock.phase("first_query")
    await store.close()
    return clock.finish()


async def open_service(arguments: argparse.Namespace) -> dict[str, float | int]:
    """Build omoide with its default embedder on the store, then build one reply context."""
    clock = PhaseClock()
    from datetime import datetime

    from omoide.clock import FixedClock
    from omoide.config import Settings
    from omoide.domain import Scope
    from omoide.wiring import build

    clock.phase("import")
    now = datetime.fromisoformat(arguments.now)
    settings = Settings(data_dir=Path(arguments.data_dir), llm="none")
    service = await build(settings, clock=FixedClock(now))
    clock.phase("open")
    scope = Scope(arguments.character, arguments.viewer)
    await service.memory.retrieve_context(scope, arguments.query, now=now)
    clock.phase("first_query")
    await service.aclose()
    return clock.finish()


async def open_qdrant(arguments: argparse.Namespace) -> dict[str, float | int]:
    """Open a local-mode Qdrant collection and run the seed's filtered search once."""
    clock = PhaseClock()
    import numpy as np
    from qdrant_client import QdrantClient

    from benchmarks.speed.seed_design import COLLECTION, seed_filter

    clock.phase("import")
    client = QdrantClient(path=arguments.path)
    client.get_collection(COLLECTION)
    clock.phase("open")
    vector = np.random.default_rng(1).standard_normal(arguments.dimensions).astype(np.float32)
    client.query_points(
        COLLECTION,
        query=(vector / np.linalg.norm(vector)).tolist(),
        query_filter=seed_filter(arguments.viewer),
        limit=5,
        with_payload=True,
    )
    clock.phase("first_query")
    client.close()
    return clock.finish()


async def context_workload(arguments: argparse.Namespace) -> dict[str, float | int]:
    """Reply contexts on the store for ``seconds`` after printing ``ready``."""
    from benchmarks.speed.workloads import run_context_workload

    count = await run_context_workload(Path(arguments.data_dir), seconds=arguments.seconds)
    return {"contexts": count}


async def ingest_workload(arguments: argparse.Namespace) -> dict[str, float | int]:
    """Batched ingest into a fresh store for ``seconds`` after printing ``ready``."""
    from benchmarks.speed.workloads import run_ingest_workload

    count = await run_ingest_workload(
        Path(arguments.data_dir), seconds=arguments.seconds, batch_size=arguments.batch_size
    )
    return {"turns": count}


Command = Callable[[argparse.Namespace], Coroutine[Any, Any, dict[str, float | int]]]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.probe")
    commands = parser.add_subparsers(dest="command", required=True)
    store = commands.add_parser("open-store")
    store.add_argument("--database", required=True)
    store.add_argument("--model-name", required=True)
    store.add_argument("--dimensions", type=int, required=True)
    service = commands.add_parser("open-service")
    service.add_argument("--data-dir", required=True)
    qdrant = commands.add_parser("open-qdrant")
    qdrant.add_argument("--path", required=True)
    qdrant.add_argument("--dimensions", type=int, required=True)
    for command in (store, service, qdrant):
        command.add_argument("--character", default="haru")
        command.add_argument("--viewer", required=True)
        command.add_argument("--query", default="")
        command.add_argument("--now", default="2024-06-29T00:00:00+00:00")
    context = commands.add_parser("context")
    ingest = commands.add_parser("ingest")
    ingest.add_argument("--batch-size", type=int, default=256)
    for command in (context, ingest):
        command.add_argument("--data-dir", required=True)
        command.add_argument("--seconds", type=float, required=True)
    return parser


COMMANDS: dict[str, Command] = {
    "open-store": open_store,
    "open-service": open_service,
    "open-qdrant": open_qdrant,
    "context": context_workload,
    "ingest": ingest_workload,
}


def main(argv: list[str] | None = None) -> None:
    arguments = _parser().parse_args(argv)
    import anyio

    result = anyio.run(COMMANDS[arguments.command], arguments)
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()

"""``make bench`` / ``make bench-quick``: every benchmark, one after the other.

Runs retrieval quality (LoCoMo, LongMemEval, MemoryBank with baselines), the companion
suite (hand-written viewer histories, with BM25-only and vector-only baselines), speed and
cost (context assembly, ingest, open time, the seed's Qdrant local mode), the stream replay,
and how fast the ``omoide`` command answers (``benchmarks.cli_speed``),
writing JSON, Markdown and PNG reports to ``benchmarks/results/``. Each part can also run
alone: ``python -m benchmarks.quality|companion|speed|stream --profile quick|full``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

from benchmarks.cli_speed import run_cli_speed
from benchmarks.companion import run_companion
from benchmarks.quality.runner import run_quality
from benchmarks.speed import run_speed
from benchmarks.stream import run_stream

RESULTS = Path(__file__).resolve().parent / "results"
Part = Callable[[str, Path], Awaitable[dict[str, Any]]]
PARTS: dict[str, Part] = {
    "quality": run_quality,
    "companion": run_companion,
    "speed": run_speed,
    "stream": run_stream,
    "cli": run_cli_speed,
}


async def run_all(profile: str, results_dir: Path, names: list[str]) -> dict[str, float]:
    seconds: dict[str, float] = {}
    for name in names:
        started = time.perf_counter()
        logging.info("benchmark %s (%s) starting", name, profile)
        await PARTS[name](profile, results_dir)
        seconds[name] = time.perf_counter() - started
        logging.info("benchmark %s finished in %.0f s", name, seconds[name])
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run")
    parser.add_argument("--profile", choices=["quick", "full"], default="quick")
    parser.add_argument("--only", choices=sorted(PARTS), action="append")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    names = arguments.only or list(PARTS)
    seconds = anyio.run(run_all, arguments.profile, arguments.results_dir, names)
    for name, spent in seconds.items():
        sys.stdout.write(f"{name}: {spent:.0f} s -> {arguments.results_dir}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m benchmarks.companion``: run the companion suite, then write the reports."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import anyio

from benchmarks.companion.dataset import CASES_DIR, FILES
from benchmarks.companion.suite import PROFILES, SPLIT_CHOICES, run_benchmark

RESULTS = Path(__file__).resolve().parents[1] / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.companion", description="omoide companion suite"
    )
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--split", choices=SPLIT_CHOICES, default="all")
    parser.add_argument("--lang", choices=FILES, action="append", help="repeatable; default all")
    parser.add_argument(
        "--embedder",
        action="append",
        help="use, e5, use+e5 or use+e5:<e5's weight> (repeatable; default: the profile's)",
    )
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument(
        "--cases-dir", type=Path, default=CASES_DIR, help="cases to run (default: the suite's)"
    )
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    document = anyio.run(
        lambda: run_benchmark(
            arguments.profile,
            arguments.results_dir,
            split=arguments.split,
            files=arguments.lang or FILES,
            embedders=arguments.embedder,
            cases_dir=arguments.cases_dir,
        )
    )
    for name, run in document["embedders"].items():
        total = run["summary"]["total"]["all"]
        sys.stdout.write(
            f"{name}: omoide {total['omoide %']} % recalled, {total['leaks']} leaks, "
            f"{total['stale']} stale, "
            f"{total['over budget']} over budget; bm25-only {total['bm25-only %']} %, "
            f"vector-only {total['vector-only %']} %\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

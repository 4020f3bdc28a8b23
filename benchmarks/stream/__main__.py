"""``python -m benchmarks.stream --profile quick|full``: run, then write the reports."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import anyio

from benchmarks.stream.profiles import PROFILES
from benchmarks.stream.runner import REPOSITORY, run_stream_benchmark


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.stream", description="omoide stream benchmark"
    )
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--results-dir", type=Path, default=REPOSITORY / "benchmarks" / "results")
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    results = anyio.run(run_stream_benchmark, arguments.profile, arguments.results_dir)
    sys.stdout.write(f"{results['summary']}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

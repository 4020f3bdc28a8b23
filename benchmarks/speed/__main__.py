"""``python -m benchmarks.speed --profile quick|full``: run, then write the reports."""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from pathlib import Path

import anyio

from benchmarks.speed.profiles import PROFILES
from benchmarks.speed.runner import DEFAULT_WORK_DIR, REPOSITORY, SECTIONS, run_speed_benchmarks


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed", description="omoide speed and cost benchmarks"
    )
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--results-dir", type=Path, default=REPOSITORY / "benchmarks" / "results")
    parser.add_argument("--work-dir", type=Path, default=DEFAULT_WORK_DIR)
    parser.add_argument(
        "--sections",
        help=f"comma-separated subset of {','.join(SECTIONS)} (default: all)",
    )
    parser.add_argument("--rebuild", action="store_true", help="rebuild cached benchmark stores")
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    sections = arguments.sections.split(",") if arguments.sections else None
    command = "python -m benchmarks.speed " + shlex.join(sys.argv[1:] if argv is None else argv)
    results = anyio.run(
        lambda: run_speed_benchmarks(
            arguments.profile,
            arguments.results_dir,
            work_dir=arguments.work_dir,
            sections=sections,
            rebuild=arguments.rebuild,
            command=command,
        )
    )
    skipped = results.get("skipped", {})
    failed = [name for name, reason in skipped.items() if str(reason).startswith("failed")]
    for name in failed:
        sys.stderr.write(f"section {name} {skipped[name]}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

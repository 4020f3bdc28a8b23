"""``python -m benchmarks.quality --profile quick|full``: run and write the report."""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from pathlib import Path

import anyio

from benchmarks.quality.dataset import REPOSITORY_ROOT
from benchmarks.quality.runner import PROFILES, rebuild_report, run_quality


def parse_arguments(arguments: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.quality", description=__doc__)
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument(
        "--results-dir", type=Path, default=REPOSITORY_ROOT / "benchmarks" / "results"
    )
    parser.add_argument("--threads", type=int, default=None, help="embedder threads")
    parser.add_argument(
        "--embedder",
        action="append",
        help="an embedder instead of the profile's (repeatable): use, e5, use+e5[:<e5 weight>]",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rebuild the report from the scores saved by the last run of the profile",
    )
    return parser.parse_args(arguments)


def main(arguments: list[str] | None = None) -> int:
    given = sys.argv[1:] if arguments is None else arguments
    options = parse_arguments(given)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    command = shlex.join(["python", "-m", "benchmarks.quality", *given])

    async def run() -> None:
        if options.report_only:
            document = rebuild_report(options.profile, options.results_dir)
        else:
            document = await run_quality(
                options.profile,
                options.results_dir,
                threads=options.threads,
                command=command,
                embedders=tuple(options.embedder or ()),
            )
        print(f"recommended: {document['recommended']}")
        for entry in document["targets"]:
            status = "met" if entry["met"] else f"short by {entry['gap']:.3f}"
            where = f"{entry['system']}, {entry['split']}"
            print(f"{entry['target']} [{where}]: {entry['value']:.3f} ({status})")

    anyio.run(run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

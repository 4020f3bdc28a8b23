"""The companion benchmark: select cases, run them per embedder, summarise, report."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.companion.dataset import CASES_DIR, FILES, Case, load_all_cases, load_pools
from benchmarks.companion.report import commit, machine, write_reports
from benchmarks.companion.runner import MISS_REASONS, CaseResult, run_cases

PROFILES: dict[str, tuple[str, ...]] = {"quick": ("use",), "full": ("use", "e5")}
SPLIT_CHOICES = ("dev", "heldout", "all")
SYSTEMS = ("omoide", "bm25-only", "vector-only")


def select(cases: Sequence[Case], *, split: str, files: Sequence[str]) -> list[Case]:
    return [
        case for case in cases if case.file in files and (split == "all" or case.split == split)
    ]


def _tally(results: Sequence[CaseResult]) -> dict[str, Any]:
    n = len(results)
    found = {
        "omoide": sum(r.recalled for r in results),
        "bm25-only": sum(r.bm25_only for r in results),
        "vector-only": sum(r.vector_only for r in results),
    }
    return {
        "n": n,
        **{f"{name} recalled": count for name, count in found.items()},
        **{f"{name} %": round(100 * count / n, 1) if n else 0.0 for name, count in found.items()},
        "leaks": sum(bool(r.leaked) for r in results if r.kind == "isolation"),
        "stale": sum(bool(r.leaked) for r in results if r.kind != "isolation"),
        "over budget": sum(r.over_budget for r in results),
        "target stored": sum(r.target_stored for r in results),
        "missed, why": {
            reason: count
            for reason in MISS_REASONS
            if (count := sum(r.miss_reason == reason for r in results))
        },
    }


def summarise(results: Sequence[CaseResult]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per file (language), then per split and over both: counts and percentages."""
    summary: dict[str, dict[str, dict[str, Any]]] = {}
    for file in [*FILES, "total"]:
        chosen = [r for r in results if file in (r.file, "total")]
        if not chosen:
            continue
        summary[file] = {
            split: _tally([r for r in chosen if split in (r.split, "all")])
            for split in ("dev", "heldout", "all")
        }
    return summary


def command(
    profile: str,
    split: str,
    files: Sequence[str],
    embedders: Sequence[str],
    cases_dir: Path = CASES_DIR,
) -> str:
    words = ["python -m benchmarks.companion", "--profile", profile, "--split", split]
    if cases_dir != CASES_DIR:
        words += ["--cases-dir", str(cases_dir)]
    if list(files) != list(FILES):
        words += [part for file in files for part in ("--lang", file)]
    if tuple(embedders) != PROFILES[profile]:
        words += [part for name in embedders for part in ("--embedder", name)]
    return " ".join(words)


async def run_benchmark(
    profile: str,
    results_dir: Path,
    *,
    split: str = "all",
    files: Sequence[str] = FILES,
    embedders: Sequence[str] | None = None,
    cases_dir: Path = CASES_DIR,
) -> dict[str, Any]:
    """Run the selected cases (from ``cases_dir``: the suite's own by default) with each
    embedder; write the reports; return the document."""
    started = time.perf_counter()
    environment = machine()
    names = tuple(embedders or PROFILES[profile])
    cases = select(load_all_cases(files, directory=cases_dir), split=split, files=files)
    pools = load_pools(cases)
    runs: dict[str, Any] = {}
    for name in names:
        results = await run_cases(cases, pools, name)
        runs[name] = {
            "summary": summarise(results),
            "cases": [asdict(result) | {"over_budget": result.over_budget} for result in results],
        }
    document = {
        "profile": profile,
        "command": command(profile, split, files, names, cases_dir),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit(),
        "machine": environment,
        "python": sys.version.split()[0],
        "split": split,
        "files": list(files),
        "seconds": round(time.perf_counter() - started, 1),
        "embedders": runs,
    }
    write_reports(document, results_dir)
    return document

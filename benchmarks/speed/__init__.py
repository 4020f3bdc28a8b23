"""Speed and cost benchmarks of omoide: ``python -m benchmarks.speed --profile quick|full``.

The package's modules are imported on use, so that a probe process started with
``python -m benchmarks.speed.probe`` pays only for what it measures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["run_speed"]


async def run_speed(profile: str, results_dir: Path) -> dict[str, Any]:
    """Run the speed benchmarks of ``profile`` ("quick" or "full"); write the reports
    (``speed-<profile>.json``, ``.md`` and PNG plots) to ``results_dir``; return the results."""
    from benchmarks.speed.runner import run_speed_benchmarks

    return await run_speed_benchmarks(profile, results_dir)

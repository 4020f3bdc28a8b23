"""Opening a store in a fresh process: time to open and answer a first query, and memory.

Each probe is a new interpreter (``benchmarks.speed.probe``), run twice: cold, after the
kernel's page cache is dropped (when the benchmark may write ``/proc/sys/vm/drop_caches``,
i.e. runs as root; otherwise the run is marked warm), then warm, right after. Memory is
the probe's own resident set size from ``/proc/self/status``.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from benchmarks.speed.stats import Stopwatch
from omoide.errors import BackendError

logger = logging.getLogger(__name__)

DROP_CACHES = Path("/proc/sys/vm/drop_caches")


@dataclass(frozen=True, slots=True)
class OpenMeasurement:
    """One probe run: phases in seconds, memory in bytes."""

    target: str
    episodes: int
    cold: bool
    process_seconds: float
    import_seconds: float
    open_seconds: float
    first_query_seconds: float
    rss_after_open_bytes: int
    rss_after_first_query_bytes: int
    peak_rss_bytes: int
    store_bytes: int

    @property
    def open_and_first_query_seconds(self) -> float:
        return self.open_seconds + self.first_query_seconds


def drop_page_cache() -> bool:
    """Write dirty pages and drop the page cache; False when not permitted."""
    try:
        os.sync()
        DROP_CACHES.write_text("3\n", encoding="ascii")
    except OSError:
        return False
    return True


def warm_page_cache(path: Path, *, chunk_bytes: int = 8 << 20) -> int:
    """Read ``path`` once so its pages are cached, as in a service that has been running;
    returns the bytes read."""
    total = 0
    with path.open("rb", buffering=0) as source:
        while chunk := source.read(chunk_bytes):
            total += len(chunk)
    return total


def directory_bytes(path: Path) -> int:
    """Total size of the files under ``path`` (or of the file itself)."""
    if path.is_file():
        return path.stat().st_size
    return sum(item.stat().st_size for item in path.rglob("*") if item.is_file())


async def run_probe(arguments: Sequence[str], *, cwd: Path) -> tuple[dict[str, float], float]:
    """The probe's JSON report and the wall time of the whole process."""
    command = [sys.executable, "-m", "benchmarks.speed.probe", *arguments]
    watch = Stopwatch()
    try:
        finished = await anyio.run_process(command, cwd=cwd, check=True)
    except subprocess.CalledProcessError as exc:
        detail = exc.stderr.decode("utf-8", "replace")[-2000:] if exc.stderr else ""
        raise BackendError(f"probe {arguments[0]} failed: {detail}") from exc
    elapsed = watch.elapsed()
    lines = finished.stdout.decode("utf-8").strip().splitlines()
    report: dict[str, float] = json.loads(lines[-1])
    return report, elapsed


async def measure_open(
    target: str,
    arguments: Sequence[str],
    *,
    episodes: int,
    store_bytes: int,
    cwd: Path,
) -> list[OpenMeasurement]:
    """A cold run (if the page cache can be dropped) and a warm run of one probe."""
    measurements = []
    for wants_cold in (True, False):
        cold = drop_page_cache() if wants_cold else False
        if wants_cold and not cold:
            logger.warning("cannot drop the page cache (not root?): the cold open is warm")
        report, elapsed = await run_probe(arguments, cwd=cwd)
        measurements.append(
            OpenMeasurement(
                target=target,
                episodes=episodes,
                cold=cold,
                process_seconds=elapsed,
                import_seconds=float(report["import_seconds"]),
                open_seconds=float(report["open_seconds"]),
                first_query_seconds=float(report["first_query_seconds"]),
                rss_after_open_bytes=int(report["rss_after_open_bytes"]),
                rss_after_first_query_bytes=int(report["rss_after_first_query_bytes"]),
                peak_rss_bytes=int(report["peak_rss_bytes"]),
                store_bytes=store_bytes,
            )
        )
    return measurements

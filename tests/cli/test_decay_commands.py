"""``omoide decay --dry-run`` changes nothing; ``omoide restore`` undoes a decay run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from omoide.cli import app

runner = CliRunner()
OLD = "2025-01-01T00:00:00+00:00"
LATER = "2025-03-01T00:00:00+00:00"


def invoke(*arguments: str) -> str:
    result = runner.invoke(app, list(arguments))
    assert result.exit_code == 0, result.output
    return result.output


def test_preview_run_and_restore(tmp_path: Path) -> None:
    common = ["--data-dir", str(tmp_path), "--embedder", "hashing"]
    stored = json.loads(
        invoke(
            "remember",
            "the bus was late",
            "-u",
            "a",
            "--force",
            "--timestamp",
            OLD,
            "--json",
            *common,
        )
    )
    export = ["export", "-u", "a", "--json", *common]
    before = invoke(*export)

    preview = json.loads(invoke("decay", "--dry-run", "--now", LATER, "--json", *common))
    readable = invoke("decay", "--dry-run", "--now", LATER, *common)

    assert (preview["dry_run"], preview["archived"], preview["archived_ids"]) == (
        True,
        1,
        [stored["episode_id"]],
    )
    assert "1 would be archived" in " ".join(readable.split()) and "nothing changed" in readable
    assert invoke(*export) == before

    run = invoke("decay", "--now", LATER, *common)
    assert "archived 1 of 1 episodes" in run and "omoide restore" in run
    archived = json.loads(invoke(*export))["episodes"][0]["archived_at"]
    assert archived == "2025-03-01T00:00:00Z"

    restored = json.loads(invoke("restore", "--archived-since", LATER, "--json", *common))

    assert restored == {
        "character_id": "haru",
        "restored": 1,
        "episode_ids": [stored["episode_id"]],
    }
    assert json.loads(invoke(*export))["episodes"][0]["archived_at"] is None
    found = json.loads(invoke("search", "bus late", "-u", "a", "--json", "--now", LATER, *common))
    assert [hit["episode_id"] for hit in found["episodes"]] == [stored["episode_id"]]


def test_restore_needs_ids_or_a_time(tmp_path: Path) -> None:
    result = runner.invoke(app, ["restore", "--data-dir", str(tmp_path), "--embedder", "hashing"])
    assert result.exit_code == 2
    assert "--archived-since" in result.output

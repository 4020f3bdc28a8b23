"""``omoide keys create | list | revoke`` through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from omoide.cli.keys import keys_app
from omoide.store.records.keys import hash_secret
from omoide.store.sqlite.key_file import read_key_file


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("OMOIDE_API_KEYS", raising=False)
    monkeypatch.delenv("OMOIDE_DATA_DIR", raising=False)
    return CliRunner()


def shell() -> typer.Typer:
    app = typer.Typer()
    app.add_typer(keys_app, name="keys")
    return app


def test_create_prints_the_secret_once_and_stores_its_hash(run: CliRunner, tmp_path: Path) -> None:
    result = run.invoke(
        shell(), ["keys", "create", "-c", "haru", "--character", "ash", "--data-dir", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    secret = result.stdout.strip().splitlines()[-1]
    (key,) = read_key_file(tmp_path / "keys.json")
    assert key.secret_sha256 == hash_secret(secret)
    assert key.characters == frozenset({"haru", "ash"})
    assert key.key_id in result.stdout
    listed = run.invoke(shell(), ["keys", "list", "--data-dir", str(tmp_path)])
    assert key.key_id in listed.stdout
    assert secret not in listed.stdout


def test_json_output_and_environment_keys(
    run: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = run.invoke(
        shell(), ["keys", "create", "-c", "*", "--data-dir", str(tmp_path), "--json"]
    )
    payload = json.loads(created.stdout)
    assert payload["characters"] == ["*"]
    assert payload["secret"].startswith("omo_")
    monkeypatch.setenv("OMOIDE_API_KEYS", "from-env:haru")
    listed = run.invoke(shell(), ["keys", "list", "--data-dir", str(tmp_path), "--json"])
    keys = json.loads(listed.stdout)
    assert [(key["key_id"], key["source"]) for key in keys] == [
        ("env-1", "environment"),
        (payload["key_id"], "file"),
    ]
    assert "from-env" not in listed.stdout


def test_revoke(run: CliRunner, tmp_path: Path) -> None:
    created = run.invoke(
        shell(), ["keys", "create", "-c", "haru", "--data-dir", str(tmp_path), "--json"]
    )
    key_id = json.loads(created.stdout)["key_id"]
    revoked = run.invoke(shell(), ["keys", "revoke", key_id, "--data-dir", str(tmp_path)])
    assert revoked.exit_code == 0
    assert read_key_file(tmp_path / "keys.json") == ()
    again = run.invoke(shell(), ["keys", "revoke", key_id, "--data-dir", str(tmp_path)])
    assert again.exit_code == 1
    assert "no API key" in again.stderr


@pytest.mark.parametrize("characters", [[], ["-c", "../etc"], ["-c", "*", "-c", "haru"]])
def test_create_refuses_bad_characters(
    run: CliRunner, tmp_path: Path, characters: list[str]
) -> None:
    result = run.invoke(shell(), ["keys", "create", *characters, "--data-dir", str(tmp_path)])
    assert result.exit_code != 0
    assert not (tmp_path / "keys.json").exists()


def test_list_without_keys(run: CliRunner, tmp_path: Path) -> None:
    result = run.invoke(shell(), ["keys", "list", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0
    assert "no API keys" in result.stdout

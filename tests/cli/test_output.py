"""What the commands print: sentences and whole tables for people, the HTTP API's JSON
shapes with ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from typer.testing import CliRunner

from omoide.api.views import SearchOut
from omoide.cli import app
from omoide.cli.render import changed_lines
from tests.api.harness import make_settings, running_api

runner = CliRunner()
SAID = (
    "어제 친구들이랑 새벽까지 롤 랭크 게임 하다가 드디어 골드 승급전에서 이겼어요 진짜 너무 기뻐요"
)
WHEN = "2026-01-05T21:00:00+09:00"


def invoke(*arguments: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, list(arguments), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def common(data_dir: Path) -> list[str]:
    return ["--data-dir", str(data_dir), "--embedder", "hashing"]


def remember(data_dir: Path, message: str = SAID, *, user: str = "minjun") -> str:
    return invoke(
        "remember", message, "-u", user, "--force", "--timestamp", WHEN, *common(data_dir)
    )


def column(output: str, index: int) -> str:
    """The text of one table column, its wrapped lines joined (spaces dropped)."""
    cells = [line.split("│") for line in output.splitlines() if line.count("│") > index]
    return "".join("".join(cell[index].split()) for cell in cells)


def test_remember_prints_a_sentence_not_a_dict(tmp_path: Path) -> None:
    output = remember(tmp_path)
    assert output.startswith("remembered as episode ")
    assert "{" not in output and "'" not in output


def test_search_tables_keep_whole_dates_and_korean_text_at_80_columns(tmp_path: Path) -> None:
    remember(tmp_path)
    output = invoke("search", "롤 랭크 게임", "-u", "minjun", *common(tmp_path))
    assert max(len(line) for line in output.splitlines()) <= 80
    assert "2026-01-05 12:00 UTC" in output
    assert "".join(SAID.split()) in column(output.split("episodes")[-1], 2)
    assert "…" not in output


def test_json_is_the_http_shape(tmp_path: Path) -> None:
    stored = json.loads(
        invoke("remember", "I love League of Legends", "-u", "sora", "--json", *common(tmp_path))
    )
    found = json.loads(invoke("search", "League", "-u", "sora", "--json", *common(tmp_path)))
    SearchOut.model_validate(found)
    assert found["episodes"][0]["episode_id"] == stored["episode_id"]
    assert "fact_id" in found["facts"][0] and "item" not in found["facts"][0]
    printed = json.loads(invoke("facts", "-u", "sora", "--json", *common(tmp_path)))

    async def over_http() -> object:
        async with running_api(make_settings(tmp_path)) as api:
            return (await api.client.get("/v1/characters/haru/users/sora/facts")).json()

    assert printed == anyio.run(over_http)


def test_export_prints_a_summary_or_with_json_everything(tmp_path: Path) -> None:
    remember(tmp_path)
    summary = invoke("export", "-u", "minjun", *common(tmp_path))
    assert "episodes" in summary and "add --json" in summary
    exported = json.loads(invoke("export", "-u", "minjun", "--json", *common(tmp_path)))
    assert [episode["user_message"] for episode in exported["episodes"]] == [SAID]


def test_forget_requires_the_viewer(tmp_path: Path) -> None:
    remember(tmp_path, user="viewer")
    result = runner.invoke(app, ["forget", "--yes", *common(tmp_path)])
    assert result.exit_code == 2
    assert "--user" in result.output
    kept = json.loads(invoke("export", "-u", "viewer", "--json", *common(tmp_path)))
    assert len(kept["episodes"]) == 1
    output = invoke("forget", "-u", "viewer", "--yes", *common(tmp_path))
    assert "haru forgot viewer" in output and "episodes" in output


def test_reembed_shows_progress_with_counts(tmp_path: Path) -> None:
    remember(tmp_path)
    remember(tmp_path, "I love League of Legends", user="sora")
    output = invoke(
        "reembed", "--batch-size", "1", *common(tmp_path), env={"OMOIDE_EMBEDDER_DIMENSIONS": "128"}
    )
    assert "re-embedding with hashing:128" in output
    assert "3/3" in output  # 2 episodes and the fact the English one states
    assert "re-embedded 2 episodes and 1 facts: hashing:256 (256) -> hashing:128" in output
    assert "{" not in output


def test_a_diff_shows_only_the_changed_lines() -> None:
    before = ["League of Legends", "ramen", "cats"]
    after = ["League of Legends", "spicy ramen", "cats", "Minecraft 건축 방송"]
    assert changed_lines(before, after) == [
        "- ramen",
        "+ spicy ramen",
        "+ Minecraft 건축 방송",
    ]
    assert changed_lines("cheerful\nshy", "cheerful\nbold") == ["- shy", "+ bold"]
    assert changed_lines(None, ["one"]) == ["+ one"]
    assert changed_lines(["same"], ["same"]) == []

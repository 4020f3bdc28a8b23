"""The CLI through typer's runner, on a real data directory."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from typer.testing import CliRunner

from omoide.api.views_profile import ProfileOut
from omoide.cli import app
from omoide.config import Settings
from omoide.domain import FactCategory, Scope
from omoide.wiring import build

runner = CliRunner()


def invoke(*arguments: str) -> str:
    result = runner.invoke(app, list(arguments))
    assert result.exit_code == 0, result.output
    return result.output


def test_remember_then_search_context_facts_export_and_forget(tmp_path: Path) -> None:
    common = ["--data-dir", str(tmp_path), "--embedder", "hashing"]
    who = ["-c", "haru", "-u", "민준"]
    stored = json.loads(
        invoke(
            "remember",
            "나 롤 게임 엄청 좋아해요!",
            *who,
            *common,
            "--json",
            "--timestamp",
            "2026-01-05T21:00:00+09:00",
        )
    )
    assert stored["stored"] is True
    facts = json.loads(invoke("facts", *who, *common, "--json"))
    assert any("롤" in fact["text"] for fact in facts)
    found = json.loads(invoke("search", "롤 게임", *who, *common, "--json"))
    assert found["episodes"][0]["user_message"] == "나 롤 게임 엄청 좋아해요!"
    assert found["episodes"][0]["episode_id"] == stored["episode_id"]
    assert set(found["episodes"][0]["components"]) >= {"relevance", "recency", "importance"}
    section = json.loads(
        invoke(
            "context",
            "요즘 뭐하면서 놀아요?",
            *who,
            *common,
            "--json",
            "--now",
            "2026-01-12T21:00:00+09:00",
        )
    )
    assert "롤" in section["text"]
    exported = json.loads(invoke("export", *who, *common, "--json"))
    assert len(exported["episodes"]) == 1
    forgotten = json.loads(invoke("forget", *who, *common, "--yes", "--json"))
    assert forgotten["episodes"] == 1
    assert json.loads(invoke("facts", *who, *common, "--json")) == []


def test_bad_input_exits_with_a_message(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["remember", "   ", "--data-dir", str(tmp_path), "--embedder", "hashing"],
    )
    assert result.exit_code == 1
    assert "user_message" in result.output


def test_decay_reports_what_it_scanned(tmp_path: Path) -> None:
    common = ["--data-dir", str(tmp_path), "--embedder", "hashing"]
    invoke(
        "remember",
        "the bus was late",
        "-u",
        "a",
        "--force",
        *common,
        "--timestamp",
        "2025-01-01T00:00:00+00:00",
    )
    report = json.loads(invoke("decay", *common, "--json", "--now", "2025-03-01T00:00:00+00:00"))
    assert report == {
        "character_id": "haru",
        "dry_run": False,
        "now": "2025-03-01T00:00:00Z",
        "scanned": 1,
        "archived": 1,
        "purged": 0,
        "archived_ids": [],
        "purged_ids": [],
    }


def test_demo_shows_the_remembered_preference_in_the_system_prompt(tmp_path: Path) -> None:
    output = invoke("demo", "--data-dir", str(tmp_path), "--embedder", "hashing")
    prompt = output[output.index("the system prompt Haru received") :]
    assert "롤 게임" in prompt
    assert "<memories>" in prompt


def add_facts(data_dir: Path, user: str, facts: list[tuple[str, FactCategory, float]]) -> None:
    """Facts a person states, written through the library into the CLI's data directory."""

    async def main() -> None:
        built = await build(Settings(data_dir=data_dir, embedder="hashing"))
        try:
            for text, category, salience in facts:
                await built.memory.add_fact(Scope("haru", user), text, category, salience=salience)
        finally:
            await built.aclose()

    anyio.run(main)


def test_profile_shows_the_groups_and_prints_the_api_shape(tmp_path: Path) -> None:
    common = ["--data-dir", str(tmp_path), "--embedder", "hashing"]
    likes = [("롤을 좋아해요", 0.7), ("매운 라면을 좋아해요", 0.6), ("고양이를 좋아해요", 0.5)]
    add_facts(
        tmp_path,
        "minjun",
        [
            ("간호사로 일해요", FactCategory.PERSONAL, 0.8),
            *((text, FactCategory.PREFERENCE, salience) for text, salience in likes),
            ("재즈를 좋아해요", FactCategory.PREFERENCE, 0.2),
        ],
    )
    shown = ProfileOut.model_validate_json(
        invoke("profile", "-c", "haru", "-u", "minjun", *common, "--json")
    )
    assert [group.label for group in shown.groups] == ["about them", "likes & dislikes"]
    assert [fact.text for fact in shown.groups[1].facts] == [text for text, _ in likes]
    assert (shown.shown, shown.total_facts) == (4, 5)
    table = invoke("profile", "-c", "haru", "-u", "minjun", *common)
    assert "4 of 5 current facts" in table
    assert "likes & dislikes" in table and "간호사로 일해요" in table
    assert "재즈를 좋아해요" not in table
    steered = invoke("profile", "-u", "minjun", "--message", "요즘 재즈 들으면서 공부해요", *common)
    assert "재즈를 좋아해요" in steered
    assert "고양이를 좋아해요" not in steered


def test_profile_of_an_unknown_viewer_is_empty(tmp_path: Path) -> None:
    common = ["--data-dir", str(tmp_path), "--embedder", "hashing"]
    add_facts(tmp_path, "minjun", [("간호사로 일해요", FactCategory.PERSONAL, 0.8)])
    empty = json.loads(invoke("profile", "-u", "somebody", *common, "--json"))
    assert empty == {
        "character_id": "haru",
        "user_id": "somebody",
        "groups": [],
        "total_facts": 0,
        "shown": 0,
    }
    assert "no facts yet" in invoke("profile", "-u", "somebody", *common)

"""``omoide context`` on the read path: the store, recall with the viewer profile and the
token counter, and the store's embedder; no chat model and no write path.

It prints, byte for byte, what the full build's ``MemoryManager.retrieve_context`` answers,
and writes what the full build writes: the reinforcement of what the section recalled
(the full build writes it when it closes, the reader when it closes).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
from typer.testing import CliRunner

from omoide.api.views import ContextOut
from omoide.cli import app
from omoide.clock import FixedClock
from omoide.config import EmbedderName, Settings
from omoide.domain import FactCategory, Scope, TurnState
from omoide.wiring import build

runner = CliRunner()
SCOPE = Scope("haru", "minjun")
NOW = datetime(2026, 1, 5, 12, tzinfo=UTC)
TOLD = (
    ("나 롤 게임 엄청 좋아해요!", "joy"),
    ("어제 고양이를 입양했어요", "joy"),
    ("어제 롤 게임 하다가 친구랑 싸웠어", "sadness"),
    ("롤 게임 랭크 드디어 골드 찍었어요", "joy"),
)
MESSAGE = "요즘도 롤 게임 해?"


def settings(data_dir: Path, embedder: EmbedderName = "hashing") -> Settings:
    return Settings(data_dir=data_dir, embedder=embedder)


def write_store(data_dir: Path, embedder: EmbedderName = "hashing") -> None:
    """Exchanges with emotions, the facts they told, and a fact added by hand."""

    async def main() -> None:
        built = await build(settings(data_dir, embedder), clock=FixedClock(NOW))
        try:
            for days, (text, emotion) in enumerate(TOLD):
                moment = NOW - timedelta(days=10 - days)
                await built.memory.store_interaction(
                    SCOPE, text, "그랬구나!", TurnState(emotion, 0.7), timestamp=moment,
                    force_store=True,
                )  # fmt: skip
            await built.memory.add_fact(
                SCOPE, "고양이 이름은 나비", FactCategory.PERSONAL, at=NOW - timedelta(days=1)
            )
        finally:
            await built.aclose()

    anyio.run(main)


def full_build_answer(
    data_dir: Path, message: str, budget: int | None = None, embedder: EmbedderName = "hashing"
) -> str:
    """The full build's section for ``message``, as ``omoide context --json`` prints it."""

    async def main() -> dict[str, Any]:
        built = await build(settings(data_dir, embedder))
        try:
            recollection = await built.memory.retrieve_context(
                SCOPE, message, now=NOW, token_budget=budget
            )
            return ContextOut.of(recollection).model_dump(mode="json")
        finally:
            await built.aclose()  # writes the reinforcement of what was recalled

    return json.dumps(anyio.run(main), ensure_ascii=False, indent=2) + "\n"


def printed(data_dir: Path, *arguments: str, embedder: EmbedderName = "hashing") -> str:
    memory = ["--data-dir", str(data_dir), "--embedder", embedder, "-u", "minjun"]
    result = runner.invoke(app, [*arguments, *memory])
    assert result.exit_code == 0, result.output
    return result.output


def test_context_prints_what_the_full_build_answers_and_reinforces_alike(
    tmp_path: Path,
) -> None:
    original = tmp_path / "original"
    write_store(original)
    full, light = tmp_path / "full", tmp_path / "light"
    shutil.copytree(original, full)
    shutil.copytree(original, light)

    expected = full_build_answer(full, MESSAGE)
    answer = printed(light, "context", MESSAGE, "--now", NOW.isoformat(), "--json")

    section = json.loads(answer)
    assert section["fact_ids"] and section["episode_ids"] and section["searched"]
    assert "Recent mood" in section["text"]  # the emotion summary
    assert answer == expected
    recalled = set(section["fact_ids"]) | set(section["episode_ids"])
    assert reinforcement(light, recalled) == reinforcement(full, recalled)
    assert all(count == 1 for count, _ in reinforcement(light, recalled).values())


def reinforcement(data_dir: Path, ids: set[str]) -> dict[str, tuple[int, str | None]]:
    """Recall count and time of the memories ``ids``, as ``omoide export`` shows them."""
    exported = json.loads(printed(data_dir, "export", "--json"))
    kept = {fact["fact_id"]: fact for fact in exported["facts"]}
    kept |= {episode["episode_id"]: episode for episode in exported["episodes"]}
    return {key: (kept[key]["recall_count"], kept[key]["last_recalled_at"]) for key in ids}


def test_on_a_store_of_the_default_model_too(tmp_path: Path) -> None:
    """USE loads from the model cache on the read path, and embeds the message through
    the query cache in the full build: the same vectors, the same section."""
    original = tmp_path / "original"
    write_store(original, "use")
    full, light = tmp_path / "full", tmp_path / "light"
    shutil.copytree(original, full)
    shutil.copytree(original, light)

    expected = full_build_answer(full, MESSAGE, embedder="use")
    answer = printed(light, "context", MESSAGE, "--now", NOW.isoformat(), "--json", embedder="use")

    assert json.loads(answer)["fact_ids"]
    assert answer == expected


def test_the_text_and_a_budget_read_as_in_the_full_build(tmp_path: Path) -> None:
    original = tmp_path / "original"
    write_store(original)
    full, light = tmp_path / "full", tmp_path / "light"
    shutil.copytree(original, full)
    shutil.copytree(original, light)

    expected = json.loads(full_build_answer(full, MESSAGE, budget=60))
    shown = printed(light, "context", MESSAGE, "--now", NOW.isoformat(), "--budget", "60")

    assert expected["text"] and expected["tokens"] <= 60
    assert shown.endswith(f"\n{expected['tokens']} tokens\n")
    assert shown.split() == [*expected["text"].split(), str(expected["tokens"]), "tokens"]


def test_nothing_stored_yet_answers_as_an_empty_store_and_stays_absent(tmp_path: Path) -> None:
    nowhere, fresh = tmp_path / "nothing-here", tmp_path / "fresh"
    for message in (MESSAGE, "ㅋㅋ"):  # a slight message is not searched
        answer = printed(nowhere, "context", message, "--now", NOW.isoformat(), "--json")
        assert answer == full_build_answer(fresh, message)
    assert json.loads(answer)["searched"] is False
    assert not nowhere.exists()


def test_the_store_is_not_read_with_another_embedder_than_its_own(tmp_path: Path) -> None:
    """As the full build refuses it: the message would be embedded by another model."""
    write_store(tmp_path)
    result = runner.invoke(app, ["context", MESSAGE, "-u", "minjun", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "hashing" in result.output and "omoide reembed" in " ".join(result.output.split())


def test_the_profile_steered_by_a_message_is_the_full_builds(tmp_path: Path) -> None:
    """``omoide profile --message`` chooses on the read path as the full build chooses."""
    write_store(tmp_path)

    async def main() -> dict[str, Any]:
        from omoide.api.views_profile import ProfileOut

        built = await build(settings(tmp_path))
        try:
            return ProfileOut.of(await built.memory.profile(SCOPE, MESSAGE)).model_dump(mode="json")
        finally:
            await built.aclose()

    expected = json.dumps(anyio.run(main), ensure_ascii=False, indent=2) + "\n"
    assert printed(tmp_path, "profile", "--message", MESSAGE, "--json") == expected
    assert json.loads(expected)["shown"] >= 2
    empty = tmp_path / "empty"
    assert json.loads(printed(empty, "profile", "--message", MESSAGE, "--json"))["shown"] == 0
    assert not empty.exists()  # nothing created, no model loaded

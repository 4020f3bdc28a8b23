"""Migration 7 of the embedded store: a file written before episodes kept their readings
gets the column, every episode in it without readings (the reply path reads their words,
:mod:`omoide.memory.episode_readings`), and nothing else changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter
from omoide.store.sqlite import open_sqlite_store
from omoide.store.sqlite.connection import open_connection
from tests.store.builders import EMBEDDING, at, episode, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "mina")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def forget_migration_7(path: Path) -> None:
    """Put the file back as the version before readings were kept left it."""
    connection = open_connection(path)
    connection.execute("ALTER TABLE episodes DROP COLUMN readings")
    connection.execute("DELETE FROM schema_migrations WHERE version = 7")
    connection.close()


async def test_episodes_written_before_have_no_readings_and_stay_as_they_were(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.sqlite3"
    written = [
        replace(
            episode(VIEWER, "e1", "우리 집 강아지 이름은 보리예요", recorded_at=at(1)), readings="x"
        ),
        episode(VIEWER, "e2", "来週、大阪に引っ越すんだ", recorded_at=at(2)),
    ]
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await store.write_turns("haru", [turn(item) for item in written])
    await store.close()
    forget_migration_7(path)

    store = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        listed = await store.list_episodes(VIEWER, where=EpisodeFilter(), limit=10)
        assert sorted(listed, key=lambda item: item.id) == written
        assert [item.readings for item in listed] == [None, None]
        kept = replace(episode(VIEWER, "e3", "오늘 비 와요", recorded_at=at(3)), readings="y")
        await store.write_turns("haru", [turn(kept)])
        assert (await store.get_episode(VIEWER, "e3")).readings == "y"
    finally:
        await store.close()

"""The SQLite growth store's own file: it survives reopening and records its migrations.

What both backends share is tested in tests/stream/test_growth_store.py."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from omoide.character.identity_store import IdentityVersion
from omoide.character.library import CharacterLibrary
from omoide.errors import Conflict
from omoide.store.growth_sqlite import MIGRATIONS, SqliteGrowthStore
from tests.stream.harness import START


@pytest.mark.anyio
async def test_versions_are_unique_and_survive_reopening(tmp_path: Path) -> None:
    profile = (await CharacterLibrary([]).load("haru")).profile
    path = tmp_path / "growth.sqlite3"
    store = SqliteGrowthStore(path)
    version = IdentityVersion("haru", 0, profile, (), "the profile file", START)
    await store.add_version(version)
    with pytest.raises(Conflict):
        await store.add_version(version)
    store.close()
    reopened = SqliteGrowthStore(path)
    assert await reopened.latest_version("haru") == version
    assert await reopened.list_versions("other") == []
    reopened.close()
    connection = apsw.Connection(str(path))
    assert connection.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
    connection.close()

"""Migration 6 of the embedded store: a file written before display names were kept gets
its viewers' names from what its stored stream comments carry (``display_name`` in the
episodes' metadata), each with the first and last time it was seen."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.domain import DisplayName, Scope
from omoide.store.sqlite import open_sqlite_store
from omoide.store.sqlite.connection import open_connection
from tests.store.builders import EMBEDDING, at, episode, turn

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def forget_migration_6(path: Path) -> None:
    """Put the file back as the version before display names left it."""
    connection = open_connection(path)
    connection.execute("DROP TABLE display_names")
    connection.execute("DELETE FROM schema_migrations WHERE version = 6")
    connection.close()


async def test_names_are_filled_from_stored_stream_comments(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    sora, quiet = Scope("haru", "sora"), Scope("haru", "quiet")
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    comments = [
        episode(sora, "e1", recorded_at=at(1), metadata={"display_name": "Sora"}),
        episode(sora, "e2", recorded_at=at(4), metadata={"display_name": " Sora "}),
        episode(sora, "e3", recorded_at=at(2), metadata={"display_name": "ソラ"}),
        episode(quiet, "e4", recorded_at=at(3), metadata={"display_name": 7}),
        episode(quiet, "e5", recorded_at=at(5), metadata={"display_name": "  "}),
        episode(Scope("haru"), "e6", recorded_at=at(6), metadata={"display_name": "Haru"}),
    ]
    await store.write_turns("haru", [turn(item) for item in comments])
    await store.close()
    forget_migration_6(path)

    store = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        assert await store.list_display_names(sora) == [
            DisplayName("Sora", at(1), at(4)),
            DisplayName("ソラ", at(2), at(2)),
        ]
        assert await store.list_display_names(quiet) == []
        assert await store.count_viewers("haru", search="そら") == 0
        assert await store.count_viewers("haru", search="ソラ") == 1
    finally:
        await store.close()

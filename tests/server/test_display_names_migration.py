"""PostgreSQL migration 8: a store written before display names were kept gets its
viewers' names from what its stored stream comments carry (``display_name`` in the
episodes' metadata), each with the first and last time it was seen."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from omoide.domain import DisplayName, Scope
from tests.server.servers import session_servers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path
from tests.store.builders import EMBEDDING, at, episode, turn

pytestmark = pytest.mark.anyio


async def test_names_are_filled_from_stored_stream_comments(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    servers = session_servers(request.config)
    backend = ServerBackend(namespace_pool(request.config, servers))
    sora, quiet = Scope("haru", "sora"), Scope("haru", "quiet")
    comments = [
        episode(sora, "e1", recorded_at=at(1), metadata={"display_name": "Sora"}),
        episode(sora, "e2", recorded_at=at(4), metadata={"display_name": " Sora "}),
        episode(sora, "e3", recorded_at=at(2), metadata={"display_name": "ソラ"}),
        episode(quiet, "e4", recorded_at=at(3), metadata={"display_name": 7}),
        episode(quiet, "e5", recorded_at=at(5), metadata={"display_name": "  "}),
        episode(Scope("haru"), "e6", recorded_at=at(6), metadata={"display_name": "Haru"}),
    ]
    try:
        store = await backend(tmp_path, "main", EMBEDDING)
        await store.write_turns("haru", [turn(item) for item in comments])
        await store.close()
        url = with_search_path(servers.database_url, backend.namespace_of(tmp_path, "main"))
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
            await connection.execute("DROP TABLE display_names")
            await connection.execute("DELETE FROM schema_migrations WHERE version = 8")

        store = await backend(tmp_path, "main", EMBEDDING)
        try:
            assert await store.list_display_names(sora) == [
                DisplayName("Sora", at(1), at(4)),
                DisplayName("ソラ", at(2), at(2)),
            ]
            assert await store.list_display_names(quiet) == []
            assert await store.count_viewers("haru", search="ソラ") == 1
        finally:
            await store.close()
    finally:
        await backend.give_back()

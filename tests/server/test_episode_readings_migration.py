"""PostgreSQL migration 9: a store written before episodes kept their readings gets the
column, every episode in it without readings (the reply path reads their words,
:mod:`omoide.memory.episode_readings`), and nothing else changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter
from tests.server.servers import session_servers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path
from tests.store.builders import EMBEDDING, at, episode, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "mina")


async def test_episodes_written_before_have_no_readings_and_stay_as_they_were(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    servers = session_servers(request.config)
    backend = ServerBackend(namespace_pool(request.config, servers))
    written = [
        replace(
            episode(VIEWER, "e1", "우리 집 강아지 이름은 보리예요", recorded_at=at(1)), readings="x"
        ),
        episode(VIEWER, "e2", "来週、大阪に引っ越すんだ", recorded_at=at(2)),
    ]
    try:
        store = await backend(tmp_path, "main", EMBEDDING)
        await store.write_turns("haru", [turn(item) for item in written])
        await store.close()
        url = with_search_path(servers.database_url, backend.namespace_of(tmp_path, "main"))
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
            await connection.execute("ALTER TABLE episodes DROP COLUMN readings")
            await connection.execute("DELETE FROM schema_migrations WHERE version = 9")

        store = await backend(tmp_path, "main", EMBEDDING)
        try:
            listed = await store.list_episodes(VIEWER, where=EpisodeFilter(), limit=10)
            assert sorted(listed, key=lambda item: item.id) == written
            assert [item.readings for item in listed] == [None, None]
            kept = replace(episode(VIEWER, "e3", "오늘 비 와요", recorded_at=at(3)), readings="y")
            await store.write_turns("haru", [turn(kept)])
            assert (await store.get_episode(VIEWER, "e3")).readings == "y"
        finally:
            await store.close()
    finally:
        await backend.give_back()

"""PostgreSQL keeps a deleted fact's digests (never its text) until the viewer is
forgotten, and then no row of them remains."""

from __future__ import annotations

import psycopg
import pytest

from omoide.domain import Scope
from omoide.store.server import ServerConfig, ServerMemoryStore
from tests.store.builders import add_facts, at, fact, fact_write

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
DIGESTS = ["5eed" * 8, "f00d" * 16]


async def stored_rows(config: ServerConfig) -> list[tuple[str, str]]:
    async with await psycopg.AsyncConnection.connect(config.database_url) as connection:
        cursor = await connection.execute(
            "SELECT digest, memory_id FROM deleted_fact_digests ORDER BY digest"
        )
        return [(str(digest), str(memory_id)) for digest, memory_id in await cursor.fetchall()]


async def test_a_forgotten_viewers_digests_leave_no_row(
    server_store: ServerMemoryStore, config: ServerConfig
) -> None:
    await add_facts(server_store, VIEWER, [fact_write(fact(VIEWER, "f1", "lives in Seoul"))])
    await server_store.delete_fact(VIEWER, "f1", reason="wrong", at=at(1), digests=DIGESTS)
    assert await stored_rows(config) == [(DIGESTS[0], "f1"), (DIGESTS[1], "f1")]

    await server_store.forget_viewer(VIEWER, reason="asked", at=at(2))

    assert await stored_rows(config) == []

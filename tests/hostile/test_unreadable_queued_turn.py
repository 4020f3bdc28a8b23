"""A queued turn that no longer reads back (queued by an older version, its metadata over
today's limits) does not stop the queue, on either queue: the drain parks it, with the
reason, and goes on with the next turn; forgetting its viewer still deletes it."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import apsw
import psycopg
import pytest

from omoide.clock import FixedClock
from omoide.domain import Scope, TurnInput
from omoide.metadata import MAX_METADATA_KEYS
from omoide.store.queued_turns import turn_to_json
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from omoide.wiring import Omoide, build
from tests.api.harness import NOW, make_settings
from tests.hostile.forget_paths import EMBEDDER
from tests.hostile.test_forget_server import server_settings
from tests.server.servers import LocalServers
from tests.store.backends import with_search_path

pytestmark = pytest.mark.anyio
SCOPE = Scope("haru", "old-client")
Row = tuple[str, str]
"""The unreadable row's ``last_error`` and ``failed`` flag, as text."""


def unreadable_payload() -> str:
    """A turn as an older version queued it: more metadata keys than are accepted now."""
    turn = turn_to_json(TurnInput(SCOPE, "queued before the limits", "ok", timestamp=NOW))
    turn["metadata"] = {f"key{n}": "value" for n in range(MAX_METADATA_KEYS + 1)}
    return json.dumps(turn)


async def drains_past_it(built: Omoide, parked: Callable[[], Awaitable[list[Row]]]) -> None:
    (good,) = await built.queue.put([TurnInput(SCOPE, "I adopted a cat named Mochi", "Cute!")])
    assert await built.drainer.drain_all() == 1, "the next turn is taken and stored"
    episodes = (await built.viewer_data.export_viewer(SCOPE)).memory.episodes
    assert [episode.id for episode in episodes] == [good.turn_id]
    assert await built.queue.counts() == {"pending": 0, "failed": 1}
    ((error, failed),) = await parked()
    assert failed.lower() in ("1", "true") and "unreadable queued turn" in error
    assert "metadata" in error, "the reason names what is wrong"
    await built.viewer_data.forget_viewer(SCOPE)
    assert await built.queue.counts() == {"pending": 0, "failed": 0}
    assert await parked() == []


async def test_the_embedded_queue_parks_it_and_drains_on(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    built = await build(settings, clock=FixedClock(NOW), embedder=EMBEDDER)
    raw = apsw.Connection(str(settings.queue_path))
    raw.setbusytimeout(5000)

    async def parked() -> list[Row]:
        rows = raw.execute("SELECT last_error, failed FROM queued_turns").fetchall()
        return [(str(error), str(failed)) for error, failed in rows]

    try:
        raw.execute(
            "INSERT INTO queued_turns (character_id, payload, accepted_at) VALUES (?, ?, ?)",
            (SCOPE.character_id, unreadable_payload(), NOW.isoformat()),
        )
        await drains_past_it(built, parked)
    finally:
        raw.close()
        await built.aclose()


async def test_a_row_that_is_not_json_is_parked_and_blocks_no_forget(tmp_path: Path) -> None:
    queue = SqliteTurnQueue(tmp_path / "queue.sqlite3", clock=FixedClock(NOW))
    raw = apsw.Connection(str(tmp_path / "queue.sqlite3"))
    try:
        raw.execute(
            "INSERT INTO queued_turns (character_id, payload, accepted_at) VALUES (?, ?, ?)",
            (SCOPE.character_id, '{"user_id": "old-client", "tru', NOW.isoformat()),
        )
        (good,) = await queue.put([TurnInput(SCOPE, "hello", "hi")])
        assert [queued.turn for queued in await queue.take(1)] == [good], "taken past it"
        assert await queue.counts() == {"pending": 1, "failed": 1}
        assert await queue.forget_viewer(SCOPE) == [good]
    finally:
        raw.close()
        await queue.close()


async def test_the_server_queue_parks_it_and_drains_on(
    servers_and_namespace: tuple[LocalServers, str], tmp_path: Path
) -> None:
    servers, namespace = servers_and_namespace
    settings = server_settings(tmp_path, servers, namespace)
    url = with_search_path(servers.database_url, namespace)
    built = await build(settings, clock=FixedClock(NOW), embedder=EMBEDDER)

    async def parked() -> list[Row]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as db:
            cursor = await db.execute("SELECT last_error, failed FROM queued_turns")
            return [(str(error), str(failed)) for error, failed in await cursor.fetchall()]

    try:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as db:
            await db.execute(
                "INSERT INTO queued_turns (character_id, payload, accepted_at) "
                "VALUES (%s, %s::json, %s)",
                (SCOPE.character_id, unreadable_payload(), NOW),
            )
        await drains_past_it(built, parked)
    finally:
        await built.aclose()

"""The embedded turn queue: accepted turns as JSON rows in their own SQLite file.

The file (``queue.sqlite3``) is synced on every commit (``synchronous=FULL``), so a process
killed at any point loses nothing it acknowledged. The server store's
:class:`~omoide.store.server.turn_queue.PostgresTurnQueue` keeps the same rows in
PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import apsw

from omoide.clock import Clock
from omoide.domain import Scope, TurnInput, as_utc, new_id
from omoide.store.queued_turns import QueuedTurn, readable_turns, take_readable, turn_to_json
from omoide.store.sqlite.files import Migration, open_sqlite_file

MAX_ERROR_CHARS = 2000


def create_queue_table(connection: apsw.Connection) -> None:
    """The queued turns (``IF NOT EXISTS``: a file made before migrations has them)."""
    connection.execute(
        "CREATE TABLE IF NOT EXISTS queued_turns ("
        "id INTEGER PRIMARY KEY AUTOINCREMENT, character_id TEXT NOT NULL, "
        "payload TEXT NOT NULL, accepted_at TEXT NOT NULL, "
        "attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, "
        "failed INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX IF NOT EXISTS queued_turns_pending ON queued_turns(failed, id);"
    )


MIGRATIONS = (Migration(1, "create_queued_turns", create_queue_table),)


def _insert(connection: apsw.Connection, rows: list[tuple[str, str]], now: datetime) -> None:
    for character_id, payload in rows:
        connection.execute(
            "INSERT INTO queued_turns(character_id, payload, accepted_at) VALUES (?, ?, ?)",
            (character_id, payload, now.isoformat()),
        )


def _select(connection: apsw.Connection, limit: int) -> list[tuple[int, str, int]]:
    cursor = connection.execute(
        "SELECT id, payload, attempts FROM queued_turns WHERE failed = 0 ORDER BY id LIMIT ?",
        (limit,),
    )
    return [(int(job), str(payload), int(tries)) for job, payload, tries in cursor]


def _delete(connection: apsw.Connection, job_ids: Sequence[int]) -> None:
    for job in job_ids:
        connection.execute("DELETE FROM queued_turns WHERE id = ?", (job,))


def _bump(connection: apsw.Connection, job_ids: Sequence[int], error: str, park: bool) -> None:
    for job in job_ids:
        connection.execute(
            "UPDATE queued_turns SET attempts = attempts + 1, last_error = ?, "
            "failed = ? WHERE id = ?",
            (error[:MAX_ERROR_CHARS], int(park), job),
        )


def _counts(connection: apsw.Connection) -> dict[str, int]:
    row = connection.execute(
        "SELECT COALESCE(SUM(failed = 0), 0), COALESCE(SUM(failed = 1), 0) FROM queued_turns"
    ).fetchone()
    assert row is not None
    return {"pending": int(row[0]), "failed": int(row[1])}


def _viewer_rows(connection: apsw.Connection, scope: Scope) -> list[tuple[int, str]]:
    cursor = connection.execute(
        "SELECT id, payload FROM queued_turns WHERE character_id = ? "
        "AND iif(json_valid(payload), json_extract(payload, '$.user_id'), NULL) IS ? "
        "ORDER BY id",
        (scope.character_id, scope.user_id),
    )
    return [(int(job), str(payload)) for job, payload in cursor]


def _forget(connection: apsw.Connection, scope: Scope) -> list[tuple[int, str]]:
    rows = _viewer_rows(connection, scope)
    _delete(connection, [job for job, _ in rows])
    return rows


class SqliteTurnQueue:
    """Turns waiting to be remembered, persisted in their own SQLite file."""

    def __init__(self, path: Path, *, clock: Clock) -> None:
        self._database = open_sqlite_file(path, MIGRATIONS, durable=True)
        self._clock = clock

    async def put(self, turns: Sequence[TurnInput]) -> list[TurnInput]:
        """Persist turns; returns the accepted turns, each with its time and id fixed.

        A turn without a timestamp is stamped with the time it was accepted, and each gets
        a ``turn_id`` that becomes its episode id, so a replay after a crash is recognised.
        """
        now = self._clock.now()
        accepted = [
            replace(turn, timestamp=as_utc(turn.timestamp or now), turn_id=turn.turn_id or new_id())
            for turn in turns
        ]
        rows = [
            (turn.scope.character_id, json.dumps(turn_to_json(turn), ensure_ascii=False))
            for turn in accepted
        ]
        await self._database.write(lambda c: _insert(c, rows, now))
        return accepted

    async def take(self, limit: int) -> list[QueuedTurn]:
        """The oldest pending turns (they stay queued until :meth:`done`); a row that
        cannot be read back is parked instead."""

        async def select() -> list[tuple[int, str, int]]:
            return await self._database.read(lambda c: _select(c, limit))

        return await take_readable(select, self)

    async def done(self, job_ids: Sequence[int]) -> None:
        await self._database.write(lambda c: _delete(c, list(job_ids)))

    async def retry_later(self, job_ids: Sequence[int], *, error: str, park: bool) -> None:
        """Count a failed attempt; ``park`` sets the turns aside as failed (kept)."""
        await self._database.write(lambda c: _bump(c, list(job_ids), error, park))

    async def counts(self) -> dict[str, int]:
        return await self._database.read(_counts)

    async def viewer_turns(self, scope: Scope) -> list[TurnInput]:
        return readable_turns(await self._database.read(lambda c: _viewer_rows(c, scope)))

    async def forget_viewer(self, scope: Scope) -> list[TurnInput]:
        return readable_turns(await self._database.write(lambda c: _forget(c, scope)))

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file, so deleted turns leave it too."""
        await self._database.scrub()

    async def close(self) -> None:
        await self._database.close()

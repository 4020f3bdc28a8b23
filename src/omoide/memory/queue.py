"""A durable write queue: an accepted turn is on disk before the caller hears "accepted".

Turns are stored as JSON rows in their own SQLite file (WAL, ``synchronous=FULL``), so a
process killed at any point loses nothing it acknowledged. A worker drains the queue into
the memory pipeline in batches; a batch that fails stays queued and is retried, and a
batch that can never succeed is parked as failed (kept, never dropped) for a person.

The queue's contract (:class:`TurnQueue`, :class:`QueuedTurn` and the JSON form of a turn)
lives in :mod:`omoide.store.queue`, shared with the server store; it is re-exported here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import anyio
import apsw

from omoide.clock import Clock
from omoide.domain import Scope, TurnInput, as_utc, new_id
from omoide.store.queue import QueuedTurn as QueuedTurn
from omoide.store.queue import TurnQueue as TurnQueue
from omoide.store.queue import readable_turns, take_readable
from omoide.store.queue import turn_from_json as turn_from_json
from omoide.store.queue import turn_to_json as turn_to_json
from omoide.store.sqlite.connection import truncate_wal

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS queued_turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    character_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    accepted_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    failed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS queued_turns_pending ON queued_turns(failed, id);
"""


class DurableTurnQueue:
    """Turns waiting to be remembered, persisted in their own SQLite file."""

    def __init__(self, path: Path, *, clock: Clock) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._connection = apsw.Connection(str(path))
        self._connection.setbusytimeout(5000)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA synchronous=FULL")
        self._connection.execute("PRAGMA secure_delete=ON")
        self._connection.execute(_SCHEMA)
        self._clock = clock
        self._path = path
        self._lock = anyio.Lock()

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
        rows = []
        for turn in accepted:
            payload = turn_to_json(turn)
            rows.append((turn.scope.character_id, json.dumps(payload, ensure_ascii=False)))
        async with self._lock:
            await anyio.to_thread.run_sync(self._insert, rows, now)
        return accepted

    def _insert(self, rows: list[tuple[str, str]], now: datetime) -> list[int]:
        ids = []
        with self._connection:
            for character_id, payload in rows:
                self._connection.execute(
                    "INSERT INTO queued_turns(character_id, payload, accepted_at) VALUES (?, ?, ?)",
                    (character_id, payload, now.isoformat()),
                )
                ids.append(self._connection.last_insert_rowid())
        return ids

    async def take(self, limit: int) -> list[QueuedTurn]:
        """The oldest pending turns (they stay queued until :meth:`done`); a row that
        cannot be read back is parked instead."""

        async def select() -> list[tuple[int, str, int]]:
            async with self._lock:
                return await anyio.to_thread.run_sync(self._select, limit)

        return await take_readable(select, self)

    def _select(self, limit: int) -> list[tuple[int, str, int]]:
        cursor = self._connection.execute(
            "SELECT id, payload, attempts FROM queued_turns WHERE failed = 0 ORDER BY id LIMIT ?",
            (limit,),
        )
        return [(int(job), str(payload), int(tries)) for job, payload, tries in cursor]

    async def done(self, job_ids: Sequence[int]) -> None:
        async with self._lock:
            await anyio.to_thread.run_sync(self._delete, list(job_ids))

    def _delete(self, job_ids: list[int]) -> None:
        with self._connection:
            for job in job_ids:
                self._connection.execute("DELETE FROM queued_turns WHERE id = ?", (job,))

    async def retry_later(self, job_ids: Sequence[int], *, error: str, park: bool) -> None:
        """Count a failed attempt; ``park`` sets the turns aside as failed (kept)."""
        async with self._lock:
            await anyio.to_thread.run_sync(self._bump, list(job_ids), error, park)

    def _bump(self, job_ids: list[int], error: str, park: bool) -> None:
        with self._connection:
            for job in job_ids:
                self._connection.execute(
                    "UPDATE queued_turns SET attempts = attempts + 1, last_error = ?, "
                    "failed = ? WHERE id = ?",
                    (error[:2000], int(park), job),
                )

    async def counts(self) -> dict[str, int]:
        async with self._lock:
            return await anyio.to_thread.run_sync(self._counts)

    def _counts(self) -> dict[str, int]:
        row = self._connection.execute(
            "SELECT COALESCE(SUM(failed = 0), 0), COALESCE(SUM(failed = 1), 0) FROM queued_turns"
        ).fetchone()
        assert row is not None
        return {"pending": int(row[0]), "failed": int(row[1])}

    async def viewer_turns(self, scope: Scope) -> list[TurnInput]:
        async with self._lock:
            rows = await anyio.to_thread.run_sync(self._viewer_rows, scope)
        return readable_turns(rows)

    async def forget_viewer(self, scope: Scope) -> list[TurnInput]:
        async with self._lock:
            rows = await anyio.to_thread.run_sync(self._forget, scope)
        return readable_turns(rows)

    def _viewer_rows(self, scope: Scope) -> list[tuple[int, str]]:
        cursor = self._connection.execute(
            "SELECT id, payload FROM queued_turns WHERE character_id = ? "
            "AND iif(json_valid(payload), json_extract(payload, '$.user_id'), NULL) IS ? "
            "ORDER BY id",
            (scope.character_id, scope.user_id),
        )
        return [(int(job), str(payload)) for job, payload in cursor]

    def _forget(self, scope: Scope) -> list[tuple[int, str]]:
        with self._connection:
            rows = self._viewer_rows(scope)
            self._delete([job for job, _ in rows])
        return rows

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file, so deleted turns leave it too."""
        async with self._lock:
            await anyio.to_thread.run_sync(truncate_wal, self._connection, self._path)

    def close(self) -> None:
        self._connection.close()

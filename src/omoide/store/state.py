"""Durable character states: one JSON row per (character, viewer), in its own SQLite file.

Kept apart from the memory store so that a server profile (PostgreSQL) can hold states
the same way; the row format is :func:`~omoide.character.state.state_to_json`.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import apsw

from omoide.character.state import CharacterState, state_from_json, state_to_json
from omoide.domain import Scope
from omoide.errors import BackendError, InvalidInput
from omoide.store.sqlite.connection import truncate_wal

_SCHEMA = """
CREATE TABLE IF NOT EXISTS character_states (
    character_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (character_id, user_id)
);
"""


def _viewer(scope: Scope) -> tuple[str, str]:
    """The one place a scope becomes this table's key (bound parameters only)."""
    if scope.user_id is None:
        raise InvalidInput("a character state belongs to a viewer: scope.user_id is required")
    return scope.character_id, scope.user_id


class SqliteCharacterStateStore:
    """Implements :class:`~omoide.character.state_store.CharacterStateStore`."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._connection = apsw.Connection(str(path))
        self._connection.setbusytimeout(5000)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA secure_delete=ON")
        self._connection.execute(_SCHEMA)
        self._path = path
        self._lock = anyio.Lock()

    async def load(self, scope: Scope) -> CharacterState | None:
        key = _viewer(scope)
        async with self._lock:
            row = await anyio.to_thread.run_sync(self._select, key)
        if row is None:
            return None
        try:
            return state_from_json(json.loads(row))
        except (ValueError, InvalidInput) as exc:
            raise BackendError(f"stored state for {scope} is damaged: {exc}") from exc

    def _select(self, key: tuple[str, str]) -> str | None:
        row = self._connection.execute(
            "SELECT state FROM character_states WHERE character_id = ? AND user_id = ?", key
        ).fetchone()
        return None if row is None else str(row[0])

    async def save(self, scope: Scope, state: CharacterState) -> None:
        key = _viewer(scope)
        payload = json.dumps(state_to_json(state), ensure_ascii=False)
        async with self._lock:
            await anyio.to_thread.run_sync(self._upsert, key, payload)

    def _upsert(self, key: tuple[str, str], payload: str) -> None:
        self._connection.execute(
            "INSERT INTO character_states(character_id, user_id, state) VALUES (?, ?, ?) "
            "ON CONFLICT(character_id, user_id) DO UPDATE SET state = excluded.state",
            (*key, payload),
        )

    async def delete(self, scope: Scope) -> None:
        key = _viewer(scope)
        async with self._lock:
            await anyio.to_thread.run_sync(self._delete, key)

    def _delete(self, key: tuple[str, str]) -> None:
        self._connection.execute(
            "DELETE FROM character_states WHERE character_id = ? AND user_id = ?", key
        )

    async def delete_character(self, character_id: str) -> None:
        async with self._lock:
            await anyio.to_thread.run_sync(
                lambda: self._connection.execute(
                    "DELETE FROM character_states WHERE character_id = ?", (character_id,)
                )
            )

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file, so deleted states leave it too."""
        async with self._lock:
            await anyio.to_thread.run_sync(truncate_wal, self._connection, self._path)

    def close(self) -> None:
        self._connection.close()

"""Durable character states: one JSON row per (character, viewer), in its own SQLite file
(``states.sqlite3`` by default).

Kept apart from the memory store so that a server profile (PostgreSQL) can hold states
the same way; the row format is :func:`~omoide.store.records.character_state.state_to_json`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from omoide.errors import BackendError, InvalidInput
from omoide.store.records.character_state import CharacterState, state_from_json, state_to_json
from omoide.store.sqlite.files import Migration, open_sqlite_file

if TYPE_CHECKING:
    from pathlib import Path

    import apsw

    from omoide.domain import Scope


def create_states_table(connection: apsw.Connection) -> None:
    """The states (``IF NOT EXISTS``: a file made before migrations has them)."""
    connection.execute(
        "CREATE TABLE IF NOT EXISTS character_states ("
        "character_id TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT NOT NULL, "
        "PRIMARY KEY (character_id, user_id))"
    )


MIGRATIONS = (Migration(1, "create_character_states", create_states_table),)


def _viewer(scope: Scope) -> tuple[str, str]:
    """The one place a scope becomes this table's key (bound parameters only)."""
    if scope.user_id is None:
        raise InvalidInput("a character state belongs to a viewer: scope.user_id is required")
    return scope.character_id, scope.user_id


def _select(connection: apsw.Connection, key: tuple[str, str]) -> str | None:
    row = connection.execute(
        "SELECT state FROM character_states WHERE character_id = ? AND user_id = ?", key
    ).fetchone()
    return None if row is None else str(row[0])


def _upsert(connection: apsw.Connection, key: tuple[str, str], payload: str) -> None:
    connection.execute(
        "INSERT INTO character_states(character_id, user_id, state) VALUES (?, ?, ?) "
        "ON CONFLICT(character_id, user_id) DO UPDATE SET state = excluded.state",
        (*key, payload),
    )


class SqliteCharacterStateStore:
    """Implements :class:`~omoide.character.state_store.CharacterStateStore`."""

    def __init__(self, path: Path) -> None:
        self._database = open_sqlite_file(path, MIGRATIONS, durable=True)

    async def load(self, scope: Scope) -> CharacterState | None:
        key = _viewer(scope)
        row = await self._database.read(lambda c: _select(c, key))
        if row is None:
            return None
        try:
            return state_from_json(json.loads(row))
        except (ValueError, InvalidInput) as exc:
            raise BackendError(f"stored state for {scope} is damaged: {exc}") from exc

    async def save(self, scope: Scope, state: CharacterState) -> None:
        key = _viewer(scope)
        payload = json.dumps(state_to_json(state), ensure_ascii=False)
        await self._database.write(lambda c: _upsert(c, key, payload))

    async def delete(self, scope: Scope) -> None:
        key = _viewer(scope)
        await self._database.write(
            lambda c: c.execute(
                "DELETE FROM character_states WHERE character_id = ? AND user_id = ?", key
            )
        )

    async def delete_character(self, character_id: str) -> None:
        await self._database.write(
            lambda c: c.execute(
                "DELETE FROM character_states WHERE character_id = ?", (character_id,)
            )
        )

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file, so deleted states leave it too."""
        await self._database.scrub()

    async def close(self) -> None:
        await self._database.close()

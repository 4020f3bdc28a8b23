"""Character states in PostgreSQL: the server profile keeps nothing on an instance's disk.

One JSON row per (character, viewer), written with
:func:`~omoide.store.records.character_state.state_to_json`, like the embedded
:class:`~omoide.store.sqlite.character_states.SqliteCharacterStateStore`. The connection
pool belongs to the server store; :meth:`PostgresCharacterStateStore.close` leaves it to the store.
"""

from __future__ import annotations

import json

from omoide.domain import Scope, check_identifier
from omoide.errors import BackendError, InvalidInput
from omoide.store.records.character_state import CharacterState, state_from_json, state_to_json
from omoide.store.server.database import Database, execute, fetch_one


def _viewer(scope: Scope) -> tuple[str, str]:
    """The one place a scope becomes this table's key (bound parameters only)."""
    if not isinstance(scope, Scope):
        raise InvalidInput(f"expected a Scope (got {type(scope).__name__})")
    if scope.user_id is None:
        raise InvalidInput("a character state belongs to a viewer: scope.user_id is required")
    return scope.character_id, scope.user_id


class PostgresCharacterStateStore:
    """Implements :class:`~omoide.character.state_store.CharacterStateStore`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def load(self, scope: Scope) -> CharacterState | None:
        key = _viewer(scope)
        async with self._database.transaction() as connection:
            row = await fetch_one(
                connection,
                "SELECT state::text FROM character_states WHERE character_id = %s AND user_id = %s",
                key,
            )
        if row is None:
            return None
        try:
            return state_from_json(json.loads(row[0]))
        except (ValueError, InvalidInput) as exc:
            raise BackendError(f"stored state for {scope} is damaged: {exc}") from exc

    async def save(self, scope: Scope, state: CharacterState) -> None:
        key = _viewer(scope)
        payload = json.dumps(state_to_json(state), ensure_ascii=False)
        async with self._database.transaction() as connection:
            await execute(
                connection,
                "INSERT INTO character_states (character_id, user_id, state) "
                "VALUES (%s, %s, %s::json) ON CONFLICT (character_id, user_id) "
                "DO UPDATE SET state = excluded.state",
                (*key, payload),
            )

    async def delete(self, scope: Scope) -> None:
        key = _viewer(scope)
        async with self._database.transaction() as connection:
            await execute(
                connection,
                "DELETE FROM character_states WHERE character_id = %s AND user_id = %s",
                key,
            )

    async def delete_character(self, character_id: str) -> None:
        check_identifier(character_id, name="character_id")
        async with self._database.transaction() as connection:
            await execute(
                connection, "DELETE FROM character_states WHERE character_id = %s", (character_id,)
            )

    async def close(self) -> None:
        """Nothing to do: the pool is the server store's and closes with it."""

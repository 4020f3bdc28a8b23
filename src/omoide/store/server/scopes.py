"""Scopes as integer ids in PostgreSQL, and as one payload key in Qdrant.

:func:`scope_condition` is the one place a :class:`Scope` becomes SQL; :func:`scope_key`
is the one place it becomes the Qdrant ``scope`` payload value. Record rows carry a
``scope_id`` found through :func:`find_scope_id`. The character-wide scope
(``user_id=None``) is keyed by an empty ``user_key``, which no viewer id can be (ids are
never empty), so it is its own scope and never a wildcard. Scope rows are never deleted
(tombstones point at them), so a committed scope id is valid for the life of the database.
"""

from __future__ import annotations

import json

from omoide.domain import Scope, check_identifier
from omoide.errors import InvalidInput
from omoide.store.server.database import Connection, fetch_all, fetch_one

CHARACTER_WIDE_KEY = ""


def scope_condition(scope: Scope) -> tuple[str, tuple[str, str]]:
    """The WHERE condition selecting ``scope``'s row of ``scopes`` and its parameters."""
    if not isinstance(scope, Scope):
        raise InvalidInput(f"expected a Scope (got {type(scope).__name__})")
    user_key = CHARACTER_WIDE_KEY if scope.user_id is None else scope.user_id
    return "character_id = %s AND user_key = %s", (scope.character_id, user_key)


def scope_key(scope: Scope) -> str:
    """The value of the ``scope`` payload field of ``scope``'s Qdrant points (injective)."""
    if not isinstance(scope, Scope):
        raise InvalidInput(f"expected a Scope (got {type(scope).__name__})")
    return json.dumps([scope.character_id, scope.user_id], ensure_ascii=False)


async def find_scope_id(connection: Connection, scope: Scope) -> int | None:
    """The id of ``scope``, or None when nothing was ever stored in it."""
    condition, parameters = scope_condition(scope)
    row = await fetch_one(connection, f"SELECT id FROM scopes WHERE {condition}", parameters)
    return None if row is None else int(row[0])


async def ensure_scope_id(connection: Connection, scope: Scope) -> int:
    """The id of ``scope``, created if needed (safe under concurrent writers)."""
    found = await find_scope_id(connection, scope)
    if found is not None:
        return found
    await fetch_all(
        connection,
        "INSERT INTO scopes (character_id, user_id) VALUES (%s, %s) "
        "ON CONFLICT (character_id, user_key) DO NOTHING RETURNING id",
        (scope.character_id, scope.user_id),
    )
    found = await find_scope_id(connection, scope)
    assert found is not None, f"scope {scope} vanished after insert"
    return found


async def character_scopes(connection: Connection, character_id: str) -> dict[int, Scope]:
    """Every scope of one character, the character-wide one included, by id."""
    check_identifier(character_id, name="character_id")
    rows = await fetch_all(
        connection,
        "SELECT id, user_id FROM scopes WHERE character_id = %s ORDER BY id",
        (character_id,),
    )
    return {int(row[0]): Scope(character_id, row[1]) for row in rows}

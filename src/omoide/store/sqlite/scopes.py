"""Scopes as integer ids: the one place a :class:`Scope` becomes SQL.

Every record row carries a ``scope_id``; queries filter on ``scope_id = ?`` with the id found
here. ``user_id IS ?`` matches NULL to NULL, so the character-wide scope (``user_id=None``)
is its own scope, never a wildcard. Scope rows are never deleted (tombstones point at
them), so a scope id, once committed, is valid for the life of the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.domain import Scope, check_identifier
from omoide.store.sqlite.connection import fetch_all, fetch_one

if TYPE_CHECKING:
    import apsw

_FIND_SCOPE = "SELECT id FROM scopes WHERE character_id = ? AND user_id IS ?"
_INSERT_SCOPE = "INSERT INTO scopes (character_id, user_id) VALUES (?, ?) RETURNING id"
_CHARACTER_SCOPES = "SELECT id, user_id FROM scopes WHERE character_id = ? ORDER BY id"


def find_scope_id(connection: apsw.Connection, scope: Scope) -> int | None:
    """The id of ``scope``, or None when nothing was ever stored in it."""
    row = fetch_one(connection, _FIND_SCOPE, (scope.character_id, scope.user_id))
    return None if row is None else int(row[0])


def ensure_scope_id(connection: apsw.Connection, scope: Scope) -> int:
    """The id of ``scope``, created if needed (call inside a write transaction)."""
    found = find_scope_id(connection, scope)
    if found is not None:
        return found
    row = fetch_one(connection, _INSERT_SCOPE, (scope.character_id, scope.user_id))
    assert row is not None
    return int(row[0])


def character_scopes(connection: apsw.Connection, character_id: str) -> dict[int, Scope]:
    """Every scope of one character, the character-wide one included, by id."""
    check_identifier(character_id, name="character_id")
    rows = fetch_all(connection, _CHARACTER_SCOPES, (character_id,))
    return {int(row[0]): Scope(character_id, row[1]) for row in rows}

"""The names viewers went by, in SQLite: one row per scope and name (see
:mod:`omoide.store.display_names`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.domain import DisplayName
from omoide.store.sqlite.codec import from_micros, to_micros
from omoide.store.sqlite.connection import fetch_all
from omoide.store.sqlite.scopes import ensure_scope_id

if TYPE_CHECKING:
    from collections.abc import Sequence

    import apsw

    from omoide.store.display_names import NameSighting

_RECORD = """
    INSERT INTO display_names (scope_id, name, folded, first_seen_at, last_seen_at)
    VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (scope_id, name) DO UPDATE SET
        first_seen_at = min(first_seen_at, excluded.first_seen_at),
        last_seen_at = max(last_seen_at, excluded.last_seen_at)
"""

LATEST_NAME = """(SELECT n.name FROM display_names n WHERE n.scope_id = s.id
    ORDER BY n.last_seen_at DESC, n.name LIMIT 1)"""
"""The latest name of the scope ``s`` (a subquery of the viewer listing)."""

NAME_MATCHES = """EXISTS (SELECT 1 FROM display_names n WHERE n.scope_id = s.id
    AND n.folded LIKE ? ESCAPE '\\')"""
"""Whether any name of the scope ``s`` matches a LIKE pattern of folded text."""


def record_names(connection: apsw.Connection, sightings: Sequence[NameSighting]) -> None:
    """Keep each sighting: a new name, or an old one seen earlier or later than known."""
    for sighting in sightings:
        scope_id = ensure_scope_id(connection, sighting.scope)
        moment = to_micros(sighting.at, name="display_name time")
        connection.execute(_RECORD, (scope_id, sighting.name, sighting.folded, moment, moment))


def list_names(connection: apsw.Connection, scope_id: int) -> list[DisplayName]:
    """The scope's names, most recently seen first."""
    rows = fetch_all(
        connection,
        "SELECT name, first_seen_at, last_seen_at FROM display_names WHERE scope_id = ? "
        "ORDER BY last_seen_at DESC, name",
        (scope_id,),
    )
    return [DisplayName(str(row[0]), from_micros(row[1]), from_micros(row[2])) for row in rows]


def forget_names(connection: apsw.Connection, scope_id: int) -> int:
    """Delete the scope's names; how many there were."""
    rows = fetch_all(
        connection, "DELETE FROM display_names WHERE scope_id = ? RETURNING name", (scope_id,)
    )
    return len(rows)

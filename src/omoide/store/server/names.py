"""The names viewers went by, in PostgreSQL: one row per scope and name (see
:mod:`omoide.store.display_names`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC

from omoide.domain import DisplayName
from omoide.store.display_names import NameSighting, folded
from omoide.store.server.codec import utc
from omoide.store.server.database import Connection, execute, fetch_all
from omoide.store.server.scopes import ensure_scope_id

_RECORD = """
    INSERT INTO display_names (scope_id, name, folded, first_seen_at, last_seen_at)
    VALUES (%s, %s, %s, %s, %s)
    ON CONFLICT (scope_id, name) DO UPDATE SET
        first_seen_at = least(display_names.first_seen_at, excluded.first_seen_at),
        last_seen_at = greatest(display_names.last_seen_at, excluded.last_seen_at)
"""

LATEST_NAME = """(SELECT n.name FROM display_names n WHERE n.scope_id = s.id
    ORDER BY n.last_seen_at DESC, n.name LIMIT 1)"""
"""The latest name of the scope ``s`` (a subquery of the viewer listing)."""

NAME_MATCHES = """EXISTS (SELECT 1 FROM display_names n WHERE n.scope_id = s.id
    AND n.folded LIKE %s ESCAPE '\\')"""
"""Whether any name of the scope ``s`` matches a LIKE pattern of folded text."""

TABLE = (
    """CREATE TABLE display_names (
        scope_id bigint NOT NULL REFERENCES scopes (id),
        name text COLLATE "C" NOT NULL,
        folded text COLLATE "C" NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        PRIMARY KEY (scope_id, name))""",
    """INSERT INTO display_names
        SELECT e.scope_id, btrim(e.metadata ->> 'display_name') AS name,
            lower(btrim(e.metadata ->> 'display_name')), min(e.recorded_at), max(e.recorded_at)
        FROM episodes e JOIN scopes s ON s.id = e.scope_id
        WHERE s.user_id IS NOT NULL AND json_typeof(e.metadata -> 'display_name') = 'string'
            AND btrim(e.metadata ->> 'display_name') <> ''
        GROUP BY e.scope_id, btrim(e.metadata ->> 'display_name')""",
)
"""The migration: the table, filled from the names stored episodes carry in their metadata
(a stream comment's ``display_name``; folded by ``lower``, which differs from Unicode case
folding only for a few letters such as ß)."""


async def record_names(connection: Connection, sightings: Sequence[NameSighting]) -> None:
    """Keep each sighting: a new name, or an old one seen earlier or later than known."""
    for sighting in sightings:
        scope_id = await ensure_scope_id(connection, sighting.scope)
        moment = utc(sighting.at, name="display_name time")
        await execute(
            connection, _RECORD, (scope_id, sighting.name, sighting.folded, moment, moment)
        )


async def copy_names(connection: Connection, scope_id: int, kept: Sequence[DisplayName]) -> None:
    """Keep names as another store kept them (a migration; running it again changes nothing)."""
    for name in kept:
        first, last = utc(name.first_seen_at), utc(name.last_seen_at)
        values = (scope_id, name.name, folded(name.name), first, last)
        await execute(connection, _RECORD, values)


async def list_names(connection: Connection, scope_id: int) -> list[DisplayName]:
    """The scope's names, most recently seen first."""
    rows = await fetch_all(
        connection,
        "SELECT name, first_seen_at, last_seen_at FROM display_names WHERE scope_id = %s "
        "ORDER BY last_seen_at DESC, name",
        (scope_id,),
    )
    return [
        DisplayName(str(row[0]), row[1].astimezone(UTC), row[2].astimezone(UTC)) for row in rows
    ]


async def forget_names(connection: Connection, scope_id: int) -> int:
    """Delete the scope's names; how many there were."""
    return await execute(connection, "DELETE FROM display_names WHERE scope_id = %s", (scope_id,))

"""The episodes recorded next to given ones in their scope's timeline, in one statement.

Timeline order is (recorded_at, id). For every anchor (found through the unique index on
``episodes.id``), a ``LATERAL`` pair of one-row subqueries steps back and forth along
``episodes_by_scope_time`` (scope_id, recorded_at): PostgreSQL turns the row comparison
``(recorded_at, id) < (anchor's)`` into the index range ``recorded_at <= anchor's`` and
checks the id on the rows it reads, an incremental sort orders ties by id, and each scan
stops at the first episode the filter admits (the filter's columns are not in the index,
so a filter that admits few episodes reads the rows it skips).
"""

from __future__ import annotations

from collections.abc import Sequence

from omoide.domain import Episode, Scope
from omoide.store.base import EpisodeFilter
from omoide.store.rows import EPISODE_COLUMNS
from omoide.store.server.codec import episode_from_row
from omoide.store.server.database import Connection, fetch_all
from omoide.store.server.engines import Engines
from omoide.store.server.filters import Conditions, episode_conditions
from omoide.store.sqlite.arguments import check_scope, check_text

_STEP = (
    "(SELECT e.internal_id FROM episodes e WHERE e.scope_id = a.scope_id{conditions} "
    "AND (e.recorded_at, e.id) {beyond} (a.recorded_at, a.id) "
    "ORDER BY e.recorded_at {direction}, e.id {direction} LIMIT 1)"
)


def neighbours_query(conditions: Conditions) -> str:
    """One row per (anchor, neighbour); an anchor without neighbours has one row of NULLs."""
    before = _STEP.format(conditions=conditions.sql, beyond="<", direction="DESC")
    after = _STEP.format(conditions=conditions.sql, beyond=">", direction="ASC")
    return (
        f"SELECT a.id, n.internal_id, {EPISODE_COLUMNS} FROM episodes a "
        f"LEFT JOIN LATERAL ({before} UNION ALL {after}) n ON true "
        "LEFT JOIN episodes e ON e.internal_id = n.internal_id "
        "LEFT JOIN scopes s ON s.id = e.scope_id "
        "WHERE a.scope_id = %s AND a.id = ANY(%s) "
        "ORDER BY a.id, e.recorded_at, e.id"
    )


async def episode_neighbours(
    engines: Engines, scope: Scope, episode_ids: Sequence[str], where: EpisodeFilter
) -> dict[str, tuple[Episode, ...]]:
    """Check the arguments, then read every anchor's neighbours in one transaction."""
    conditions = episode_conditions(where)
    wanted = list(dict.fromkeys(check_text(value, name="episode id") for value in episode_ids))
    check_scope(scope)
    if not wanted:
        return {}
    return await engines.read(
        scope, lambda c, scope_id: _read(c, scope_id, wanted, conditions), dict
    )


async def _read(
    connection: Connection, scope_id: int, wanted: list[str], conditions: Conditions
) -> dict[str, tuple[Episode, ...]]:
    rows = await fetch_all(
        connection,
        neighbours_query(conditions),
        (*conditions.parameters, *conditions.parameters, scope_id, wanted),
    )
    found: dict[str, list[Episode]] = {}
    for row in rows:
        neighbours = found.setdefault(str(row[0]), [])
        if row[1] is not None:
            neighbours.append(episode_from_row(row[2:]))
    return {episode_id: tuple(found[episode_id]) for episode_id in wanted if episode_id in found}

"""The episodes recorded next to given ones in their scope's timeline.

Timeline order is (recorded_at, id). Each neighbour is one indexed step along
``episodes_by_scope_time`` from its anchor: the range condition on ``recorded_at`` lets
SQLite walk the index from the anchor's time and stop at the first admitted episode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.store.rows import EPISODE_COLUMNS
from omoide.store.sqlite.codec import episode_from_row
from omoide.store.sqlite.connection import fetch_all, fetch_one
from omoide.store.sqlite.filters import episode_record_conditions

if TYPE_CHECKING:
    from collections.abc import Sequence

    import apsw

    from omoide.domain import Episode
    from omoide.store.base import EpisodeFilter

_FROM = "FROM episodes e JOIN scopes s ON s.id = e.scope_id"
_BEFORE = (
    "AND e.recorded_at <= ? AND (e.recorded_at, e.id) < (?, ?) "
    "ORDER BY e.recorded_at DESC, e.id DESC LIMIT 1"
)
_AFTER = (
    "AND e.recorded_at >= ? AND (e.recorded_at, e.id) > (?, ?) ORDER BY e.recorded_at, e.id LIMIT 1"
)


def episode_neighbours(
    connection: apsw.Connection, scope_id: int, episode_ids: Sequence[str], where: EpisodeFilter
) -> dict[str, tuple[Episode, ...]]:
    """For each id stored in the scope, the admitted episodes just before and just after it."""
    conditions = episode_record_conditions(where)
    found: dict[str, tuple[Episode, ...]] = {}
    for episode_id in dict.fromkeys(episode_ids):
        anchor = fetch_one(
            connection,
            "SELECT recorded_at FROM episodes WHERE scope_id = ? AND id = ?",
            (scope_id, episode_id),
        )
        if anchor is None:
            continue
        moment = int(anchor[0])
        found[episode_id] = tuple(
            episode_from_row(row)
            for step in (_BEFORE, _AFTER)
            for row in fetch_all(
                connection,
                f"SELECT {EPISODE_COLUMNS} {_FROM} WHERE e.scope_id = ?{conditions.sql} {step}",
                (scope_id, *conditions.parameters, moment, moment, episode_id),
            )
        )
    return found

"""Whole scopes and characters in PostgreSQL: forgetting, exporting, listing, decay, purging.

Functions that delete records return the ``internal_id`` values of the deleted episodes and
facts, so the caller can queue their Qdrant points for deletion in the same transaction.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from omoide.domain import (
    Episode,
    ForgetReport,
    MemoryKind,
    Scope,
    ScopeExport,
    ViewerSummary,
    check_identifier,
)
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.display_names import check_search, folded
from omoide.store.rows import EMOTION_COLUMNS, EPISODE_COLUMNS
from omoide.store.server.codec import emotion_from_row, episode_from_row
from omoide.store.server.database import Connection, fetch_all
from omoide.store.server.episodes import FROM_EPISODES
from omoide.store.server.facts import list_facts
from omoide.store.server.filters import episode_conditions, fact_conditions
from omoide.store.server.names import LATEST_NAME, NAME_MATCHES, forget_names, list_names
from omoide.store.server.scopes import character_scopes
from omoide.store.server.tombstones import (
    forget_fact_digests,
    list_tombstones,
    write_tombstones,
)


@dataclass
class Removed:
    """What a forget removed: counts for the report, internal ids for the outbox."""

    episodes: list[int] = field(default_factory=list)
    facts: list[int] = field(default_factory=list)
    emotions: int = 0


async def _delete_ids(
    connection: Connection, table: Literal["emotions", "facts", "episodes"], scope_id: int
) -> list[tuple[int, str]]:
    rows = await fetch_all(
        connection,
        f"DELETE FROM {table} WHERE scope_id = %s RETURNING internal_id, id",
        (scope_id,),
    )
    return sorted((int(row[0]), str(row[1])) for row in rows)


async def forget_scope(
    connection: Connection,
    scope: Scope,
    scope_id: int,
    removed: Removed,
    *,
    reason: str,
    at: datetime,
) -> ForgetReport:
    """Delete everything of one scope and leave a tombstone for each memory and the scope."""
    await forget_fact_digests(connection, scope_id)
    await forget_names(connection, scope_id)
    emotion_rows = await _delete_ids(connection, "emotions", scope_id)
    fact_rows = await _delete_ids(connection, "facts", scope_id)
    episode_rows = await _delete_ids(connection, "episodes", scope_id)
    for kind, rows in (
        (MemoryKind.EPISODE, episode_rows),
        (MemoryKind.FACT, fact_rows),
        (MemoryKind.EMOTION, emotion_rows),
    ):
        ids = [memory_id for _, memory_id in rows]
        await write_tombstones(connection, scope_id, kind, ids, reason=reason, at=at)
    if emotion_rows or fact_rows or episode_rows:
        kind = MemoryKind.CHARACTER if scope.is_character_wide else MemoryKind.VIEWER
        memory_id = scope.character_id if scope.user_id is None else scope.user_id
        await write_tombstones(connection, scope_id, kind, [memory_id], reason=reason, at=at)
    removed.episodes.extend(internal_id for internal_id, _ in episode_rows)
    removed.facts.extend(internal_id for internal_id, _ in fact_rows)
    removed.emotions += len(emotion_rows)
    return ForgetReport(scope, len(episode_rows), len(fact_rows), len(emotion_rows))


async def export_scope(connection: Connection, scope: Scope, scope_id: int | None) -> ScopeExport:
    if scope_id is None:
        return ScopeExport(scope, (), (), (), ())
    episode_rows = await fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} {FROM_EPISODES} WHERE e.scope_id = %s "
        "ORDER BY e.recorded_at, e.id",
        (scope_id,),
    )
    emotion_rows = await fetch_all(
        connection,
        f"SELECT {EMOTION_COLUMNS} FROM emotions m JOIN scopes s ON s.id = m.scope_id "
        "WHERE m.scope_id = %s ORDER BY m.recorded_at, m.id",
        (scope_id,),
    )
    facts = await list_facts(
        connection, scope_id, fact_conditions(FactFilter(include_inactive=True))
    )
    return ScopeExport(
        scope=scope,
        episodes=tuple(episode_from_row(row) for row in episode_rows),
        facts=tuple(facts),
        emotions=tuple(emotion_from_row(row) for row in emotion_rows),
        tombstones=tuple(await list_tombstones(connection, scope_id)),
        display_names=tuple(await list_names(connection, scope_id)),
    )


def like_pattern(search: str) -> str:
    """A LIKE pattern matching ``search`` as a literal substring (escape character ``\\``)."""
    escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


_REMEMBERED = f"""
    FROM scopes s
    WHERE s.character_id = %s AND s.user_id IS NOT NULL
        AND (s.user_id LIKE %s ESCAPE '\\' OR {NAME_MATCHES})
        AND (EXISTS (SELECT 1 FROM episodes e WHERE e.scope_id = s.id)
            OR EXISTS (SELECT 1 FROM facts f WHERE f.scope_id = s.id)
            OR EXISTS (SELECT 1 FROM emotions m WHERE m.scope_id = s.id))
"""

_LIST_VIEWERS = f"""
    SELECT s.user_id,
        (SELECT count(*) FROM episodes e WHERE e.scope_id = s.id AND e.archived_at IS NULL),
        (SELECT count(*) FROM facts f WHERE f.scope_id = s.id
            AND f.superseded_at IS NULL AND f.trust <> 'contradicted'),
        greatest((SELECT max(e.recorded_at) FROM episodes e WHERE e.scope_id = s.id),
            (SELECT max(m.recorded_at) FROM emotions m WHERE m.scope_id = s.id)) AS last_seen,
        (SELECT count(*) FROM episodes e WHERE e.scope_id = s.id AND e.archived_at IS NOT NULL),
        {LATEST_NAME}
    {_REMEMBERED}
    ORDER BY last_seen DESC NULLS LAST, s.user_id
    LIMIT %s OFFSET %s
"""


def _search_patterns(search: str | None) -> tuple[str, str]:
    """LIKE patterns for the viewer id and for folded names."""
    text = check_search(search)
    return like_pattern(text), like_pattern(folded(text))


async def list_viewers(
    connection: Connection, character_id: str, search: str | None, limit: int, offset: int
) -> list[ViewerSummary]:
    """Viewers with any stored memory, most recently seen first."""
    check_identifier(character_id, name="character_id")
    patterns = _search_patterns(search)
    rows = await fetch_all(connection, _LIST_VIEWERS, (character_id, *patterns, limit, offset))
    return [
        ViewerSummary(
            scope=Scope(character_id, row[0]),
            episode_count=int(row[1]),
            fact_count=int(row[2]),
            archived_episode_count=int(row[4]),
            last_seen_at=None if row[3] is None else row[3].astimezone(UTC),
            display_name=row[5],
        )
        for row in rows
    ]


async def count_viewers(connection: Connection, character_id: str, search: str | None) -> int:
    """How many viewers :func:`list_viewers` lists over all its pages."""
    check_identifier(character_id, name="character_id")
    patterns = _search_patterns(search)
    rows = await fetch_all(connection, f"SELECT count(*) {_REMEMBERED}", (character_id, *patterns))
    return int(rows[0][0])


async def list_episodes_for_decay(
    connection: Connection, character_id: str, after_id: str | None, limit: int
) -> list[Episode]:
    scope_ids = list(await character_scopes(connection, character_id))
    conditions = episode_conditions(EpisodeFilter())
    rows = await fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} {FROM_EPISODES} "
        f"WHERE e.scope_id = ANY(%s){conditions.sql} AND e.id > %s ORDER BY e.id LIMIT %s",
        (scope_ids, *conditions.parameters, after_id or "", limit),
    )
    return [episode_from_row(row) for row in rows]


async def list_archived_episodes(
    connection: Connection,
    character_id: str,
    *,
    archived_from: datetime | None,
    archived_before: datetime | None,
    after_id: str | None,
    limit: int,
) -> list[Episode]:
    scope_ids = list(await character_scopes(connection, character_id))
    rows = await fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} {FROM_EPISODES} "
        "WHERE e.scope_id = ANY(%s) AND e.archived_at IS NOT NULL "
        "AND (%s::timestamptz IS NULL OR e.archived_at >= %s) "
        "AND (%s::timestamptz IS NULL OR e.archived_at < %s) "
        "AND e.id > %s ORDER BY e.id LIMIT %s",
        (
            scope_ids,
            archived_from,
            archived_from,
            archived_before,
            archived_before,
            after_id or "",
            limit,
        ),
    )
    return [episode_from_row(row) for row in rows]


async def purge_archived(
    connection: Connection,
    character_id: str,
    *,
    archived_before: datetime,
    reason: str,
    at: datetime,
) -> list[int]:
    """Destroy archived episodes of every scope of one character, leaving tombstones."""
    scopes = await character_scopes(connection, character_id)
    rows = await fetch_all(
        connection,
        "DELETE FROM episodes WHERE scope_id = ANY(%s) AND archived_at IS NOT NULL "
        "AND archived_at < %s RETURNING internal_id, id, scope_id",
        (list(scopes), archived_before),
    )
    ids_by_scope: defaultdict[int, list[str]] = defaultdict(list)
    for _, episode_id, scope_id in sorted(rows):
        ids_by_scope[int(scope_id)].append(str(episode_id))
    for scope_id, ids in ids_by_scope.items():
        await write_tombstones(connection, scope_id, MemoryKind.EPISODE, ids, reason=reason, at=at)
    return sorted(int(row[0]) for row in rows)

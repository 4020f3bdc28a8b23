"""Whole scopes and characters: forgetting, exporting, listing viewers, decay and purging."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import TYPE_CHECKING, Literal

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
from omoide.store.sqlite import episodes, facts
from omoide.store.sqlite.codec import (
    emotion_from_row,
    episode_from_row,
    optional_datetime,
    to_micros,
)
from omoide.store.sqlite.connection import fetch_all
from omoide.store.sqlite.filters import episode_record_conditions
from omoide.store.sqlite.names import LATEST_NAME, NAME_MATCHES, forget_names, list_names
from omoide.store.sqlite.scopes import character_scopes
from omoide.store.sqlite.tombstones import (
    forget_fact_digests,
    list_tombstones,
    write_tombstones,
)

if TYPE_CHECKING:
    from datetime import datetime

    import apsw

    from omoide.store.sqlite.vectors import VectorSpace


def _ids(
    connection: apsw.Connection, table: Literal["emotions", "facts", "episodes"], scope_id: int
) -> list[tuple[int, str]]:
    rows = fetch_all(
        connection,
        f"SELECT internal_id, id FROM {table} WHERE scope_id = ? ORDER BY internal_id",
        (scope_id,),
    )
    return [(int(row[0]), str(row[1])) for row in rows]


def forget_scope(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    *,
    reason: str,
    at: datetime,
) -> ForgetReport:
    """Delete everything of one scope and leave a tombstone for each memory and the scope."""
    emotion_rows = _ids(connection, "emotions", scope_id)
    fact_rows = _ids(connection, "facts", scope_id)
    episode_rows = _ids(connection, "episodes", scope_id)
    connection.execute("DELETE FROM emotions WHERE scope_id = ?", (scope_id,))
    forget_names(connection, scope_id)
    forget_fact_digests(connection, scope_id)
    facts.remove_facts(connection, space, [internal_id for internal_id, _ in fact_rows])
    episodes.remove_episodes(connection, space, [internal_id for internal_id, _ in episode_rows])
    for kind, rows in (
        (MemoryKind.EPISODE, episode_rows),
        (MemoryKind.FACT, fact_rows),
        (MemoryKind.EMOTION, emotion_rows),
    ):
        ids = [memory_id for _, memory_id in rows]
        write_tombstones(connection, scope_id, kind, ids, reason=reason, at=at)
    if emotion_rows or fact_rows or episode_rows:
        kind = MemoryKind.CHARACTER if scope.is_character_wide else MemoryKind.VIEWER
        memory_id = scope.character_id if scope.user_id is None else scope.user_id
        write_tombstones(connection, scope_id, kind, [memory_id], reason=reason, at=at)
    return ForgetReport(scope, len(episode_rows), len(fact_rows), len(emotion_rows))


def export_scope(connection: apsw.Connection, scope: Scope, scope_id: int | None) -> ScopeExport:
    if scope_id is None:
        return ScopeExport(scope, (), (), (), ())
    episode_rows = fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} FROM episodes e JOIN scopes s ON s.id = e.scope_id "
        "WHERE e.scope_id = ? ORDER BY e.recorded_at, e.id",
        (scope_id,),
    )
    emotion_rows = fetch_all(
        connection,
        f"SELECT {EMOTION_COLUMNS} FROM emotions m JOIN scopes s ON s.id = m.scope_id "
        "WHERE m.scope_id = ? ORDER BY m.recorded_at, m.id",
        (scope_id,),
    )
    return ScopeExport(
        scope=scope,
        episodes=tuple(episode_from_row(row) for row in episode_rows),
        facts=tuple(facts.list_facts(connection, scope_id, FactFilter(include_inactive=True))),
        emotions=tuple(emotion_from_row(row) for row in emotion_rows),
        tombstones=tuple(list_tombstones(connection, scope_id)),
        display_names=tuple(list_names(connection, scope_id)),
    )


def like_pattern(search: str) -> str:
    """A LIKE pattern matching ``search`` as a literal substring (escape character ``\\``)."""
    escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


_REMEMBERED = f"""
    FROM scopes s
    WHERE s.character_id = ? AND s.user_id IS NOT NULL
        AND (s.user_id LIKE ? ESCAPE '\\' OR {NAME_MATCHES})
        AND (EXISTS (SELECT 1 FROM episodes e WHERE e.scope_id = s.id)
            OR EXISTS (SELECT 1 FROM facts f WHERE f.scope_id = s.id)
            OR EXISTS (SELECT 1 FROM emotions m WHERE m.scope_id = s.id))
"""

_LIST_VIEWERS = f"""
    SELECT s.user_id,
        (SELECT count(*) FROM episodes e WHERE e.scope_id = s.id AND e.archived_at IS NULL),
        (SELECT count(*) FROM facts f WHERE f.scope_id = s.id
            AND f.superseded_at IS NULL AND f.trust <> 'contradicted'),
        max(coalesce((SELECT max(e.recorded_at) FROM episodes e WHERE e.scope_id = s.id), -1),
            coalesce((SELECT max(m.recorded_at) FROM emotions m WHERE m.scope_id = s.id), -1))
            AS last_seen,
        (SELECT count(*) FROM episodes e WHERE e.scope_id = s.id AND e.archived_at IS NOT NULL),
        {LATEST_NAME}
    {_REMEMBERED}
    ORDER BY last_seen DESC, s.user_id
    LIMIT ? OFFSET ?
"""


def _search_patterns(search: str | None) -> tuple[str, str]:
    """LIKE patterns for the viewer id and for folded names."""
    text = check_search(search)
    return like_pattern(text), like_pattern(folded(text))


def list_viewers(
    connection: apsw.Connection, character_id: str, search: str | None, limit: int, offset: int
) -> list[ViewerSummary]:
    """Viewers with any stored memory, most recently seen first."""
    check_identifier(character_id, name="character_id")
    patterns = _search_patterns(search)
    rows = fetch_all(connection, _LIST_VIEWERS, (character_id, *patterns, limit, offset))
    return [
        ViewerSummary(
            scope=Scope(character_id, row[0]),
            episode_count=int(row[1]),
            fact_count=int(row[2]),
            archived_episode_count=int(row[4]),
            last_seen_at=optional_datetime(None if row[3] < 0 else row[3]),
            display_name=row[5],
        )
        for row in rows
    ]


def count_viewers(connection: apsw.Connection, character_id: str, search: str | None) -> int:
    """How many viewers :func:`list_viewers` lists over all its pages."""
    check_identifier(character_id, name="character_id")
    patterns = _search_patterns(search)
    row = fetch_all(connection, f"SELECT count(*) {_REMEMBERED}", (character_id, *patterns))
    return int(row[0][0])


def list_episodes_for_decay(
    connection: apsw.Connection, character_id: str, after_id: str | None, limit: int
) -> list[Episode]:
    scope_ids = json.dumps(list(character_scopes(connection, character_id)))
    conditions = episode_record_conditions(EpisodeFilter())
    rows = fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} FROM episodes e JOIN scopes s ON s.id = e.scope_id "
        f"WHERE e.scope_id IN (SELECT value FROM json_each(?)){conditions.sql} AND e.id > ? "
        "ORDER BY e.id LIMIT ?",
        (scope_ids, *conditions.parameters, after_id or "", limit),
    )
    return [episode_from_row(row) for row in rows]


def list_archived_episodes(
    connection: apsw.Connection,
    character_id: str,
    *,
    archived_from: datetime | None,
    archived_before: datetime | None,
    after_id: str | None,
    limit: int,
) -> list[Episode]:
    scope_ids = json.dumps(list(character_scopes(connection, character_id)))
    lowest = -(2**63) if archived_from is None else to_micros(archived_from, name="archived_from")
    highest = (
        2**63 - 1 if archived_before is None else to_micros(archived_before, name="archived_before")
    )
    rows = fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} FROM episodes e JOIN scopes s ON s.id = e.scope_id "
        "WHERE e.scope_id IN (SELECT value FROM json_each(?)) AND e.archived_at IS NOT NULL "
        "AND e.archived_at >= ? AND e.archived_at < ? AND e.id > ? ORDER BY e.id LIMIT ?",
        (scope_ids, lowest, highest, after_id or "", limit),
    )
    return [episode_from_row(row) for row in rows]


def purge_archived(
    connection: apsw.Connection,
    space: VectorSpace,
    character_id: str,
    *,
    archived_before: datetime,
    reason: str,
    at: datetime,
) -> int:
    """Destroy archived episodes of every scope of one character, leaving tombstones."""
    scopes = character_scopes(connection, character_id)
    rows = fetch_all(
        connection,
        "SELECT internal_id, id, scope_id FROM episodes "
        "WHERE scope_id IN (SELECT value FROM json_each(?)) "
        "AND archived_at IS NOT NULL AND archived_at < ? ORDER BY internal_id",
        (json.dumps(list(scopes)), to_micros(archived_before, name="archived_before")),
    )
    episodes.remove_episodes(connection, space, [int(row[0]) for row in rows])
    ids_by_scope: defaultdict[int, list[str]] = defaultdict(list)
    for _, episode_id, scope_id in rows:
        ids_by_scope[int(scope_id)].append(str(episode_id))
    for scope_id, ids in ids_by_scope.items():
        write_tombstones(connection, scope_id, MemoryKind.EPISODE, ids, reason=reason, at=at)
    return len(rows)

"""Episodes and emotion records: SQL over one scope id, run inside the caller's transaction."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import apsw

from omoide.domain import EmotionRecord, Episode, MemoryKind, Scope, check_identifier
from omoide.errors import InvalidInput, NotFound
from omoide.store.base import EpisodeFilter, Hit, TurnWrite
from omoide.store.record_fields import episode_field_values
from omoide.store.rows import EMOTION_COLUMNS, EPISODE_COLUMNS
from omoide.store.sqlite import keyword_index, vectors
from omoide.store.sqlite.codec import (
    FIELD_ENCODING,
    emotion_from_row,
    encode_strings,
    episode_from_row,
    to_micros,
)
from omoide.store.sqlite.connection import constraint_error, fetch_all, fetch_one
from omoide.store.sqlite.filters import episode_record_conditions, episode_vector_conditions
from omoide.store.sqlite.scopes import ensure_scope_id
from omoide.store.sqlite.tombstones import write_tombstones

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from datetime import datetime

    from omoide.domain import Vector
    from omoide.store.sqlite.vectors import VectorSpace

_FROM_EPISODES = "FROM episodes e JOIN scopes s ON s.id = e.scope_id"

_INSERT_EPISODE = (
    "INSERT INTO episodes (id, scope_id, user_message, bot_message, recorded_at, importance, "
    "emotion, emotion_intensity, topics, scoring, last_recalled_at, recall_count, archived_at, "
    "metadata, readings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "RETURNING internal_id"
)
_INSERT_EMOTION = (
    "INSERT INTO emotions (id, scope_id, emotion, intensity, recorded_at, trigger_topics, "
    "episode_internal_id) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def write_turns(
    connection: apsw.Connection, space: VectorSpace, character_id: str, turns: Sequence[TurnWrite]
) -> None:
    """Insert every turn's episode (record, keywords, vector) and emotion record."""
    check_identifier(character_id, name="character_id")
    for turn in turns:
        _check_turn(turn, character_id)
        scope_id = ensure_scope_id(connection, turn.scope)
        if turn.episode is not None:
            insert_episode(connection, space, scope_id, turn.episode, turn.vector)
        if turn.emotion is not None:
            insert_emotion(connection, scope_id, turn.emotion)


def _check_turn(turn: TurnWrite, character_id: str) -> None:
    if not isinstance(turn, TurnWrite):
        raise InvalidInput("write_turns takes TurnWrite values")
    if turn.scope.character_id != character_id:
        raise InvalidInput(
            f"a turn for character {turn.scope.character_id!r} was written as {character_id!r}"
        )
    if turn.episode is not None and turn.episode.scope != turn.scope:
        raise InvalidInput(f"episode {turn.episode.id!r} is not in the turn's scope {turn.scope}")
    if turn.emotion is not None and turn.emotion.scope != turn.scope:
        raise InvalidInput(f"emotion {turn.emotion.id!r} is not in the turn's scope {turn.scope}")
    if turn.episode is None and turn.vector is not None:
        raise InvalidInput("a turn without an episode must not carry a vector")


def _episode_values(episode: Episode, scope_id: int) -> tuple[object, ...]:
    """The ``_INSERT_EPISODE`` parameters; validates what the domain type does not."""
    return episode_field_values(episode, scope_id, FIELD_ENCODING)


def insert_episode(
    connection: apsw.Connection,
    space: VectorSpace,
    scope_id: int,
    episode: Episode,
    vector: Vector | None,
) -> int:
    """Insert the record, its keyword row and (when given) its vector."""
    values = _episode_values(episode, scope_id)
    try:
        internal_id = int(fetch_all(connection, _INSERT_EPISODE, values)[0][0])
    except apsw.ConstraintError as exc:
        raise constraint_error(exc, f"episode {episode.id!r}") from exc
    keyword_index.index_text(
        connection, "episode_keywords", internal_id, scope_id, episode.searchable_text
    )
    if vector is not None:
        _insert_vector(connection, space, internal_id, scope_id, episode, vector)
    return internal_id


def _insert_vector(
    connection: apsw.Connection,
    space: VectorSpace,
    internal_id: int,
    scope_id: int,
    episode: Episode,
    vector: Vector,
) -> None:
    vectors.insert_episode_vector(
        connection,
        space,
        internal_id,
        scope_id,
        vectors.vector_bytes(vector, space),
        importance=episode.importance,
        archived=episode.archived_at is not None,
        recorded_at=to_micros(episode.recorded_at),
    )


def rewrite_episode(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    episode: Episode,
    vector: Vector,
) -> None:
    """Replace a stored episode's words (messages, topics, the readings of them),
    keywords and vector."""
    if episode.scope != scope:
        raise InvalidInput(f"episode {episode.id!r} is not in scope {scope}")
    internal_id = episode_internal_id_of(connection, scope_id, episode.id)
    if internal_id is None:
        raise NotFound(f"episode {episode.id!r} not found in scope {scope}")
    values = _episode_values(episode, scope_id)
    connection.execute(
        "UPDATE episodes SET user_message = ?, bot_message = ?, topics = ?, readings = ? "
        "WHERE internal_id = ?",
        (values[2], values[3], values[8], values[14], internal_id),
    )
    keyword_index.reindex_text(
        connection, "episode_keywords", internal_id, scope_id, episode.searchable_text
    )
    vectors.delete_vectors(connection, space.episode_table, [internal_id])
    _insert_vector(connection, space, internal_id, scope_id, episode, vector)


def insert_emotion(connection: apsw.Connection, scope_id: int, emotion: EmotionRecord) -> None:
    check_identifier(emotion.id, name="emotion id")
    episode_internal_id = None
    if emotion.episode_id is not None:
        episode_internal_id = episode_internal_id_of(connection, scope_id, emotion.episode_id)
        if episode_internal_id is None:
            raise InvalidInput(
                f"emotion {emotion.id!r} refers to episode {emotion.episode_id!r}, "
                f"which is not in scope {emotion.scope}"
            )
    values = (
        emotion.id,
        scope_id,
        emotion.emotion,
        emotion.intensity,
        to_micros(emotion.recorded_at, name="recorded_at"),
        encode_strings(emotion.trigger_topics, name="trigger_topics"),
        episode_internal_id,
    )
    try:
        connection.execute(_INSERT_EMOTION, values)
    except apsw.ConstraintError as exc:
        raise constraint_error(exc, f"emotion record {emotion.id!r}") from exc


def episode_internal_id_of(
    connection: apsw.Connection, scope_id: int, episode_id: str
) -> int | None:
    row = fetch_one(
        connection,
        "SELECT internal_id FROM episodes WHERE scope_id = ? AND id = ?",
        (scope_id, episode_id),
    )
    return None if row is None else int(row[0])


def get_episode(
    connection: apsw.Connection, scope: Scope, scope_id: int, episode_id: str
) -> Episode:
    row = fetch_one(
        connection,
        f"SELECT {EPISODE_COLUMNS} {_FROM_EPISODES} WHERE e.scope_id = ? AND e.id = ?",
        (scope_id, episode_id),
    )
    if row is None:
        raise NotFound(f"episode {episode_id!r} not found in scope {scope}")
    return episode_from_row(row)


def list_episodes(
    connection: apsw.Connection, scope_id: int, where: EpisodeFilter, limit: int, offset: int
) -> list[Episode]:
    conditions = episode_record_conditions(where)
    rows = fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} {_FROM_EPISODES} WHERE e.scope_id = ?{conditions.sql} "
        "ORDER BY e.recorded_at DESC, e.id DESC LIMIT ? OFFSET ?",
        (scope_id, *conditions.parameters, limit, offset),
    )
    return [episode_from_row(row) for row in rows]


def count_episodes(connection: apsw.Connection, scope_id: int, where: EpisodeFilter) -> int:
    conditions = episode_record_conditions(where)
    row = fetch_one(
        connection,
        f"SELECT count(*) FROM episodes e WHERE e.scope_id = ?{conditions.sql}",
        (scope_id, *conditions.parameters),
    )
    assert row is not None
    return int(row[0])


def search_vectors(
    connection: apsw.Connection,
    space: VectorSpace,
    scope_id: int,
    query: bytes,
    where: EpisodeFilter,
    limit: int,
) -> list[Hit[Episode]]:
    conditions = episode_vector_conditions(where)
    nearest = vectors.nearest_sql(space.episode_table, conditions.sql)
    rows = fetch_all(
        connection,
        f"WITH nearest AS MATERIALIZED ({nearest}) "
        f"SELECT {EPISODE_COLUMNS}, nearest.distance FROM nearest "
        "JOIN episodes e ON e.internal_id = nearest.internal_id "
        "JOIN scopes s ON s.id = e.scope_id "
        "WHERE e.scope_id = ? ORDER BY nearest.distance, e.id",
        (query, limit, scope_id, space.model_id, *conditions.parameters, scope_id),
    )
    return [Hit(episode_from_row(row), vectors.similarity(row[-1])) for row in rows]


def search_keywords(
    connection: apsw.Connection, scope_id: int, text: str, where: EpisodeFilter, limit: int
) -> list[Hit[Episode]]:
    expression = keyword_index.match_expression(scope_id, text)
    if expression is None or limit == 0:
        return []
    conditions = episode_record_conditions(where)
    rows = fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS}, bm25(episode_keywords) FROM episode_keywords "
        # CROSS JOIN keeps the FTS5 match as the outer loop: left to itself SQLite starts
        # from the scope index and evaluates the match once per record of the viewer.
        "CROSS JOIN episodes e ON e.internal_id = episode_keywords.rowid "
        "JOIN scopes s ON s.id = e.scope_id "
        f"WHERE episode_keywords MATCH ? AND e.scope_id = ?{conditions.sql} "
        "ORDER BY bm25(episode_keywords), e.id LIMIT ?",
        (expression, scope_id, *conditions.parameters, limit),
    )
    return [Hit(episode_from_row(row), -float(row[-1])) for row in rows]


def record_recalls(
    connection: apsw.Connection, scope_id: int, episode_ids: Sequence[str], at: int
) -> None:
    connection.execute(
        "UPDATE episodes SET recall_count = recall_count + 1, last_recalled_at = ? "
        "WHERE scope_id = ? AND id IN (SELECT value FROM json_each(?))",
        (at, scope_id, json.dumps(list(episode_ids))),
    )


def archive_episodes(
    connection: apsw.Connection,
    space: VectorSpace,
    scope_id: int,
    episode_ids: Sequence[str],
    at: datetime,
) -> int:
    rows = fetch_all(
        connection,
        "UPDATE episodes SET archived_at = ? WHERE scope_id = ? AND archived_at IS NULL "
        "AND id IN (SELECT value FROM json_each(?)) RETURNING internal_id",
        (to_micros(at, name="at"), scope_id, json.dumps(list(episode_ids))),
    )
    connection.executemany(
        f"UPDATE {space.episode_table} SET archived = 1 WHERE rowid = ?",
        [(row[0],) for row in rows],
    )
    return len(rows)


def replace_readings(
    connection: apsw.Connection, scope_id: int, readings: Mapping[str, tuple[str | None, str]]
) -> int:
    """Replace episodes' kept readings (id -> (the readings they were read with, the new
    ones)); one is replaced only while it still holds the old ones. Returns how many were."""
    rows = fetch_all(
        connection,
        "UPDATE episodes SET readings = n.value ->> '$[1]' "
        "FROM json_each(?) AS n WHERE episodes.scope_id = ? AND episodes.id = n.key "
        "AND episodes.readings IS n.value ->> '$[0]' RETURNING episodes.internal_id",
        (json.dumps(dict(readings), ensure_ascii=False), scope_id),
    )
    return len(rows)


def restore_episodes(
    connection: apsw.Connection, space: VectorSpace, scope_id: int, episode_ids: Sequence[str]
) -> int:
    """Clear the archive time of archived episodes and mark their vectors searchable."""
    rows = fetch_all(
        connection,
        "UPDATE episodes SET archived_at = NULL WHERE scope_id = ? AND archived_at IS NOT NULL "
        "AND id IN (SELECT value FROM json_each(?)) RETURNING internal_id",
        (scope_id, json.dumps(list(episode_ids))),
    )
    connection.executemany(
        f"UPDATE {space.episode_table} SET archived = 0 WHERE rowid = ?",
        [(row[0],) for row in rows],
    )
    return len(rows)


def remove_episodes(
    connection: apsw.Connection, space: VectorSpace, internal_ids: list[int]
) -> None:
    """Delete records, keyword rows and vectors; provenance links go with the records."""
    keyword_index.remove_rows(connection, "episode_keywords", internal_ids)
    vectors.delete_vectors(connection, space.episode_table, internal_ids)
    connection.executemany(
        "DELETE FROM episodes WHERE internal_id = ?",
        [(internal_id,) for internal_id in internal_ids],
    )


def delete_episode(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    episode_id: str,
    *,
    reason: str,
    at: datetime,
) -> None:
    internal_id = episode_internal_id_of(connection, scope_id, episode_id)
    if internal_id is None:
        raise NotFound(f"episode {episode_id!r} not found in scope {scope}")
    remove_episodes(connection, space, [internal_id])
    write_tombstones(connection, scope_id, MemoryKind.EPISODE, [episode_id], reason=reason, at=at)


def list_emotions(
    connection: apsw.Connection, scope_id: int, since: datetime, until: datetime
) -> list[EmotionRecord]:
    rows = fetch_all(
        connection,
        f"SELECT {EMOTION_COLUMNS} FROM emotions m JOIN scopes s ON s.id = m.scope_id "
        "WHERE m.scope_id = ? AND m.recorded_at BETWEEN ? AND ? ORDER BY m.recorded_at, m.id",
        (scope_id, to_micros(since, name="since"), to_micros(until, name="until")),
    )
    return [emotion_from_row(row) for row in rows]

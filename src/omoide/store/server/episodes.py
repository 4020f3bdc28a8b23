"""Episodes and emotion records in PostgreSQL, inside the caller's transaction.

Functions that change what an episode's Qdrant point should be return the affected
``internal_id`` values; the caller queues them in the outbox in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import psycopg.errors

from omoide.domain import EmotionRecord, Episode, MemoryKind, Scope, check_identifier
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.base import EmbeddingInfo, TurnWrite
from omoide.store.record_fields import episode_field_values
from omoide.store.rows import EMOTION_COLUMNS, EPISODE_COLUMNS
from omoide.store.server.codec import (
    FIELD_ENCODING,
    emotion_from_row,
    encode_strings,
    episode_from_row,
    utc,
)
from omoide.store.server.database import Connection, execute, fetch_all, fetch_one
from omoide.store.server.embedding import vector_bytes
from omoide.store.server.filters import Conditions
from omoide.store.server.scopes import ensure_scope_id
from omoide.store.server.tombstones import write_tombstones

FROM_EPISODES = "FROM episodes e JOIN scopes s ON s.id = e.scope_id"

_INSERT_EPISODE = (
    "INSERT INTO episodes (id, scope_id, user_message, bot_message, recorded_at, importance, "
    "emotion, emotion_intensity, topics, scoring, last_recalled_at, recall_count, archived_at, "
    "metadata, readings, embedding) VALUES "
    "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::json, %s, %s) RETURNING internal_id"
)
_INSERT_EMOTION = (
    "INSERT INTO emotions (id, scope_id, emotion, intensity, recorded_at, trigger_topics, "
    "episode_internal_id) VALUES (%s, %s, %s, %s, %s, %s, %s)"
)


def check_turns(
    character_id: str, turns: Sequence[TurnWrite], embedding: EmbeddingInfo
) -> list[bytes | None]:
    """Validate a batch before any of it is written; returns each turn's encoded vector."""
    check_identifier(character_id, name="character_id")
    encoded: list[bytes | None] = []
    for turn in turns:
        if not isinstance(turn, TurnWrite):
            raise InvalidInput("write_turns takes TurnWrite values")
        if turn.scope.character_id != character_id:
            raise InvalidInput(
                f"a turn for character {turn.scope.character_id!r} was written as {character_id!r}"
            )
        if turn.episode is not None and turn.episode.scope != turn.scope:
            raise InvalidInput(
                f"episode {turn.episode.id!r} is not in the turn's scope {turn.scope}"
            )
        if turn.emotion is not None and turn.emotion.scope != turn.scope:
            raise InvalidInput(
                f"emotion {turn.emotion.id!r} is not in the turn's scope {turn.scope}"
            )
        if turn.episode is None and turn.vector is not None:
            raise InvalidInput("a turn without an episode must not carry a vector")
        encoded.append(None if turn.vector is None else vector_bytes(turn.vector, embedding))
    return encoded


async def write_turns(
    connection: Connection, turns: Sequence[TurnWrite], vectors: Sequence[bytes | None]
) -> list[int]:
    """Insert every turn's episode and emotion record; returns the new episodes' ids."""
    written: list[int] = []
    for turn, vector in zip(turns, vectors, strict=True):
        scope_id = await ensure_scope_id(connection, turn.scope)
        if turn.episode is not None:
            written.append(await insert_episode(connection, scope_id, turn.episode, vector))
        if turn.emotion is not None:
            await insert_emotion(connection, scope_id, turn.emotion)
    return written


def _episode_values(episode: Episode, scope_id: int, vector: bytes | None) -> tuple[object, ...]:
    return (*episode_field_values(episode, scope_id, FIELD_ENCODING), vector)


async def insert_episode(
    connection: Connection, scope_id: int, episode: Episode, vector: bytes | None
) -> int:
    values = _episode_values(episode, scope_id, vector)
    try:
        row = await fetch_one(connection, _INSERT_EPISODE, values)
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(f"episode {episode.id!r} already exists") from exc
    assert row is not None
    return int(row[0])


async def insert_episodes(
    connection: Connection, scope_id: int, rows: Sequence[tuple[Episode, bytes | None]]
) -> list[int]:
    """Insert many episodes of one scope in one pipelined statement (for bulk copies)."""
    return await insert_episode_rows(connection, [(scope_id, *row) for row in rows])


async def insert_episode_rows(
    connection: Connection, rows: Sequence[tuple[int, Episode, bytes | None]]
) -> list[int]:
    """Insert ``(scope_id, episode, vector)`` rows of any scopes in one pipelined statement
    (for bulk copies); returns their new ``internal_id`` values, in order."""
    if not rows:
        return []
    values = [_episode_values(episode, scope_id, vector) for scope_id, episode, vector in rows]
    cursor = connection.cursor()
    try:
        await cursor.executemany(_INSERT_EPISODE, values, returning=True)
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(f"one of {len(rows)} episodes already exists") from exc
    internal_ids: list[int] = []
    while True:
        row = await cursor.fetchone()
        if row is not None:
            internal_ids.append(int(row[0]))
        if not cursor.nextset():
            return internal_ids


async def insert_emotions(
    connection: Connection, rows: Sequence[tuple[int, EmotionRecord]]
) -> None:
    """Insert ``(scope_id, emotion)`` rows of any scopes in one pipelined statement (for bulk
    copies), with :func:`insert_emotion`'s rule: a cited episode must be in the scope."""
    if not rows:
        return
    cited = sorted({emotion.episode_id for _, emotion in rows if emotion.episode_id is not None})
    found = await fetch_all(
        connection, "SELECT scope_id, id, internal_id FROM episodes WHERE id = ANY(%s)", (cited,)
    )
    episode_ids = {(int(row[0]), str(row[1])): int(row[2]) for row in found}
    values = [_emotion_values(scope_id, emotion, episode_ids) for scope_id, emotion in rows]
    cursor = connection.cursor()
    try:
        await cursor.executemany(_INSERT_EMOTION, values)
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(f"one of {len(rows)} emotion records already exists") from exc


def _emotion_values(
    scope_id: int, emotion: EmotionRecord, episode_ids: dict[tuple[int, str], int]
) -> tuple[object, ...]:
    check_identifier(emotion.id, name="emotion id")
    episode_internal_id = None
    if emotion.episode_id is not None:
        episode_internal_id = episode_ids.get((scope_id, emotion.episode_id))
        if episode_internal_id is None:
            raise InvalidInput(
                f"emotion {emotion.id!r} refers to episode {emotion.episode_id!r}, "
                f"which is not in scope {emotion.scope}"
            )
    return (
        emotion.id,
        scope_id,
        emotion.emotion,
        emotion.intensity,
        utc(emotion.recorded_at, name="recorded_at"),
        encode_strings(emotion.trigger_topics, name="trigger_topics"),
        episode_internal_id,
    )


async def insert_emotion(connection: Connection, scope_id: int, emotion: EmotionRecord) -> None:
    episode_ids: dict[tuple[int, str], int] = {}
    if emotion.episode_id is not None:
        found = await episode_internal_id_of(connection, scope_id, emotion.episode_id)
        if found is not None:
            episode_ids[(scope_id, emotion.episode_id)] = found
    try:
        await execute(connection, _INSERT_EMOTION, _emotion_values(scope_id, emotion, episode_ids))
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(f"emotion record {emotion.id!r} already exists") from exc


async def episode_internal_id_of(
    connection: Connection, scope_id: int, episode_id: str
) -> int | None:
    row = await fetch_one(
        connection,
        "SELECT internal_id FROM episodes WHERE scope_id = %s AND id = %s",
        (scope_id, episode_id),
    )
    return None if row is None else int(row[0])


async def get_episode(
    connection: Connection, scope: Scope, scope_id: int, episode_id: str
) -> Episode:
    row = await fetch_one(
        connection,
        f"SELECT {EPISODE_COLUMNS} {FROM_EPISODES} WHERE e.scope_id = %s AND e.id = %s",
        (scope_id, episode_id),
    )
    if row is None:
        raise NotFound(f"episode {episode_id!r} not found in scope {scope}")
    return episode_from_row(row)


async def list_episodes(
    connection: Connection, scope_id: int, conditions: Conditions, limit: int, offset: int
) -> list[Episode]:
    rows = await fetch_all(
        connection,
        f"SELECT {EPISODE_COLUMNS} {FROM_EPISODES} WHERE e.scope_id = %s{conditions.sql} "
        "ORDER BY e.recorded_at DESC, e.id DESC LIMIT %s OFFSET %s",
        (scope_id, *conditions.parameters, limit, offset),
    )
    return [episode_from_row(row) for row in rows]


async def count_episodes(connection: Connection, scope_id: int, conditions: Conditions) -> int:
    row = await fetch_one(
        connection,
        f"SELECT count(*) FROM episodes e WHERE e.scope_id = %s{conditions.sql}",
        (scope_id, *conditions.parameters),
    )
    assert row is not None
    return int(row[0])


async def episodes_by_internal_id(
    connection: Connection, scope_id: int, internal_ids: Sequence[int], conditions: Conditions
) -> dict[int, Episode]:
    """The episodes among ``internal_ids`` that are in the scope and pass the filter."""
    rows = await fetch_all(
        connection,
        f"SELECT e.internal_id, {EPISODE_COLUMNS} {FROM_EPISODES} "
        f"WHERE e.scope_id = %s AND e.internal_id = ANY(%s){conditions.sql}",
        (scope_id, list(internal_ids), *conditions.parameters),
    )
    return {int(row[0]): episode_from_row(row[1:]) for row in rows}


async def record_recalls(
    connection: Connection, scope_id: int, episode_ids: Sequence[str], at: datetime
) -> None:
    await execute(
        connection,
        "UPDATE episodes SET recall_count = recall_count + 1, last_recalled_at = %s "
        "WHERE scope_id = %s AND id = ANY(%s)",
        (at, scope_id, list(episode_ids)),
    )


async def archive_episodes(
    connection: Connection, scope_id: int, episode_ids: Sequence[str], at: datetime
) -> list[int]:
    rows = await fetch_all(
        connection,
        "UPDATE episodes SET archived_at = %s WHERE scope_id = %s AND archived_at IS NULL "
        "AND id = ANY(%s) RETURNING internal_id",
        (at, scope_id, list(episode_ids)),
    )
    return [int(row[0]) for row in rows]


async def replace_readings(
    connection: Connection, scope_id: int, readings: Mapping[str, tuple[str | None, str]]
) -> int:
    """Replace episodes' kept readings (id -> (the readings they were read with, the new
    ones)); one is replaced only while it still holds the old ones. Returns how many were."""
    ids = list(readings)
    rows = await fetch_all(
        connection,
        "UPDATE episodes AS e SET readings = n.new FROM unnest(%s::text[], %s::text[], "
        "%s::text[]) AS n(id, old, new) WHERE e.scope_id = %s AND e.id = n.id "
        "AND e.readings IS NOT DISTINCT FROM n.old RETURNING e.internal_id",
        (ids, [readings[i][0] for i in ids], [readings[i][1] for i in ids], scope_id),
    )
    return len(rows)


async def restore_episodes(
    connection: Connection, scope_id: int, episode_ids: Sequence[str]
) -> list[int]:
    rows = await fetch_all(
        connection,
        "UPDATE episodes SET archived_at = NULL WHERE scope_id = %s AND archived_at IS NOT NULL "
        "AND id = ANY(%s) RETURNING internal_id",
        (scope_id, list(episode_ids)),
    )
    return [int(row[0]) for row in rows]


async def delete_episode(
    connection: Connection,
    scope: Scope,
    scope_id: int,
    episode_id: str,
    *,
    reason: str,
    at: datetime,
) -> int:
    """Delete one episode (its provenance links go with it) and leave a tombstone."""
    row = await fetch_one(
        connection,
        "DELETE FROM episodes WHERE scope_id = %s AND id = %s RETURNING internal_id",
        (scope_id, episode_id),
    )
    if row is None:
        raise NotFound(f"episode {episode_id!r} not found in scope {scope}")
    await write_tombstones(
        connection, scope_id, MemoryKind.EPISODE, [episode_id], reason=reason, at=at
    )
    return int(row[0])


async def rewrite_episode(
    connection: Connection, scope: Scope, scope_id: int, episode: Episode, vector: bytes
) -> int:
    """Replace a stored episode's words (messages, topics, the readings of them) and
    vector; its internal id."""
    if episode.scope != scope:
        raise InvalidInput(f"episode {episode.id!r} is not in scope {scope}")
    values = episode_field_values(episode, scope_id, FIELD_ENCODING)
    row = await fetch_one(
        connection,
        "UPDATE episodes SET user_message = %s, bot_message = %s, topics = %s, readings = %s, "
        "embedding = %s WHERE scope_id = %s AND id = %s RETURNING internal_id",
        (values[2], values[3], values[8], values[14], vector, scope_id, episode.id),
    )
    if row is None:
        raise NotFound(f"episode {episode.id!r} not found in scope {scope}")
    return int(row[0])


async def list_emotions(
    connection: Connection, scope_id: int, since: datetime, until: datetime
) -> list[EmotionRecord]:
    rows = await fetch_all(
        connection,
        f"SELECT {EMOTION_COLUMNS} FROM emotions m JOIN scopes s ON s.id = m.scope_id "
        "WHERE m.scope_id = %s AND m.recorded_at BETWEEN %s AND %s ORDER BY m.recorded_at, m.id",
        (scope_id, since, until),
    )
    return [emotion_from_row(row) for row in rows]

"""Rows to domain values and back: column lists, time and vector encodings.

Every query that returns a record selects one of the column lists defined here, in order.
Times are ``timestamptz`` (microseconds, like the embedded store) and come back in UTC
whatever the session's time zone. Metadata is ``json`` text, so key order and the
difference between ``1`` and ``1.0`` survive. Vectors are little-endian float32 bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    MemoryKind,
    MetadataValue,
    Scope,
    ScoringMethod,
    Tombstone,
    TrustState,
    Vector,
    as_utc,
    check_metadata,
)
from omoide.errors import BackendError, InvalidInput

Row = Sequence[Any]
VECTOR_DTYPE = np.dtype("<f4")

EPISODE_COLUMNS = (
    "s.character_id, s.user_id, e.id, e.user_message, e.bot_message, e.recorded_at, "
    "e.importance, e.emotion, e.emotion_intensity, e.topics, e.scoring, e.last_recalled_at, "
    "e.recall_count, e.archived_at, e.metadata"
)
FACT_COLUMNS = (
    "s.character_id, s.user_id, f.id, f.text, f.category, f.confidence, f.salience, "
    "f.recorded_at, f.valid_from, f.trust, f.confirmation_count, f.valid_to, f.superseded_at, "
    "f.supersedes, f.last_recalled_at, f.recall_count, "
    "ARRAY(SELECT linked.id FROM fact_sources fs JOIN episodes linked "
    "ON linked.internal_id = fs.episode_internal_id "
    "WHERE fs.fact_internal_id = f.internal_id ORDER BY fs.position)"
)
EMOTION_COLUMNS = (
    "s.character_id, s.user_id, m.id, m.emotion, m.intensity, m.recorded_at, m.trigger_topics, "
    "(SELECT linked.id FROM episodes linked WHERE linked.internal_id = m.episode_internal_id)"
)
TOMBSTONE_COLUMNS = "s.character_id, s.user_id, t.memory_id, t.kind, t.deleted_at, t.reason"


def utc(moment: datetime, *, name: str = "timestamp") -> datetime:
    """A timezone-aware time in UTC, ready to bind; naive times are refused."""
    return as_utc(moment, name=name)


def optional_utc(moment: datetime | None, *, name: str = "timestamp") -> datetime | None:
    return None if moment is None else utc(moment, name=name)


def _read_time(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _read_optional_time(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def encode_metadata(metadata: Mapping[str, object]) -> str:
    """Flat JSON object text; keys keep their order and ints stay ints."""
    return json.dumps(check_metadata(metadata), ensure_ascii=False, allow_nan=False)


def decode_metadata(value: Any) -> dict[str, MetadataValue]:
    """``json`` columns arrive parsed by psycopg (``json.loads``); text is parsed here."""
    decoded: dict[str, MetadataValue] = json.loads(value) if isinstance(value, str) else value
    return decoded


def encode_strings(values: Sequence[str], *, name: str) -> list[str]:
    for value in values:
        if not isinstance(value, str):
            raise InvalidInput(f"{name} must contain only strings")
    return list(values)


def encode_vector(vector: Vector) -> bytes:
    return np.asarray(vector, dtype=VECTOR_DTYPE).tobytes()


def decode_vector(data: bytes | memoryview, dimensions: int) -> Vector:
    array = np.frombuffer(bytes(data), dtype=VECTOR_DTYPE).astype(np.float32)
    if array.shape != (dimensions,):
        raise BackendError(
            f"a stored vector has {array.shape[0]} dimensions, the store's model makes {dimensions}"
        )
    return array


def _scope(row: Row) -> Scope:
    return Scope(row[0], row[1])


def episode_from_row(row: Row) -> Episode:
    return Episode(
        id=row[2],
        scope=_scope(row),
        user_message=row[3],
        bot_message=row[4],
        recorded_at=_read_time(row[5]),
        importance=row[6],
        emotion=row[7],
        emotion_intensity=row[8],
        topics=tuple(row[9]),
        scoring=ScoringMethod(row[10]),
        last_recalled_at=_read_optional_time(row[11]),
        recall_count=row[12],
        archived_at=_read_optional_time(row[13]),
        metadata=decode_metadata(row[14]),
    )


def fact_from_row(row: Row) -> Fact:
    return Fact(
        id=row[2],
        scope=_scope(row),
        text=row[3],
        category=FactCategory(row[4]),
        confidence=row[5],
        salience=row[6],
        recorded_at=_read_time(row[7]),
        valid_from=_read_time(row[8]),
        trust=TrustState(row[9]),
        confirmation_count=row[10],
        valid_to=_read_optional_time(row[11]),
        superseded_at=_read_optional_time(row[12]),
        supersedes=row[13],
        source_episode_ids=tuple(row[16]),
        last_recalled_at=_read_optional_time(row[14]),
        recall_count=row[15],
    )


def emotion_from_row(row: Row) -> EmotionRecord:
    return EmotionRecord(
        id=row[2],
        scope=_scope(row),
        emotion=row[3],
        intensity=row[4],
        recorded_at=_read_time(row[5]),
        trigger_topics=tuple(row[6]),
        episode_id=row[7],
    )


def tombstone_from_row(row: Row) -> Tombstone:
    return Tombstone(
        memory_id=row[2],
        kind=MemoryKind(row[3]),
        scope=_scope(row),
        deleted_at=_read_time(row[4]),
        reason=row[5],
    )

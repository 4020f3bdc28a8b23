"""Column encodings: UTC microseconds for times, JSON for metadata and string lists.

Row decoders expect the column lists defined here, in order; every query that returns a
record selects one of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

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
    as_utc,
    check_metadata,
)
from omoide.errors import InvalidInput

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MICROSECOND = timedelta(microseconds=1)

Row = Sequence[Any]

EPISODE_COLUMNS = (
    "s.character_id, s.user_id, e.id, e.user_message, e.bot_message, e.recorded_at, "
    "e.importance, e.emotion, e.emotion_intensity, e.topics, e.scoring, e.last_recalled_at, "
    "e.recall_count, e.archived_at, e.metadata"
)
FACT_COLUMNS = (
    "s.character_id, s.user_id, f.id, f.text, f.category, f.confidence, f.salience, "
    "f.recorded_at, f.valid_from, f.trust, f.confirmation_count, f.valid_to, f.superseded_at, "
    "f.supersedes, f.last_recalled_at, f.recall_count, "
    "(SELECT json_group_array(source.id) FROM "
    "(SELECT linked.id FROM fact_sources fs JOIN episodes linked "
    "ON linked.internal_id = fs.episode_internal_id "
    "WHERE fs.fact_internal_id = f.internal_id ORDER BY fs.position) AS source)"
)
EMOTION_COLUMNS = (
    "s.character_id, s.user_id, m.id, m.emotion, m.intensity, m.recorded_at, m.trigger_topics, "
    "(SELECT linked.id FROM episodes linked WHERE linked.internal_id = m.episode_internal_id)"
)
TOMBSTONE_COLUMNS = "s.character_id, s.user_id, t.memory_id, t.kind, t.deleted_at, t.reason"


def to_micros(moment: datetime, *, name: str = "timestamp") -> int:
    """A timezone-aware time as integer microseconds since the Unix epoch, UTC."""
    return (as_utc(moment, name=name) - EPOCH) // ONE_MICROSECOND


def optional_micros(moment: datetime | None, *, name: str = "timestamp") -> int | None:
    return None if moment is None else to_micros(moment, name=name)


def from_micros(value: int) -> datetime:
    return EPOCH + timedelta(microseconds=value)


def optional_datetime(value: int | None) -> datetime | None:
    return None if value is None else from_micros(value)


def encode_metadata(metadata: Mapping[str, object]) -> str:
    """Flat JSON object; keys keep their order and ints stay ints."""
    return json.dumps(check_metadata(metadata), ensure_ascii=False, allow_nan=False)


def decode_metadata(text: str) -> dict[str, MetadataValue]:
    decoded: dict[str, MetadataValue] = json.loads(text)
    return decoded


def encode_strings(values: Sequence[str], *, name: str) -> str:
    for value in values:
        if not isinstance(value, str):
            raise InvalidInput(f"{name} must contain only strings")
    return json.dumps(list(values), ensure_ascii=False)


def decode_strings(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


def _scope(row: Row) -> Scope:
    return Scope(row[0], row[1])


def episode_from_row(row: Row) -> Episode:
    return Episode(
        id=row[2],
        scope=_scope(row),
        user_message=row[3],
        bot_message=row[4],
        recorded_at=from_micros(row[5]),
        importance=row[6],
        emotion=row[7],
        emotion_intensity=row[8],
        topics=decode_strings(row[9]),
        scoring=ScoringMethod(row[10]),
        last_recalled_at=optional_datetime(row[11]),
        recall_count=row[12],
        archived_at=optional_datetime(row[13]),
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
        recorded_at=from_micros(row[7]),
        valid_from=from_micros(row[8]),
        trust=TrustState(row[9]),
        confirmation_count=row[10],
        valid_to=optional_datetime(row[11]),
        superseded_at=optional_datetime(row[12]),
        supersedes=row[13],
        source_episode_ids=decode_strings(row[16]),
        last_recalled_at=optional_datetime(row[14]),
        recall_count=row[15],
    )


def emotion_from_row(row: Row) -> EmotionRecord:
    return EmotionRecord(
        id=row[2],
        scope=_scope(row),
        emotion=row[3],
        intensity=row[4],
        recorded_at=from_micros(row[5]),
        trigger_topics=decode_strings(row[6]),
        episode_id=row[7],
    )


def tombstone_from_row(row: Row) -> Tombstone:
    return Tombstone(
        memory_id=row[2],
        kind=MemoryKind(row[3]),
        scope=_scope(row),
        deleted_at=from_micros(row[4]),
        reason=row[5],
    )

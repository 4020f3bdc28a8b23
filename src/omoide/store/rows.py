"""Rows to domain values, for every SQL backend.

Both SQL backends select the same columns in the same order; they differ only in how a
time, a list of strings and a metadata object are stored. A :class:`RowDecoder` is built
once per backend from those three decoding functions and turns a row into an
:class:`~omoide.domain.Episode`, :class:`~omoide.domain.Fact`,
:class:`~omoide.domain.EmotionRecord` or :class:`~omoide.domain.Tombstone`.

Every query that returns a record selects one of the column lists defined here, in order.
The fact list ends with the fact's source episode ids, which each backend selects with its
own array expression (:func:`fact_columns`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    MemoryKind,
    Scope,
    ScoringMethod,
    Tombstone,
    TrustState,
)
from omoide.metadata import MetadataValue
from omoide.text_caches import remembers_text

if TYPE_CHECKING:
    from datetime import datetime

Row = Sequence[Any]

EPISODE_COLUMNS = (
    "s.character_id, s.user_id, e.id, e.user_message, e.bot_message, e.recorded_at, "
    "e.importance, e.emotion, e.emotion_intensity, e.topics, e.scoring, e.last_recalled_at, "
    "e.recall_count, e.archived_at, e.metadata, e.readings"
)
EMOTION_COLUMNS = (
    "s.character_id, s.user_id, m.id, m.emotion, m.intensity, m.recorded_at, m.trigger_topics, "
    "(SELECT linked.id FROM episodes linked WHERE linked.internal_id = m.episode_internal_id)"
)
TOMBSTONE_COLUMNS = "s.character_id, s.user_id, t.memory_id, t.kind, t.deleted_at, t.reason"
FACT_SOURCE_IDS = (
    "SELECT linked.id FROM fact_sources fs JOIN episodes linked "
    "ON linked.internal_id = fs.episode_internal_id "
    "WHERE fs.fact_internal_id = f.internal_id ORDER BY fs.position"
)


def fact_columns(source_ids: str) -> str:
    """The fact column list, ending with ``source_ids``: an expression over ``FACT_SOURCE_IDS``."""
    return (
        "s.character_id, s.user_id, f.id, f.text, f.category, f.confidence, f.salience, "
        "f.recorded_at, f.valid_from, f.trust, f.confirmation_count, f.valid_to, "
        "f.superseded_at, f.supersedes, f.last_recalled_at, f.recall_count, f.slot, f.terms, "
        + source_ids
    )


@dataclass(frozen=True, slots=True)
class RowDecoder:
    """One backend's column decodings, and the row decoders built on them."""

    read_time: Callable[[Any], datetime]
    read_strings: Callable[[Any], tuple[str, ...]]
    read_metadata: Callable[[Any], dict[str, MetadataValue]]

    def read_optional_time(self, value: Any) -> datetime | None:
        return None if value is None else self.read_time(value)

    def episode(self, row: Row) -> Episode:
        return Episode(
            id=row[2],
            scope=_scope(row),
            user_message=row[3],
            bot_message=row[4],
            recorded_at=self.read_time(row[5]),
            importance=row[6],
            emotion=row[7],
            emotion_intensity=row[8],
            topics=self.read_strings(row[9]),
            scoring=_member(ScoringMethod, row[10]),
            last_recalled_at=self.read_optional_time(row[11]),
            recall_count=row[12],
            archived_at=self.read_optional_time(row[13]),
            metadata=self.read_metadata(row[14]),
            readings=row[15],
        )

    def fact(self, row: Row) -> Fact:
        return Fact(
            id=row[2],
            scope=_scope(row),
            text=row[3],
            category=_member(FactCategory, row[4]),
            confidence=row[5],
            salience=row[6],
            recorded_at=self.read_time(row[7]),
            valid_from=self.read_time(row[8]),
            trust=_member(TrustState, row[9]),
            confirmation_count=row[10],
            valid_to=self.read_optional_time(row[11]),
            superseded_at=self.read_optional_time(row[12]),
            supersedes=row[13],
            source_episode_ids=self.read_strings(row[18]),
            last_recalled_at=self.read_optional_time(row[14]),
            recall_count=row[15],
            slot=row[16],
            terms=self.read_strings(row[17]),
        )

    def emotion(self, row: Row) -> EmotionRecord:
        return EmotionRecord(
            id=row[2],
            scope=_scope(row),
            emotion=row[3],
            intensity=row[4],
            recorded_at=self.read_time(row[5]),
            trigger_topics=self.read_strings(row[6]),
            episode_id=row[7],
        )

    def tombstone(self, row: Row) -> Tombstone:
        return Tombstone(
            memory_id=row[2],
            kind=MemoryKind(row[3]),
            scope=_scope(row),
            deleted_at=self.read_time(row[4]),
            reason=row[5],
        )


_MEMBERS: dict[type[StrEnum], dict[str, StrEnum]] = {
    kind: {member.value: member for member in kind}
    for kind in (ScoringMethod, FactCategory, TrustState)
}
"""Each stored enumeration's members by value: calling the enumeration (``TrustState(v)``)
costs a microsecond of Python a row, and a reply decodes about 60 rows."""

Member = TypeVar("Member", bound=StrEnum)


def _member(kind: type[Member], value: str) -> Member:
    """The member of ``kind`` stored as ``value``; an unknown value raises as ``kind(value)``
    does."""
    member = _MEMBERS[kind].get(value)
    return kind(value) if member is None else cast(Member, member)


SCOPES_CACHED = 4096
"""Scopes decoded per process: a search returns many rows of one viewer, and a scope's
identifiers are checked once, not once a row."""


def _scope(row: Row) -> Scope:
    return _scope_of(row[0], row[1])


@remembers_text
@lru_cache(maxsize=SCOPES_CACHED)
def _scope_of(character_id: str, user_id: str | None) -> Scope:
    return Scope(character_id, user_id)

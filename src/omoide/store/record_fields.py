"""An episode's and a fact's stored fields in column order, and the scope check every fact
write makes; shared by both stores, which differ only in how they encode a value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from omoide.domain import Episode, Fact, Scope, check_identifier
from omoide.errors import InvalidInput

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from datetime import datetime


@dataclass(frozen=True, slots=True)
class FieldEncoding:
    """A backend's way to bind values its columns hold in its own form."""

    time: Callable[..., object]
    """``time(moment, *, name=...)``: an aware time, validated."""
    strings: Callable[..., object]
    """``strings(values, *, name=...)``: a list of strings, validated."""
    metadata: Callable[[Mapping[str, object]], object]

    def optional_time(self, moment: datetime | None, name: str) -> object:
        return None if moment is None else self.time(moment, name=name)


def episode_field_values(
    episode: Episode, scope_id: int, encoding: FieldEncoding
) -> tuple[object, ...]:
    """id, scope id, user message, bot message, recorded_at, importance, emotion, emotion
    intensity, topics, scoring, last_recalled_at, recall_count, archived_at, metadata,
    readings."""
    check_identifier(episode.id, name="episode id")
    if episode.readings is not None and not isinstance(episode.readings, str):
        raise InvalidInput(f"episode {episode.id!r} readings must be text or None")
    return (
        episode.id,
        scope_id,
        episode.user_message,
        episode.bot_message,
        encoding.time(episode.recorded_at, name="recorded_at"),
        episode.importance,
        episode.emotion,
        episode.emotion_intensity,
        encoding.strings(episode.topics, name="topics"),
        episode.scoring.value,
        encoding.optional_time(episode.last_recalled_at, "last_recalled_at"),
        episode.recall_count,
        encoding.optional_time(episode.archived_at, "archived_at"),
        encoding.metadata(episode.metadata),
        episode.readings,
    )


def fact_field_values(fact: Fact, encoding: FieldEncoding) -> tuple[object, ...]:
    """text, category, confidence, salience, recorded_at, valid_from, trust, confirmation
    count, valid_to, superseded_at, supersedes, last_recalled_at, recall_count, slot, terms."""
    if not isinstance(fact.text, str):
        raise InvalidInput(f"fact {fact.id!r} text must be a string")
    return (
        fact.text,
        fact.category.value,
        fact.confidence,
        fact.salience,
        encoding.time(fact.recorded_at, name="recorded_at"),
        encoding.time(fact.valid_from, name="valid_from"),
        fact.trust.value,
        fact.confirmation_count,
        encoding.optional_time(fact.valid_to, "valid_to"),
        encoding.optional_time(fact.superseded_at, "superseded_at"),
        fact.supersedes,
        encoding.optional_time(fact.last_recalled_at, "last_recalled_at"),
        fact.recall_count,
        fact.slot,
        encoding.strings(fact.terms, name="terms"),
    )


def check_fact_scope(fact: Fact, scope: Scope) -> None:
    if not isinstance(fact, Fact):
        raise InvalidInput("expected a Fact")
    if fact.scope != scope:
        raise InvalidInput(f"fact {fact.id!r} belongs to scope {fact.scope}, not {scope}")

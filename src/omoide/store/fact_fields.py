"""A fact's stored fields in column order, and the scope check every fact write makes;
shared by both stores, which differ only in how they encode a time."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from omoide.domain import Fact, Scope
from omoide.errors import InvalidInput

TimeEncoder = Callable[..., object]
"""``encode(moment, *, name=...)``: a backend's way to bind an aware time."""


def fact_field_values(fact: Fact, encode_time: TimeEncoder) -> tuple[object, ...]:
    """text, category, confidence, salience, recorded_at, valid_from, trust, confirmation
    count, valid_to, superseded_at, supersedes, last_recalled_at, recall_count."""
    if not isinstance(fact.text, str):
        raise InvalidInput(f"fact {fact.id!r} text must be a string")

    def optional(moment: datetime | None, name: str) -> object:
        return None if moment is None else encode_time(moment, name=name)

    return (
        fact.text,
        fact.category.value,
        fact.confidence,
        fact.salience,
        encode_time(fact.recorded_at, name="recorded_at"),
        encode_time(fact.valid_from, name="valid_from"),
        fact.trust.value,
        fact.confirmation_count,
        optional(fact.valid_to, "valid_to"),
        optional(fact.superseded_at, "superseded_at"),
        fact.supersedes,
        optional(fact.last_recalled_at, "last_recalled_at"),
        fact.recall_count,
    )


def check_fact_scope(fact: Fact, scope: Scope) -> None:
    if not isinstance(fact, Fact):
        raise InvalidInput("expected a Fact")
    if fact.scope != scope:
        raise InvalidInput(f"fact {fact.id!r} belongs to scope {fact.scope}, not {scope}")

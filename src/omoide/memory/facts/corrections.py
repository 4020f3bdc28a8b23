"""Corrections by a person: a fact stated directly, or a stored fact's fields or words
corrected (a new text supersedes the old version, which is kept, closed).

Facts found in exchanges are kept by :class:`~omoide.memory.facts.keeper.FactKeeper`;
both change facts only through the store's ``write_fact_changes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from omoide.domain import (
    Fact,
    FactCategory,
    Scope,
    TrustState,
    Vector,
    as_utc,
    check_unit_interval,
    new_id,
)
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts.batch import FactChanges
from omoide.memory.facts.updates import new_fact, typed_as_said
from omoide.store.base import FactSupersession, FactUpdate, FactWrite
from omoide.text_rules import check_text

MAX_FACT_CHARS = 500


class FactCorrecting(FactChanges, Protocol):
    """What a person's corrections read and write (a memory store)."""

    async def get_fact(self, scope: Scope, fact_id: str) -> Fact: ...


class FactCorrector:
    """Applies a person's corrections to one store."""

    def __init__(self, *, store: FactCorrecting, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder

    async def _embed_one(self, text: str) -> Vector:
        matrix = await self._embedder.embed_documents([text])
        vector: Vector = matrix[0]
        return vector

    async def add_manual(
        self,
        scope: Scope,
        *,
        text: str,
        category: FactCategory,
        confidence: float,
        salience: float,
        at: datetime,
        source_episode_ids: Sequence[str] = (),
        slot: str | None = None,
        terms: Sequence[str] = (),
    ) -> Fact:
        """A fact a person states directly: stored as confirmed, never merged away. Without a
        slot, the slot and terms are read from the text as the rules read a turn."""
        text = check_fact_text(text)
        if slot is None:
            slot, terms = typed_as_said(text)
        candidate = FactCandidate(
            text=text,
            category=category,
            confidence=check_unit_interval(confidence, name="confidence"),
            salience=check_unit_interval(salience, name="salience"),
            trust=TrustState.CONFIRMED,
            slot=slot,
            terms=tuple(terms),
        )
        fact = new_fact(scope, candidate, tuple(source_episode_ids), as_utc(at))
        added = FactWrite(fact, await self._embed_one(fact.text))
        await self._store.write_fact_changes(scope.character_id, [added])
        return fact

    async def correct(
        self,
        scope: Scope,
        fact_id: str,
        *,
        text: str | None = None,
        category: FactCategory | None = None,
        confidence: float | None = None,
        salience: float | None = None,
        at: datetime,
    ) -> Fact:
        """A person corrects a fact. A new text supersedes the old version (kept, closed)."""
        old = await self._store.get_fact(scope, fact_id)
        if not old.is_current:
            raise InvalidInput(f"fact {fact_id} is no longer current and cannot be corrected")
        updated = replace(
            old,
            category=category or old.category,
            confidence=old.confidence if confidence is None else confidence,
            salience=old.salience if salience is None else salience,
            trust=TrustState.CONFIRMED,
        )
        check_unit_interval(updated.confidence, name="confidence")
        check_unit_interval(updated.salience, name="salience")
        if text is None or text == old.text:
            await self._store.write_fact_changes(scope.character_id, [FactUpdate(updated)])
            return updated
        at = as_utc(at)
        slot, terms = typed_as_said(check_fact_text(text))
        new = replace(
            updated,
            id=new_id(),
            text=check_fact_text(text),
            slot=slot,
            terms=terms,
            recorded_at=at,
            valid_from=at,
            supersedes=old.id,
            confirmation_count=1,
        )
        vector = await self._embed_one(new.text)
        await self._store.write_fact_changes(
            scope.character_id,
            [
                FactUpdate(replace(old, trust=TrustState.CONTRADICTED)),
                FactSupersession(old.id, FactWrite(new, vector), at),
            ],
        )
        return await self._store.get_fact(scope, new.id)


def check_fact_text(text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("fact text must not be empty")
    if len(text) > MAX_FACT_CHARS:
        raise InvalidInput(f"fact text is longer than {MAX_FACT_CHARS} characters")
    return check_text(text, name="fact text").strip()

"""What each fact decision does to a fact's value, shared by the per-turn and batch paths."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from omoide.domain import Fact, Scope, TrustState, new_id
from omoide.memory.extraction import FactCandidate

CONFIRMATION_GAIN = 0.2
"""On confirmation, confidence moves this share of the way to 1.0 (diminishing returns)."""


def confirmed_confidence(confidence: float) -> float:
    return min(1.0, confidence + (1.0 - confidence) * CONFIRMATION_GAIN)


def new_fact(
    scope: Scope, candidate: FactCandidate, sources: tuple[str, ...], at: datetime
) -> Fact:
    """A fact stated now, citing ``sources``."""
    return Fact(
        id=new_id(),
        scope=scope,
        text=candidate.text,
        category=candidate.category,
        confidence=candidate.confidence,
        salience=candidate.salience,
        recorded_at=at,
        valid_from=at,
        trust=candidate.trust,
        source_episode_ids=sources,
        slot=candidate.slot,
        terms=candidate.terms,
    )


def confirmed_fact(fact: Fact, sources: tuple[str, ...]) -> Fact:
    """``fact`` said again: one more confirmation, more confidence, the new sources cited."""
    return replace(
        fact,
        confirmation_count=fact.confirmation_count + 1,
        confidence=confirmed_confidence(fact.confidence),
        trust=TrustState.CONFIRMED,
        source_episode_ids=tuple(dict.fromkeys([*fact.source_episode_ids, *sources])),
    )


def contradicted_fact(fact: Fact, at: datetime) -> Fact:
    """``fact`` no longer holds from ``at``."""
    return replace(fact, trust=TrustState.CONTRADICTED, valid_to=at)

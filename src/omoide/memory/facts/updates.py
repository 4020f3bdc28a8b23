"""What each fact decision does to a fact's value, shared by the per-turn and batch paths."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from omoide.domain import Fact, Scope, TrustState, new_id
from omoide.memory.extraction.decisions import is_rejected
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facts.digests import DeletedFactDigests, deleted_digests, stated, without_deleted
from omoide.store.base import FactFilter

_REJECTED = FactFilter(contradicted_only=True)

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


def ended_fact(fact: Fact, at: datetime) -> Fact:
    """``fact`` held until ``at`` and no longer does (a change the viewer told made it
    outdated); not contradicted, and replaced by no one fact."""
    return replace(fact, valid_to=at, superseded_at=at)


class FactListing(Protocol):
    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...


class RemovedFactReading(FactListing, DeletedFactDigests, Protocol):
    """What keeping decisions from bringing back a removed fact reads (a memory store)."""


async def rejected_facts(store: FactListing, scope: Scope) -> list[Fact]:
    """The facts of ``scope`` found no longer true (a person's correction, a viewer's
    contradiction): a viewer repeating one is not taken at their word again. One indexed
    read of the few such facts, compared in memory by :func:`without_rejected`."""
    return await store.list_facts(scope, where=_REJECTED)


def without_rejected(
    decisions: Sequence[FactDecision], rejected: Sequence[Fact]
) -> list[FactDecision]:
    """``decisions`` without the adds and updates that would bring back a rejected fact
    (and the ends that came with such an update)."""
    return [
        decision
        for decision in decisions
        if decision.candidate is None
        or decision.action not in ("add", "update", "end")
        or not any(is_rejected(decision.candidate, fact) for fact in rejected)
    ]


async def kept_decisions(
    store: RemovedFactReading, scope: Scope, decisions: Sequence[FactDecision]
) -> list[FactDecision]:
    """``decisions`` of a turn without the adds and updates that would bring back a fact
    a person rejected (:func:`rejected_facts`) or deleted
    (:mod:`omoide.memory.facts.digests`); no read when nothing would be stored."""
    if not stated(decisions):
        return list(decisions)
    kept = without_rejected(decisions, await rejected_facts(store, scope))
    deleted = await deleted_digests(store, scope, stated(kept))
    return without_deleted(kept, scope, deleted)


def typed_as_said(text: str) -> tuple[str | None, tuple[str, ...]]:
    """The slot and terms the rules read in ``text`` (a fact typed by a person), if any."""
    found = [candidate for candidate in find_facts(text) if candidate.slot]
    return (found[0].slot, found[0].terms) if found else (None, ())

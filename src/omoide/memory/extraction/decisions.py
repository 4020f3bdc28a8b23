"""Decisions on rule facts against the viewer's existing facts, without a model.

They use slots (``memory.facts.text``):

* the same text (normalised), or the same slot with the same value: ``confirm``;
* the same single or keyed slot with another value: ``update`` (a viewer who moved lives
  in one place; the game played now; a pet's name);
* an opposite slot for the same object (likes X when "dislike:X" is known, "quit:X" when
  "like:X" or the game played now is X): ``update``;
* a correction (:func:`~omoide.memory.extraction.rules.find_facts` marks at most one a
  message) updates the fact it is most like; a change replaces what it changed;
* otherwise ``add``. Merging near-duplicates by meaning is the caller's job.

A fact a person corrected or deleted is not added again (:func:`drop_rejected`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from omoide.domain import Fact
from omoide.memory.extraction.mentions import told_slot
from omoide.memory.extraction.outdating import outdated, told_with
from omoide.memory.extraction.replacing import corrected_fact, replaced_fact
from omoide.memory.extraction.switching import game_left
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facets import facet_of
from omoide.memory.facts.text import (
    KEYED_SLOTS,
    OPPOSITES,
    SINGLE_SLOTS,
    object_key,
    slot_parts,
    terms_key,
)


def _same_value(candidate: FactCandidate, fact: Fact) -> bool:
    return terms_key(candidate.terms) == terms_key(fact.terms)


def _slot_action(candidate: FactCandidate, fact: Fact) -> str | None:
    """ "confirm", "update" or None for one existing fact, by slot."""
    if candidate.slot is None or fact.slot is None:
        return None
    prefix, key = slot_parts(candidate.slot)
    if fact.slot == candidate.slot:
        valued = prefix in SINGLE_SLOTS or prefix in KEYED_SLOTS
        return "update" if valued and not _same_value(candidate, fact) else "confirm"
    old_prefix, old_key = slot_parts(fact.slot)
    if old_prefix in OPPOSITES.get(prefix, frozenset()) and old_key == key:
        return "update"
    if prefix == "quit" and old_prefix == "game_now":
        return "update" if key in {object_key(term) for term in fact.terms} else None
    return None


def _decide(candidate: FactCandidate, known: Sequence[Fact], taken: set[str]) -> FactDecision:
    open_facts = [fact for fact in known if fact.id not in taken]
    text_key = object_key(candidate.text)
    for fact in open_facts:
        if object_key(fact.text) == text_key:
            return FactDecision("confirm", candidate, fact.id)
    if candidate.corrects and open_facts:  # find_facts marks at most one per message
        corrected = corrected_fact(candidate, open_facts)
        return FactDecision("update", _correcting(candidate, corrected), corrected.id)
    replaced = replaced_fact(candidate, open_facts) or game_left(candidate, open_facts)
    if replaced is not None:
        return FactDecision("update", _as_sure_as(candidate, replaced), replaced.id)
    for action in ("confirm", "update"):
        for fact in open_facts:
            if _slot_action(candidate, fact) == action:
                return FactDecision(action, candidate, fact.id)
    return FactDecision("add", candidate, None)


def _correcting(candidate: FactCandidate, corrected: Fact) -> FactCandidate:
    """``candidate`` (a viewer's "I meant...") typed as the fact it corrects."""
    facet = facet_of(corrected)
    return replace(
        _as_sure_as(candidate, corrected),
        category=corrected.category,
        slot=told_slot(f"told_{facet.value}", candidate.text),
        corrects=False,
    )


def _as_sure_as(candidate: FactCandidate, replaced: Fact) -> FactCandidate:
    """A fact that replaces another (corrected, changed) is at least as sure and as salient
    as it was: the viewer took care to say what holds now."""
    return replace(
        candidate,
        confidence=max(candidate.confidence, replaced.confidence),
        salience=max(candidate.salience, replaced.salience),
    )


def decide(candidates: Sequence[FactCandidate], existing: Sequence[Fact]) -> list[FactDecision]:
    """One decision per candidate; no existing fact is the target of two decisions."""
    known = [fact for fact in existing if fact.is_current]
    taken: set[str] = set()
    decisions = []
    for candidate in candidates:
        decision = _decide(candidate, known, taken)
        if decision.target_fact_id is not None:
            taken.add(decision.target_fact_id)
        ended = outdated(decision, known, taken)
        if candidate.corrects and decision.action == "update":  # what the same words told
            ended += _same_words(decision, known, taken)
        taken.update(fact.id for fact in ended)
        decisions += [decision, *(FactDecision("end", candidate, f.id) for f in ended)]
    return decisions


def _same_words(decision: FactDecision, known: Sequence[Fact], taken: set[str]) -> list[Fact]:
    """The facts a correction ends besides its target: read from the corrected words,
    holding the corrected value (:func:`~omoide.memory.extraction.outdating.told_with`)."""
    corrected = next((fact for fact in known if fact.id == decision.target_fact_id), None)
    if corrected is None:
        return []
    siblings = told_with(corrected, known)
    return [fact for fact in known if fact.id in siblings and fact.id not in taken]


def is_rejected(candidate: FactCandidate, fact: Fact) -> bool:
    """Whether ``candidate`` says again what ``fact`` (rejected by a person) said."""
    if object_key(candidate.text) == object_key(fact.text):
        return True
    return (
        candidate.slot is not None
        and candidate.slot == fact.slot
        and bool(candidate.terms)
        and _same_value(candidate, fact)
    )


def drop_rejected(
    candidates: Sequence[FactCandidate], rejected: Sequence[Fact]
) -> list[FactCandidate]:
    """``candidates`` without those repeating a fact a person corrected or deleted."""
    return [c for c in candidates if not any(is_rejected(c, fact) for fact in rejected)]

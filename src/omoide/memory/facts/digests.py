"""What a deleted fact leaves so that its deletion sticks: keyed digests, never its words.

When a person deletes a fact, its tombstone keeps one or two digests of what it said
(:func:`fact_digests`): of its text in comparable form, and of its slot with its value when
it fills a slot. Each is a keyed BLAKE2b over that form, keyed per scope, so the same
sentence of two viewers digests differently and a digest cannot be read back as text. A
fact a viewer states later is not kept when one of its digests is among the deleted
facts' of its scope (:func:`without_deleted`), on the per-turn and the batch path alike:
the viewer repeating the sentence (or writing it with other case, width, spacing or
punctuation) does not bring it back, while another value of the same slot is learned.

The comparable forms are those a person's correction is compared with
(:func:`~omoide.memory.extraction.decisions.is_rejected`): ``object_key`` of the text, and the
slot with ``terms_key`` of the terms. Forgetting a viewer removes the digests with
everything else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Protocol

from omoide.domain import Scope
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facts.text import object_key, terms_key

_DIGEST_BYTES = 16
_PERSON = b"omoide-deleted"
"""BLAKE2b personalisation: these digests never equal another use of the same key."""


def fact_digests(
    scope: Scope, text: str, slot: str | None, terms: Sequence[str]
) -> tuple[str, ...]:
    """The digests (lowercase hex) of a fact of ``scope`` saying ``text`` (filling ``slot``
    with ``terms``): of the comparable text, and of the slot and value when it has both."""
    forms = []
    text_key = object_key(text)
    if text_key:
        forms.append(f"text\0{text_key}")
    value = terms_key(tuple(terms))
    if slot and value:
        forms.append(f"slot\0{slot}\0{value}")
    key = _scope_key(scope)
    return tuple(_digest(key, form) for form in forms)


def candidate_digests(scope: Scope, candidate: FactCandidate) -> tuple[str, ...]:
    return fact_digests(scope, candidate.text, candidate.slot, candidate.terms)


def stating_digests(scope: Scope, candidates: Iterable[FactCandidate]) -> list[str]:
    """The digests of every candidate, each once, in first-seen order."""
    found = (digest for c in candidates for digest in candidate_digests(scope, c))
    return list(dict.fromkeys(found))


class DeletedFactDigests(Protocol):
    """What checking for deleted facts reads (a memory store)."""

    async def deleted_fact_digests(self, scope: Scope, digests: Sequence[str]) -> set[str]:
        """Those of ``digests`` that a fact deleted in ``scope`` left."""
        ...


async def deleted_digests(
    store: DeletedFactDigests, scope: Scope, candidates: Iterable[FactCandidate]
) -> frozenset[str]:
    """Those of the candidates' digests that a fact deleted in ``scope`` left; no read
    when there is no candidate."""
    digests = stating_digests(scope, candidates)
    if not digests:
        return frozenset()
    return frozenset(await store.deleted_fact_digests(scope, digests))


def stated(decisions: Sequence[FactDecision]) -> list[FactCandidate]:
    """The candidates the decisions would store (adds and updates)."""
    return [
        decision.candidate
        for decision in decisions
        if decision.candidate is not None and decision.action in ("add", "update")
    ]


def without_deleted(
    decisions: Sequence[FactDecision], scope: Scope, deleted: frozenset[str]
) -> list[FactDecision]:
    """``decisions`` without the adds and updates that would bring back a deleted fact
    (and the ends that came with such an update)."""
    if not deleted:
        return list(decisions)
    return [
        decision
        for decision in decisions
        if decision.candidate is None
        or decision.action not in ("add", "update", "end")
        or deleted.isdisjoint(candidate_digests(scope, decision.candidate))
    ]


def _scope_key(scope: Scope) -> bytes:
    identity = f"{scope.character_id}\0{scope.user_id or ''}".encode()
    return hashlib.blake2b(identity, digest_size=32, person=_PERSON).digest()


def _digest(key: bytes, form: str) -> str:
    hasher = hashlib.blake2b(digest_size=_DIGEST_BYTES, key=key, person=_PERSON)
    hasher.update(form.encode("utf-8"))
    return hasher.hexdigest()

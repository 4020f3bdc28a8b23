"""Keeping a batch's facts with one store read and one store write.

With rule extraction every candidate of a batch is known before anything is searched, so
the write path reads the current facts (and their vectors) of the batch's viewers at once
(the store's ``current_facts``), decides turn by turn in memory —
a later turn of a viewer sees what an earlier one changed — and writes every change in one
transaction (the store's ``write_fact_changes``), where the per-turn
path searches and writes several times per turn.

The decisions are the per-turn path's (:class:`~omoide.memory.facts.FactKeeper`): rules
decide against the viewer's facts, an added fact whose vector is at least as similar to a
current fact of its category as the duplicate threshold confirms that fact instead. The
one difference is what rules compare against: every current fact of the viewer here, the
twenty nearest there (the same set while a viewer has fewer than ten).

Neither path brings back what a person corrected or deleted: before deciding, the batch
reads, once per viewer, the facts found no longer true and which of its candidates'
digests deleted facts left (:mod:`omoide.memory.facts.digests`).

A viewer with more than ``limit`` current facts is left to the per-turn path, and so is the
whole batch when the read or the write fails (a concurrent correction may have changed a
fact in between: nothing of the batch was written, and the per-turn path re-reads).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

import numpy as np

from omoide.domain import Episode, Fact, FactCategory, Scope, Vector
from omoide.errors import OmoideError
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facts.digests import deleted_digests, without_deleted
from omoide.memory.facts.text import typed_apart
from omoide.memory.facts.updates import (
    RemovedFactReading,
    confirmed_fact,
    contradicted_fact,
    ended_fact,
    new_fact,
    rejected_facts,
    without_rejected,
)
from omoide.memory.turns import FactChange
from omoide.metrics import Metrics
from omoide.store.base import (
    CurrentFacts,
    FactChangeWrite,
    FactSupersession,
    FactUpdate,
    FactWrite,
)

logger = logging.getLogger(__name__)

DEFAULT_BATCH_LIMIT = 256


class FactChanges(Protocol):
    """How facts change: one ordered, all-or-nothing write per character."""

    async def write_fact_changes(
        self, character_id: str, changes: Sequence[FactChangeWrite]
    ) -> None:
        """The one way facts change: apply changes to the facts of one character's
        scopes, in order, in one transaction: all or none. A :class:`FactWrite` adds a fact
        (its sources must be episodes of its scope), a :class:`FactUpdate` replaces a stored
        fact's fields (same id and text; NotFound outside its scope), a
        :class:`FactSupersession` closes the old fact (valid_to, superseded_at; Conflict if
        already superseded) and adds the replacement linked to it; each change's scope is
        its fact's, and a later change sees the earlier ones."""
        ...


class BatchFactStore(FactChanges, RemovedFactReading, Protocol):
    """What keeping a batch's facts reads and writes (a memory store)."""

    async def current_facts(
        self, scopes: Sequence[Scope], *, limit: int
    ) -> dict[Scope, CurrentFacts | None]:
        """Each scope's current facts with their vectors, read together (one transaction);
        ``None`` for a scope holding more than ``limit`` current facts. A scope never
        written maps to no facts. Facts come oldest first (recorded_at, then id)."""
        ...


"""Viewers with more current facts than this are kept turn by turn (by searches)."""


@dataclass(frozen=True, slots=True)
class BatchTurn:
    """One stored turn whose facts rules found: its episode, candidates and their vectors."""

    episode: Episode
    candidates: tuple[FactCandidate, ...]
    vectors: Mapping[str, Vector]
    rejected: tuple[Fact, ...] = ()
    """The viewer's facts found no longer true (read by :func:`keep_batch`)."""
    deleted: frozenset[str] = frozenset()
    """Digests of facts a person deleted that this turn's candidates match (read likewise)."""


@dataclass(slots=True)
class _ViewerFacts:
    """One viewer's current facts (oldest first) and their vectors while a batch is decided."""

    facts: dict[str, Fact]
    vectors: dict[str, Vector]

    @classmethod
    def of(cls, current: CurrentFacts) -> _ViewerFacts:
        facts = {fact.id: fact for fact in current.facts}
        vectors = {fact.id: current.vectors[row] for row, fact in enumerate(current.facts)}
        return cls(facts, vectors)

    def categories(self) -> set[FactCategory]:
        return {fact.category for fact in self.facts.values()}

    def nearest(self, category: FactCategory, vector: Vector) -> tuple[Fact, float] | None:
        """The most similar current fact of ``category`` (cosine; ties: smallest id)."""
        same = sorted(fact.id for fact in self.facts.values() if fact.category is category)
        if not same:
            return None
        matrix = np.stack([self.vectors[fact_id] for fact_id in same]).astype(np.float64)
        query = np.asarray(vector, dtype=np.float64)
        norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query))
        similarity = (matrix @ query) / np.where(norms == 0.0, 1.0, norms)
        best = int(np.argmax(similarity))
        return self.facts[same[best]], float(min(1.0, similarity[best]))

    def put(self, fact: Fact, vector: Vector | None = None) -> None:
        self.facts[fact.id] = fact
        if vector is not None:
            self.vectors[fact.id] = vector

    def drop(self, fact_id: str) -> None:
        self.facts.pop(fact_id, None)
        self.vectors.pop(fact_id, None)


@dataclass(slots=True)
class BatchDecisions:
    """What a batch's turns change: per turn (in order), and as store changes (in order)."""

    changes: list[list[FactChange]] = field(default_factory=list)
    writes: list[FactChangeWrite] = field(default_factory=list)


async def keep_batch(
    store: BatchFactStore,
    character_id: str,
    turns: Sequence[BatchTurn],
    *,
    limit: int,
    duplicate_threshold: float,
    metrics: Metrics,
) -> list[list[FactChange] | None]:
    """Keep the facts of ``turns`` (one character's, in order) with one read and one write;
    ``None`` for each turn left to the per-turn path."""
    scopes = list(dict.fromkeys(turn.episode.scope for turn in turns))
    try:
        current = await store.current_facts(scopes, limit=limit) if scopes else {}
        fitting = {scope: facts for scope, facts in current.items() if facts is not None}
        mine = await _with_removed(store, [t for t in turns if t.episode.scope in fitting])
        decided = decide_batch(mine, fitting, duplicate_threshold=duplicate_threshold)
        await store.write_fact_changes(character_id, decided.writes)
    except OmoideError as exc:
        logger.info("facts of %d turns left to the per-turn path: %s", len(turns), exc)
        return [None] * len(turns)
    changes = iter(decided.changes)
    for turn_changes in decided.changes:
        for change in turn_changes:
            metrics.increment(f"facts.{change.action}")
    return [next(changes) if turn.episode.scope in fitting else None for turn in turns]


async def _with_removed(store: RemovedFactReading, turns: Sequence[BatchTurn]) -> list[BatchTurn]:
    """``turns`` with what a person removed that they may bring back, read once per
    viewer with candidates: the facts found no longer true, and the digests deleted facts
    left that the candidates match (as the per-turn path reads them)."""
    candidates: dict[Scope, list[FactCandidate]] = {}
    for turn in turns:
        if turn.candidates:
            candidates.setdefault(turn.episode.scope, []).extend(turn.candidates)
    rejected = {scope: tuple(await rejected_facts(store, scope)) for scope in candidates}
    deleted = {
        scope: await deleted_digests(store, scope, found) for scope, found in candidates.items()
    }
    return [
        replace(turn, rejected=rejected[scope], deleted=deleted[scope])
        if (scope := turn.episode.scope) in candidates
        else turn
        for turn in turns
    ]


def decide_batch(
    turns: Sequence[BatchTurn],
    current: Mapping[Scope, CurrentFacts],
    *,
    duplicate_threshold: float,
) -> BatchDecisions:
    """Decide every turn in order against its viewer's facts as earlier turns left them."""
    viewers = {scope: _ViewerFacts.of(facts) for scope, facts in current.items()}
    result = BatchDecisions()
    for turn in turns:
        viewer = viewers[turn.episode.scope]
        decided = decide(turn.candidates, list(viewer.facts.values()))
        decisions = without_deleted(
            without_rejected(decided, turn.rejected), turn.episode.scope, turn.deleted
        )
        turn_changes = _Turn(turn, viewer, duplicate_threshold, result.writes).apply(decisions)
        result.changes.append(turn_changes)
    return result


@dataclass(slots=True)
class _Turn:
    turn: BatchTurn
    viewer: _ViewerFacts
    duplicate_threshold: float
    writes: list[FactChangeWrite]

    def apply(self, decisions: Sequence[FactDecision]) -> list[FactChange]:
        empty = set(FactCategory) - self.viewer.categories()
        changes = []
        for decision in decisions:
            change = self._apply(decision, frozenset(empty))
            if decision.candidate is not None:
                empty.discard(decision.candidate.category)
            if change is not None:
                changes.append(change)
        return changes

    def _apply(self, decision: FactDecision, empty: frozenset[FactCategory]) -> FactChange | None:
        candidate = decision.candidate
        if decision.action == "add" and candidate is not None:
            vector = self.turn.vectors[candidate.text]
            duplicate = None if candidate.category in empty else self._duplicate(candidate, vector)
            return self._confirm(duplicate) if duplicate else self._add(candidate, vector)
        target = self.viewer.facts.get(decision.target_fact_id or "")
        if target is None:
            return None
        if decision.action == "confirm":
            return self._confirm(target)
        if decision.action == "update" and candidate is not None:
            return self._supersede(target, candidate, self.turn.vectors[candidate.text])
        if decision.action == "delete":
            return self._contradict(target)
        if decision.action == "end":
            return self._end(target)
        return None

    def _duplicate(self, candidate: FactCandidate, vector: Vector) -> Fact | None:
        nearest = self.viewer.nearest(candidate.category, vector)
        if nearest is None or nearest[1] < self.duplicate_threshold:
            return None
        return None if typed_apart(candidate.slot, nearest[0].slot) else nearest[0]

    @property
    def _at(self) -> datetime:
        return self.turn.episode.recorded_at

    @property
    def _sources(self) -> tuple[str, ...]:
        return (self.turn.episode.id,)

    def _add(self, candidate: FactCandidate, vector: Vector) -> FactChange:
        fact = new_fact(self.turn.episode.scope, candidate, self._sources, self._at)
        self.viewer.put(fact, vector)
        self.writes.append(FactWrite(fact, vector))
        return FactChange("add", fact.id, fact.text)

    def _confirm(self, fact: Fact) -> FactChange:
        confirmed = confirmed_fact(fact, self._sources)
        self.viewer.put(confirmed)
        self.writes.append(FactUpdate(confirmed))
        return FactChange("confirm", fact.id, fact.text)

    def _supersede(self, old: Fact, candidate: FactCandidate, vector: Vector) -> FactChange:
        new = new_fact(self.turn.episode.scope, candidate, self._sources, self._at)
        new = replace(new, supersedes=old.id)
        self.viewer.drop(old.id)
        self.viewer.put(new, vector)
        self.writes.append(FactSupersession(old.id, FactWrite(new, vector), self._at))
        return FactChange("update", new.id, new.text, replaced_fact_id=old.id)

    def _contradict(self, fact: Fact) -> FactChange:
        closed = contradicted_fact(fact, self._at)
        self.viewer.drop(fact.id)
        self.writes.append(FactUpdate(closed))
        return FactChange("delete", fact.id, fact.text)

    def _end(self, fact: Fact) -> FactChange:
        self.viewer.drop(fact.id)
        self.writes.append(FactUpdate(ended_fact(fact, self._at)))
        return FactChange("end", fact.id, fact.text)

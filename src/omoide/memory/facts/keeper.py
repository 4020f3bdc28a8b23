"""Keeps a viewer's facts current: add, confirm, supersede, contradict, with provenance.

Near-duplicates are merged by meaning: a new fact whose embedding is at least as similar
to an existing current fact of the same category as the embedder's calibrated duplicate
threshold confirms that fact instead of adding a second copy.

The texts of new facts are embedded in as few calls as possible: the write path finds
the candidates a rule extractor will propose before anything is searched
(:func:`foreseen_candidates`), embeds their texts a batch at a time and hands them in;
whatever is still missing once a turn's decisions are known (a language model's phrasing)
is embedded in one call for that turn.

Store searches are skipped only where their answer is already known. A vector search
that returns fewer hits than its limit has returned every current fact of the viewer
(both backends filter inside the search; on servers, while Qdrant is in step with
PostgreSQL, as every search assumes), so the keyword search, whose hits can only be among
them, adds nothing and is not run; and a category with no current fact then has no
near-duplicate to find until a fact of it is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from omoide.domain import (
    Episode,
    Fact,
    FactCategory,
    Scope,
    Vector,
)
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.rules import RuleFactExtractor, find_facts
from omoide.memory.extraction.values import FactCandidate, FactDecision, FactExtractor
from omoide.memory.facts.batch import DEFAULT_BATCH_LIMIT, BatchFactStore, BatchTurn, keep_batch
from omoide.memory.facts.text import typed_apart
from omoide.memory.facts.updates import (
    confirmed_fact,
    contradicted_fact,
    ended_fact,
    kept_decisions,
    new_fact,
)
from omoide.memory.turns import FactChange
from omoide.metrics import Metrics
from omoide.store.base import FactFilter, FactSupersession, FactUpdate, FactWrite, Hit


def foreseen_candidates(
    extractor: FactExtractor, user_message: str
) -> tuple[FactCandidate, ...] | None:
    """The facts ``extractor`` will propose for this message, known before any search;
    ``None`` when they cannot be known in advance (a language model's phrasing).

    Rules find candidates in the message alone and only then compare them with what is
    known (:func:`~omoide.memory.extraction.decide`), so their texts can be embedded with
    the batch's episodes and the rules need not run again.
    """
    if isinstance(extractor, RuleFactExtractor):
        return tuple(find_facts(user_message))
    return None


@dataclass(frozen=True, slots=True)
class RelatedFacts:
    """Current facts near an exchange, best first, and whether they are all of them."""

    facts: tuple[Fact, ...]
    complete: bool
    """Every current fact of the viewer is among ``facts``."""

    def empty_categories(self) -> set[FactCategory]:
        """Categories with no current fact (none known unless ``complete``)."""
        if not self.complete:
            return set()
        return set(FactCategory) - {fact.category for fact in self.facts}


class FactWriting(BatchFactStore, Protocol):
    """What fact keeping reads and writes (a memory store); facts change only through
    :meth:`~BatchFactStore.write_fact_changes`."""

    async def get_fact(self, scope: Scope, fact_id: str) -> Fact: ...

    async def search_fact_vectors(
        self, scope: Scope, vector: Vector, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]: ...

    async def search_fact_keywords(
        self, scope: Scope, text: str, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]: ...


class FactKeeper:
    """Applies extraction decisions and manual corrections to one store."""

    def __init__(
        self,
        *,
        store: FactWriting,
        embedder: Embedder,
        duplicate_threshold: float,
        metrics: Metrics,
        related_limit: int = 10,
        batch_limit: int = DEFAULT_BATCH_LIMIT,
    ) -> None:
        if batch_limit < 0:
            raise InvalidInput(f"batch_limit must be at least 0 (got {batch_limit})")
        self._batch_limit = batch_limit
        self._store = store
        self._embedder = embedder
        self._duplicate_threshold = duplicate_threshold
        self._metrics = metrics
        self._related_limit = related_limit

    async def related_facts(self, scope: Scope, vector: Vector, text: str) -> list[Fact]:
        """Current facts near an exchange, by meaning and by words, best first."""
        return list((await self._related(scope, vector, text)).facts)

    async def _related(self, scope: Scope, vector: Vector, text: str) -> RelatedFacts:
        by_vector = await self._store.search_fact_vectors(
            scope, vector, where=FactFilter(), limit=self._related_limit
        )
        if len(by_vector) < self._related_limit:  # every current fact: words add none
            return RelatedFacts(tuple(hit.item for hit in by_vector), complete=True)
        by_words = await self._store.search_fact_keywords(
            scope, text, where=FactFilter(), limit=self._related_limit
        )
        seen: dict[str, Fact] = {}
        for hit in [*by_vector, *by_words]:
            seen.setdefault(hit.item.id, hit.item)
        return RelatedFacts(tuple(seen.values()), complete=False)

    async def learn_from_batch(
        self, character_id: str, turns: Sequence[BatchTurn]
    ) -> list[list[FactChange] | None]:
        """Keep the facts rules found in ``turns`` with one read and one write
        (:mod:`omoide.memory.facts.batch`); ``None`` for a turn to keep with
        :meth:`learn_from` (a viewer with more than ``batch_limit`` current facts, a failed
        read or write, or ``batch_limit`` 0)."""
        if self._batch_limit == 0:
            return [None] * len(turns)
        return await keep_batch(
            self._store,
            character_id,
            turns,
            limit=self._batch_limit,
            duplicate_threshold=self._duplicate_threshold,
            metrics=self._metrics,
        )

    async def learn_from(
        self,
        episode: Episode,
        *,
        user_name: str | None,
        episode_vector: Vector,
        extractor: FactExtractor,
        foreseen: Sequence[FactCandidate] | None = None,
        text_vectors: Mapping[str, Vector] | None = None,
    ) -> list[FactChange]:
        """Apply what ``extractor`` finds in ``episode``.

        ``foreseen``: the candidates :func:`foreseen_candidates` gave for this message
        (rules then only decide); ``text_vectors``: fact texts embedded beforehand (any
        other text a decision stores is embedded here, in one call for the turn).
        """
        if foreseen is None and not extractor.may_hold_facts(episode.user_message):
            return []
        if foreseen is not None and not foreseen:
            return []
        related = await self._related(episode.scope, episode_vector, episode.user_message)
        existing = related.facts
        if foreseen is not None:
            decisions = decide(foreseen, existing)
        else:
            decisions = await extractor.extract(
                episode.user_message, episode.bot_message, user_name=user_name, existing=existing
            )
        decisions = await kept_decisions(self._store, episode.scope, decisions)
        vectors = await self._vectors_for(decisions, text_vectors or {})
        return await self._apply_all(episode, decisions, vectors, related)

    async def _apply_all(
        self,
        episode: Episode,
        decisions: Sequence[FactDecision],
        vectors: Mapping[str, Vector],
        related: RelatedFacts,
    ) -> list[FactChange]:
        """Apply decisions in order; a target still as it was read is not read again, and
        no duplicate is searched for in a category known to have no current fact."""
        unchanged = {fact.id: fact for fact in related.facts}
        empty = related.empty_categories()
        changes = []
        for decision in decisions:
            known = _Known(unchanged, frozenset(empty))
            change = await self._apply(episode, decision, vectors, known)
            if decision.candidate is not None:
                empty.discard(decision.candidate.category)
            if change is None:
                continue
            changes.append(change)
            self._metrics.increment(f"facts.{change.action}")
            for fact_id in (change.fact_id, change.replaced_fact_id):
                unchanged.pop(fact_id or "", None)
        return changes

    async def _vectors_for(
        self, decisions: Sequence[FactDecision], known: Mapping[str, Vector]
    ) -> Mapping[str, Vector]:
        """Vectors of every text the decisions may store: ``known`` plus one embed call."""
        texts = [
            decision.candidate.text
            for decision in decisions
            if decision.action in ("add", "update") and decision.candidate is not None
        ]
        missing = list(dict.fromkeys(text for text in texts if text not in known))
        if not missing:
            return known
        matrix = await self._embedder.embed_documents(missing)
        return {**known, **{text: matrix[row] for row, text in enumerate(missing)}}

    async def _apply(
        self,
        episode: Episode,
        decision: FactDecision,
        vectors: Mapping[str, Vector],
        known: _Known,
    ) -> FactChange | None:
        scope, at, sources = episode.scope, episode.recorded_at, (episode.id,)
        candidate = decision.candidate
        if decision.action == "add" and candidate is not None:
            vector = vectors[candidate.text]
            if candidate.category in known.empty_categories:
                return await self._add_new(scope, candidate, vector, sources, at)
            return await self._add(scope, candidate, vector, sources, at)
        if decision.target_fact_id is None:
            return None
        target = known.unchanged.get(decision.target_fact_id)
        if target is None:
            target = await self._store.get_fact(scope, decision.target_fact_id)
        if decision.action == "confirm":
            return await self._confirm(scope, target, sources)
        if decision.action == "update" and candidate is not None:
            vector = vectors[candidate.text]
            return await self._supersede(scope, target, candidate, vector, sources, at)
        if decision.action == "delete":
            return await self._contradict(scope, target, at)
        if decision.action == "end":
            return await self._end(scope, target, at)
        return None

    async def _add(
        self,
        scope: Scope,
        candidate: FactCandidate,
        vector: Vector,
        sources: tuple[str, ...],
        at: datetime,
    ) -> FactChange:
        duplicate = await self._duplicate_of(scope, candidate, vector)
        if duplicate is not None:
            return await self._confirm(scope, duplicate, sources)
        return await self._add_new(scope, candidate, vector, sources, at)

    async def _add_new(
        self,
        scope: Scope,
        candidate: FactCandidate,
        vector: Vector,
        sources: tuple[str, ...],
        at: datetime,
    ) -> FactChange:
        fact = new_fact(scope, candidate, sources, at)
        await self._store.write_fact_changes(scope.character_id, [FactWrite(fact, vector)])
        return FactChange("add", fact.id, fact.text)

    async def _duplicate_of(
        self, scope: Scope, candidate: FactCandidate, vector: Vector
    ) -> Fact | None:
        """The current fact ``candidate`` repeats by meaning (its category's nearest, as
        near as the duplicate threshold, not typed as another thing), if any."""
        hits = await self._store.search_fact_vectors(
            scope, vector, where=FactFilter(categories=frozenset({candidate.category})), limit=1
        )
        if not hits or hits[0].score < self._duplicate_threshold:
            return None
        return None if typed_apart(candidate.slot, hits[0].item.slot) else hits[0].item

    async def _confirm(self, scope: Scope, fact: Fact, sources: tuple[str, ...]) -> FactChange:
        confirmed = confirmed_fact(fact, sources)
        await self._store.write_fact_changes(scope.character_id, [FactUpdate(confirmed)])
        return FactChange("confirm", fact.id, fact.text)

    async def _supersede(
        self,
        scope: Scope,
        old: Fact,
        candidate: FactCandidate,
        vector: Vector,
        sources: tuple[str, ...],
        at: datetime,
    ) -> FactChange:
        new = replace(new_fact(scope, candidate, sources, at), supersedes=old.id)
        supersession = FactSupersession(old.id, FactWrite(new, vector), at)
        await self._store.write_fact_changes(scope.character_id, [supersession])
        return FactChange("update", new.id, new.text, replaced_fact_id=old.id)

    async def _contradict(self, scope: Scope, fact: Fact, at: datetime) -> FactChange:
        contradicted = FactUpdate(contradicted_fact(fact, at))
        await self._store.write_fact_changes(scope.character_id, [contradicted])
        return FactChange("delete", fact.id, fact.text)

    async def _end(self, scope: Scope, fact: Fact, at: datetime) -> FactChange:
        await self._store.write_fact_changes(scope.character_id, [FactUpdate(ended_fact(fact, at))])
        return FactChange("end", fact.id, fact.text)


@dataclass(frozen=True, slots=True)
class _Known:
    """What a turn's fact keeping knows without asking the store again."""

    unchanged: Mapping[str, Fact]
    """Facts still as they were read, by id."""
    empty_categories: frozenset[FactCategory]
    """Categories with no current fact."""

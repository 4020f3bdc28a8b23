"""The write path: score, embed and persist exchanges, then keep the viewer's facts current.

Turns of one batch are written in one transaction. Fact extraction runs after the turns
are safe on disk, so a failing extractor can never lose an exchange.

A batch embeds its episodes in one call (each distinct text once) and the facts rules
will propose for them in a few more, which run while the episodes are written and the
facts of earlier turns are kept (:mod:`omoide.memory.facts.vectors`). Through
:meth:`Rememberer.remember_batches` the next batch's fact texts are embedded with its
episodes, while the current batch is written, so its commit has nothing left to embed.
Fact keeping runs turn by turn in batch order, so a later turn of a viewer sees the facts
of an earlier one.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import anyio

from omoide.character.topics import TopicTracker
from omoide.clock import Clock
from omoide.domain import (
    Episode,
    TurnInput,
    Vector,
)
from omoide.embed.base import Embedder
from omoide.errors import OmoideError
from omoide.memory.config import WriteConfig
from omoide.memory.disclosures import DisclosureReader
from omoide.memory.extraction.lasting import rated_candidates
from omoide.memory.extraction.sentence_models import SentenceModel
from omoide.memory.extraction.values import FactCandidate, FactExtractor
from omoide.memory.facts.batch import BatchTurn
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.facts.vectors import FactTextPipeline, FactVectorCache
from omoide.memory.importance import ImportanceScorer
from omoide.memory.planning import PlannedTurn, TurnPlanner, turn_writes
from omoide.memory.turns import FactChange, StoredTurn
from omoide.metrics import Metrics
from omoide.store.base import TurnWrite

logger = logging.getLogger(__name__)


class TurnWriting(Protocol):
    """Where remembered turns are written (a memory store): one transaction per batch."""

    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None:
        """Persist turns of one character's viewers in one transaction (all or nothing)."""
        ...


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A batch scored and embedded, not yet written."""

    planned: tuple[PlannedTurn, ...]
    vectors: Mapping[str, Vector]


_Planning = tuple[PlannedTurn, ...] | OmoideError
"""A batch scored and checked, or why it could not be."""


class Rememberer:
    """Remembers exchanges for the viewers of characters."""

    def __init__(
        self,
        *,
        store: TurnWriting,
        embedder: Embedder,
        scorer: ImportanceScorer,
        extractor: FactExtractor,
        facts: FactKeeper,
        config: WriteConfig,
        clock: Clock,
        metrics: Metrics,
        topics: TopicTracker | None = None,
        disclosure_model: SentenceModel | None = None,
        lasting_model: SentenceModel | None = None,
    ) -> None:
        """``disclosure_model``: reads what the rules found no fact in; ``lasting_model``:
        rates how long the facts rules and that model found will matter (rule extraction
        only: a language model reads every message itself and judges what matters)."""
        self._lasting = lasting_model
        self._store = store
        self._embedder = embedder
        self._extractor = extractor
        self._facts = facts
        self._metrics = metrics
        self._fact_vectors = FactVectorCache()
        self._disclosures = (
            None
            if disclosure_model is None
            else DisclosureReader(
                model=disclosure_model,
                embedder=embedder,
                cache=self._fact_vectors,
                config=config,
                metrics=metrics,
            )
        )
        self._planner = TurnPlanner(
            scorer=scorer,
            extractor=extractor,
            config=config,
            clock=clock,
            topics=topics if topics is not None else TopicTracker(),
        )

    async def remember(self, character_id: str, turns: Sequence[TurnInput]) -> list[StoredTurn]:
        """Score, embed and store a batch of one character's turns in one transaction."""
        return await self._commit(character_id, await self._prepare(character_id, turns))

    async def remember_batches(
        self, character_id: str, batches: Sequence[Sequence[TurnInput]]
    ) -> list[list[StoredTurn]]:
        """:meth:`remember` each batch in order, one transaction each, the next batch scored
        and embedded while the current one is written and its facts kept.

        Writes and results are those of calling :meth:`remember` batch after batch. On an
        error the batches before the failing one stay stored, as in such a loop; turns
        with a ``turn_id`` can be recognised when the rest is retried.
        """
        results: list[list[StoredTurn]] = []
        if not batches:
            return results
        prepared = await self._prepare(character_id, batches[0], fact_texts=True)
        upcoming = await self._planning(character_id, batches[1]) if len(batches) > 1 else ()
        for index in range(1, len(batches)):
            following = batches[index + 1] if index + 1 < len(batches) else None
            stored, prepared, upcoming = await self._commit_while_preparing(
                character_id, prepared, upcoming, following
            )
            results.append(stored)
        results.append(await self._commit(character_id, prepared))
        return results

    async def _commit_while_preparing(
        self,
        character_id: str,
        current: _Prepared,
        upcoming: _Planning,
        following: Sequence[TurnInput] | None,
    ) -> tuple[list[StoredTurn], _Prepared, _Planning]:
        """Commit ``current`` and then plan ``following`` while ``upcoming`` is embedded (the
        model never waits for planning); errors surface in commit order."""
        embedded: list[_Prepared] = []
        later: list[OmoideError] = []

        async def embed() -> None:
            try:
                if isinstance(upcoming, OmoideError):
                    raise upcoming
                embedded.append(await self._embed_planned(upcoming, fact_texts=True))
            except OmoideError as exc:
                later.append(exc)

        failure: OmoideError | None = None
        planned: _Planning = ()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(embed)
            try:
                stored = await self._commit(character_id, current)
            except OmoideError as exc:
                failure = exc
                tasks.cancel_scope.cancel()
            else:
                if following is not None:
                    planned = await self._planning(character_id, following)
        if failure is not None:
            raise failure
        if later:
            raise later[0]
        return stored, embedded[0], planned

    async def _planning(self, character_id: str, turns: Sequence[TurnInput]) -> _Planning:
        """The batch planned, or its error, kept to be raised when the batch's turn comes."""
        try:
            return await self._planner.plan_batch(character_id, turns)
        except OmoideError as exc:
            return exc

    async def _prepare(
        self, character_id: str, turns: Sequence[TurnInput], *, fact_texts: bool = False
    ) -> _Prepared:
        """Check, score and embed a batch's episodes (with ``fact_texts``, also the texts of
        the facts rules will propose, into the fact-vector cache); nothing is written."""
        planned = await self._planner.plan_batch(character_id, turns)
        return await self._embed_planned(planned, fact_texts=fact_texts)

    async def _embed_planned(
        self, planned: tuple[PlannedTurn, ...], *, fact_texts: bool
    ) -> _Prepared:
        if self._disclosures is not None:
            planned = await self._disclosures.read_planned(planned)
        vectors = await self._embed([plan.episode for plan in planned if plan.episode])
        if fact_texts:
            await self._embed_fact_texts(planned)
        return _Prepared(planned, vectors)

    async def _embed_fact_texts(self, planned: Sequence[PlannedTurn]) -> None:
        """Embed the batch's foreseen fact texts that are not cached yet, in one call.

        A failure is only logged: the commit's :class:`FactTextPipeline` embeds what is
        missing again and fails the fact keeping of the turns that need it, never the turns.
        """
        texts = list(dict.fromkeys(text for plan in planned for text in plan.fact_texts))
        cached = self._fact_vectors.found(texts)
        missing = [text for text in texts if text not in cached]
        if not missing:
            return
        try:
            matrix = await self._embedder.embed_documents(missing)
        except OmoideError as exc:
            logger.info("fact texts not embedded ahead of their batch: %s", exc)
            return
        self._fact_vectors.keep({text: matrix[row] for row, text in enumerate(missing)})

    async def _commit(self, character_id: str, prepared: _Prepared) -> list[StoredTurn]:
        """Write a prepared batch in one transaction, then keep its viewers' facts."""
        planned, vectors = prepared.planned, prepared.vectors
        writes = turn_writes(planned, vectors)
        pipeline = FactTextPipeline(
            self._embedder, [plan.fact_texts for plan in planned], cache=self._fact_vectors
        )
        if not pipeline.calls:  # every fact text known already: nothing to overlap
            await self._store.write_turns(character_id, writes)
            return await self._after_write(character_id, planned, vectors, pipeline)
        failure: OmoideError | None = None
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(pipeline.run)
            try:
                await self._store.write_turns(character_id, writes)
            except OmoideError as exc:
                failure = exc
                tasks.cancel_scope.cancel()
            else:
                stored = await self._after_write(character_id, planned, vectors, pipeline)
        if failure is not None:
            raise failure
        return stored

    async def _embed(self, episodes: Sequence[Episode]) -> dict[str, Vector]:
        """Vectors by episode text; a text said twice in a batch is embedded once."""
        texts = list(dict.fromkeys(episode.searchable_text for episode in episodes))
        if not texts:
            return {}
        matrix = await self._embedder.embed_documents(texts)
        return {text: matrix[row] for row, text in enumerate(texts)}

    async def _after_write(
        self,
        character_id: str,
        planned: Sequence[PlannedTurn],
        vectors: Mapping[str, Vector],
        pipeline: FactTextPipeline,
    ) -> list[StoredTurn]:
        self._metrics.increment("turns.received", len(planned))
        self._metrics.increment("turns.stored", sum(1 for plan in planned if plan.episode))
        kept = await self._keep_batch_facts(character_id, planned, pipeline)
        return [
            await self._keep_facts(plan, vectors, pipeline, index, kept.get(index))
            for index, plan in enumerate(planned)
        ]

    async def _keep_batch_facts(
        self, character_id: str, planned: Sequence[PlannedTurn], pipeline: FactTextPipeline
    ) -> dict[int, list[FactChange]]:
        """The changes of the turns whose foreseen facts were kept together, by turn index."""
        indexes, turns = [], []
        for index, plan in enumerate(planned):
            if plan.episode is None or not plan.extracts_facts or not plan.foreseen:
                continue
            try:
                text_vectors = await pipeline.vectors_for(index)
            except OmoideError:  # reported by the per-turn path
                continue
            indexes.append(index)
            foreseen = self._rated(plan.foreseen, text_vectors)
            turns.append(BatchTurn(plan.episode, foreseen, text_vectors))
        if not turns:
            return {}
        results = await self._facts.learn_from_batch(character_id, turns)
        return {
            index: changes
            for index, changes in zip(indexes, results, strict=True)
            if changes is not None
        }

    def _rated(
        self, foreseen: tuple[FactCandidate, ...], vectors: Mapping[str, Vector]
    ) -> tuple[FactCandidate, ...]:
        """``foreseen`` with salience rated by the lasting model (when there is one)."""
        if self._lasting is None or not foreseen:
            return foreseen
        return rated_candidates(self._lasting, foreseen, vectors)

    async def _keep_facts(
        self,
        plan: PlannedTurn,
        vectors: Mapping[str, Vector],
        pipeline: FactTextPipeline,
        index: int,
        kept: list[FactChange] | None = None,
    ) -> StoredTurn:
        stored = StoredTurn(
            scope=plan.turn.scope,
            episode_id=plan.episode.id if plan.episode else None,
            importance=plan.importance.score,
            stored=plan.episode is not None,
            scoring=plan.importance.method,
            signals=plan.importance.signals,
            recorded_at=plan.recorded_at,
        )
        if kept is not None:
            return replace(stored, fact_changes=tuple(kept))
        if plan.episode is None or not plan.extracts_facts or plan.foreseen == ():
            return stored
        try:
            text_vectors = await pipeline.vectors_for(index)
            changes = await self._facts.learn_from(
                plan.episode,
                user_name=plan.turn.user_name,
                episode_vector=vectors[plan.episode.searchable_text],
                extractor=self._extractor,
                foreseen=(
                    None if plan.foreseen is None else self._rated(plan.foreseen, text_vectors)
                ),
                text_vectors=text_vectors,
            )
        except OmoideError as exc:
            self._metrics.increment("extraction.failed_turns")
            logger.warning(
                "fact extraction failed for episode %s in %s: %s",
                plan.episode.id,
                stored.scope,
                exc,
            )
            return replace(stored, extraction_failed=True)
        return replace(stored, fact_changes=tuple(changes))

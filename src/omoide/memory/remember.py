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
from datetime import datetime
from typing import Protocol

import anyio

from omoide.character.topics import TopicTracker
from omoide.clock import Clock
from omoide.domain import (
    EmotionRecord,
    Episode,
    ScoringMethod,
    TurnInput,
    TurnState,
    Vector,
    check_identifier,
    check_not_future,
    new_id,
)
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput, OmoideError
from omoide.memory.config import WriteConfig
from omoide.memory.disclosures import DisclosureReader
from omoide.memory.extraction.disclosure import DisclosureModel, said_candidate
from omoide.memory.extraction.values import FactCandidate, FactExtractor
from omoide.memory.facts.batch import BatchTurn
from omoide.memory.facts.keeper import FactKeeper, foreseen_candidates
from omoide.memory.facts.vectors import FactTextPipeline, FactVectorCache
from omoide.memory.importance import ImportanceResult, ImportanceScorer, with_disclosure
from omoide.memory.turn_reading import felt_intensity, read_turn
from omoide.memory.turns import FactChange, StoredTurn
from omoide.metrics import Metrics
from omoide.store.base import TurnWrite

logger = logging.getLogger(__name__)


class TurnWriting(Protocol):
    """Where remembered turns are written (a memory store): one transaction per batch."""

    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None: ...


@dataclass(frozen=True, slots=True)
class _Planned:
    turn: TurnInput
    state: TurnState
    """The turn's emotion and topics, read from its text where the caller gave none."""
    recorded_at: datetime
    importance: ImportanceResult
    episode: Episode | None
    extracts_facts: bool
    foreseen: tuple[FactCandidate, ...] | None
    """Candidates known before any search (rules); None when they are not (a model)."""

    @property
    def fact_texts(self) -> list[str]:
        return [candidate.text for candidate in self.foreseen or ()]


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A batch scored and embedded, not yet written."""

    planned: tuple[_Planned, ...]
    vectors: Mapping[str, Vector]


_Planning = tuple[_Planned, ...] | OmoideError
"""A batch scored and checked, or why it could not be."""


def _episode(
    turn: TurnInput, state: TurnState, recorded_at: datetime, importance: ImportanceResult
) -> Episode:
    return Episode(
        id=turn.turn_id or new_id(),
        scope=turn.scope,
        user_message=turn.user_message,
        bot_message=turn.bot_message,
        recorded_at=recorded_at,
        importance=importance.score,
        emotion=state.emotion,
        emotion_intensity=state.emotion_intensity,
        topics=state.topics,
        scoring=importance.method,
        metadata=dict(turn.metadata),
    )


def _unread(plan: _Planned) -> bool:
    """Whether the disclosure model should read ``plan``'s message: the rules found no fact
    in it, and it is kept, or was scored below the store threshold by rules alone (a stream
    comment; never one too small to keep at all: laughter, a greeting)."""
    if plan.foreseen != () or "low_signal" in plan.importance.signals:
        return False
    return plan.episode is not None or plan.importance.method == ScoringMethod.RULES


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
        disclosure_model: DisclosureModel | None = None,
    ) -> None:
        """``disclosure_model``: reads what the rules found no fact in (rule extraction
        only: a language model reads every message itself)."""
        self._store = store
        self._embedder = embedder
        self._scorer = scorer
        self._extractor = extractor
        self._facts = facts
        self._config = config
        self._clock = clock
        self._metrics = metrics
        self._fact_vectors = FactVectorCache()
        self._disclosures = (
            None
            if disclosure_model is None
            else DisclosureReader(
                model=disclosure_model, embedder=embedder, cache=self._fact_vectors, metrics=metrics
            )
        )
        self._topics = topics if topics is not None else TopicTracker()

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
        """:meth:`_plan_batch`, its error kept to be raised when the batch's turn comes."""
        try:
            return await self._plan_batch(character_id, turns)
        except OmoideError as exc:
            return exc

    async def _prepare(
        self, character_id: str, turns: Sequence[TurnInput], *, fact_texts: bool = False
    ) -> _Prepared:
        """Check, score and embed a batch's episodes (with ``fact_texts``, also the texts of
        the facts rules will propose, into the fact-vector cache); nothing is written."""
        planned = await self._plan_batch(character_id, turns)
        return await self._embed_planned(planned, fact_texts=fact_texts)

    async def _plan_batch(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> tuple[_Planned, ...]:
        check_identifier(character_id, name="character_id")
        for turn in turns:
            if turn.scope.character_id != character_id:
                other = turn.scope.character_id
                raise InvalidInput(f"turn for character {other!r} in a batch for {character_id!r}")
        planned = []
        for index, turn in enumerate(turns):
            now = self._clock.now()
            try:
                recorded_at = check_not_future(turn.timestamp, now=now) if turn.timestamp else now
            except InvalidInput as exc:
                raise InvalidInput(f"turn {index}: {exc}" if len(turns) > 1 else str(exc)) from exc
            planned.append(await self._plan(turn, recorded_at))
        return tuple(planned)

    async def _embed_planned(self, planned: tuple[_Planned, ...], *, fact_texts: bool) -> _Prepared:
        planned = await self._with_disclosures(planned)
        vectors = await self._embed([plan.episode for plan in planned if plan.episode])
        if fact_texts:
            await self._embed_fact_texts(planned)
        return _Prepared(planned, vectors)

    async def _with_disclosures(self, planned: tuple[_Planned, ...]) -> tuple[_Planned, ...]:
        """``planned`` with what the disclosure model reads in the stored exchanges the rules
        found no fact in: their sentences as candidates, their importance raised."""
        if self._disclosures is None:
            return planned
        unread = [i for i, plan in enumerate(planned) if _unread(plan)]
        if not unread:
            return planned
        told = await self._disclosures.disclosed([planned[i].turn.user_message for i in unread])
        updated = list(planned)
        for index, sentences in zip(unread, told, strict=True):
            if sentences:
                updated[index] = self._disclosed(planned[index], sentences)
        return tuple(updated)

    def _disclosed(self, plan: _Planned, sentences: tuple[str, ...]) -> _Planned:
        threshold = self._config.store_threshold
        importance = with_disclosure(plan.importance, store_threshold=threshold)
        episode = plan.episode
        if episode is None and importance.worth_storing:
            episode = _episode(plan.turn, plan.state, plan.recorded_at, importance)
        elif episode is not None and importance.score != episode.importance:
            episode = replace(episode, importance=importance.score)
        if episode is None:
            return plan
        extracts = importance.score >= self._config.fact_extraction_threshold
        candidates = tuple(said_candidate(sentence) for sentence in sentences)
        return replace(
            plan,
            importance=importance,
            episode=episode,
            extracts_facts=extracts,
            foreseen=candidates if extracts else (),
        )

    async def _embed_fact_texts(self, planned: Sequence[_Planned]) -> None:
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
        writes = self._writes(planned, vectors)
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

    async def _plan(self, turn: TurnInput, recorded_at: datetime) -> _Planned:
        state = read_turn(turn, self._topics)
        importance = await self._importance(turn, state)
        worth = importance.worth_storing or turn.force_store
        episode = _episode(turn, state, recorded_at, importance) if worth else None
        extracts = (
            episode is not None and importance.score >= self._config.fact_extraction_threshold
        )
        foreseen = foreseen_candidates(self._extractor, turn.user_message) if extracts else ()
        return _Planned(turn, state, recorded_at, importance, episode, extracts, foreseen)

    async def _importance(self, turn: TurnInput, state: TurnState) -> ImportanceResult:
        if turn.importance is not None:
            return ImportanceResult(
                score=turn.importance,
                worth_storing=True,
                signals=("given",),
                method=ScoringMethod.GIVEN,
            )
        return await self._scorer.score(
            turn.user_message, turn.bot_message, emotion_intensity=felt_intensity(state)
        )

    async def _embed(self, episodes: Sequence[Episode]) -> dict[str, Vector]:
        """Vectors by episode text; a text said twice in a batch is embedded once."""
        texts = list(dict.fromkeys(episode.searchable_text for episode in episodes))
        if not texts:
            return {}
        matrix = await self._embedder.embed_documents(texts)
        return {text: matrix[row] for row, text in enumerate(texts)}

    @staticmethod
    def _writes(planned: Sequence[_Planned], vectors: Mapping[str, Vector]) -> list[TurnWrite]:
        writes = []
        for plan in planned:
            episode = plan.episode
            state = plan.state
            emotion = EmotionRecord(
                id=new_id(),
                scope=plan.turn.scope,
                emotion=state.emotion,
                intensity=state.emotion_intensity,
                recorded_at=plan.recorded_at,
                trigger_topics=state.topics,
                episode_id=episode.id if episode else None,
            )
            vector = vectors[episode.searchable_text] if episode else None
            name = plan.turn.user_name
            display_name = None if name == plan.turn.scope.user_id else name
            writes.append(TurnWrite(plan.turn.scope, episode, vector, emotion, display_name))
        return writes

    async def _after_write(
        self,
        character_id: str,
        planned: Sequence[_Planned],
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
        self, character_id: str, planned: Sequence[_Planned], pipeline: FactTextPipeline
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
            turns.append(BatchTurn(plan.episode, plan.foreseen, text_vectors))
        if not turns:
            return {}
        results = await self._facts.learn_from_batch(character_id, turns)
        return {
            index: changes
            for index, changes in zip(indexes, results, strict=True)
            if changes is not None
        }

    async def _keep_facts(
        self,
        plan: _Planned,
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
            changes = await self._facts.learn_from(
                plan.episode,
                user_name=plan.turn.user_name,
                episode_vector=vectors[plan.episode.searchable_text],
                extractor=self._extractor,
                foreseen=plan.foreseen,
                text_vectors=await pipeline.vectors_for(index),
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

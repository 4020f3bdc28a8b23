"""The write path: score, embed and persist exchanges, then keep the viewer's facts current.

Turns of one batch are written in one transaction. Fact extraction runs after the turns
are safe on disk, so a failing extractor can never lose an exchange.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from omoide.clock import Clock
from omoide.domain import (
    EmotionRecord,
    Episode,
    ScoringMethod,
    Vector,
    as_utc,
    check_identifier,
    new_id,
)
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput, OmoideError
from omoide.memory.config import WriteConfig
from omoide.memory.extraction import FactExtractor
from omoide.memory.facts import FactKeeper
from omoide.memory.importance import ImportanceResult, ImportanceScorer
from omoide.memory.turns import StoredTurn, TurnInput
from omoide.metrics import Metrics
from omoide.store.base import MemoryStore, TurnWrite

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Planned:
    turn: TurnInput
    recorded_at: datetime
    importance: ImportanceResult
    episode: Episode | None


class Rememberer:
    """Remembers exchanges for the viewers of characters."""

    def __init__(
        self,
        *,
        store: MemoryStore,
        embedder: Embedder,
        scorer: ImportanceScorer,
        extractor: FactExtractor,
        facts: FactKeeper,
        config: WriteConfig,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._scorer = scorer
        self._extractor = extractor
        self._facts = facts
        self._config = config
        self._clock = clock
        self._metrics = metrics

    async def remember(self, character_id: str, turns: Sequence[TurnInput]) -> list[StoredTurn]:
        """Score, embed and store a batch of one character's turns in one transaction."""
        check_identifier(character_id, name="character_id")
        for turn in turns:
            if turn.scope.character_id != character_id:
                other = turn.scope.character_id
                raise InvalidInput(f"turn for character {other!r} in a batch for {character_id!r}")
        planned = [await self._plan(turn) for turn in turns]
        vectors = await self._embed([plan.episode for plan in planned if plan.episode])
        writes = self._writes(planned, vectors)
        await self._store.write_turns(character_id, writes)
        self._metrics.increment("turns.received", len(planned))
        self._metrics.increment("turns.stored", sum(1 for plan in planned if plan.episode))
        return [await self._after_write(plan, vectors) for plan in planned]

    async def _plan(self, turn: TurnInput) -> _Planned:
        recorded_at = as_utc(turn.timestamp) if turn.timestamp else self._clock.now()
        importance = await self._importance(turn)
        worth = importance.worth_storing or turn.force_store
        episode = None
        if worth:
            episode = Episode(
                id=turn.turn_id or new_id(),
                scope=turn.scope,
                user_message=turn.user_message,
                bot_message=turn.bot_message,
                recorded_at=recorded_at,
                importance=importance.score,
                emotion=turn.state.emotion,
                emotion_intensity=turn.state.emotion_intensity,
                topics=turn.state.topics,
                scoring=importance.method,
                metadata=dict(turn.metadata),
            )
        return _Planned(turn, recorded_at, importance, episode)

    async def _importance(self, turn: TurnInput) -> ImportanceResult:
        if turn.importance is not None:
            return ImportanceResult(
                score=turn.importance,
                worth_storing=True,
                signals=("given",),
                method=ScoringMethod.GIVEN,
            )
        return await self._scorer.score(
            turn.user_message, turn.bot_message, emotion_intensity=turn.state.emotion_intensity
        )

    async def _embed(self, episodes: Sequence[Episode]) -> dict[str, Vector]:
        if not episodes:
            return {}
        matrix = await self._embedder.embed_documents([e.searchable_text for e in episodes])
        return {episode.id: matrix[row] for row, episode in enumerate(episodes)}

    @staticmethod
    def _writes(planned: Sequence[_Planned], vectors: dict[str, Vector]) -> list[TurnWrite]:
        writes = []
        for plan in planned:
            episode = plan.episode
            state = plan.turn.state
            emotion = EmotionRecord(
                id=new_id(),
                scope=plan.turn.scope,
                emotion=state.emotion,
                intensity=state.emotion_intensity,
                recorded_at=plan.recorded_at,
                trigger_topics=state.topics,
                episode_id=episode.id if episode else None,
            )
            vector = vectors[episode.id] if episode else None
            writes.append(TurnWrite(plan.turn.scope, episode, vector, emotion))
        return writes

    async def _after_write(self, plan: _Planned, vectors: dict[str, Vector]) -> StoredTurn:
        stored = StoredTurn(
            scope=plan.turn.scope,
            episode_id=plan.episode.id if plan.episode else None,
            importance=plan.importance.score,
            stored=plan.episode is not None,
            scoring=plan.importance.method,
            signals=plan.importance.signals,
            recorded_at=plan.recorded_at,
        )
        if plan.episode is None or plan.importance.score < self._config.fact_extraction_threshold:
            return stored
        try:
            changes = await self._facts.learn_from(
                plan.episode,
                user_name=plan.turn.user_name,
                episode_vector=vectors[plan.episode.id],
                extractor=self._extractor,
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

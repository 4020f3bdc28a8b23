"""Planning a batch of turns before anything is embedded or written: check each turn, read
its emotion and topics, score its importance, and decide what it stores (an episode, or
only how the viewer felt) and which facts rules will propose for it
(:func:`~omoide.memory.facts.keeper.foreseen_candidates`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

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
from omoide.errors import InvalidInput
from omoide.memory.config import WriteConfig
from omoide.memory.episode_readings import with_readings
from omoide.memory.extraction.values import FactCandidate, FactExtractor
from omoide.memory.facts.keeper import foreseen_candidates
from omoide.memory.importance import ImportanceResult, ImportanceScorer
from omoide.memory.turn_reading import felt_intensity, read_turn
from omoide.store.base import TurnWrite


@dataclass(frozen=True, slots=True)
class PlannedTurn:
    """One turn checked, read and scored: what it stores, and the facts rules foresee."""

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


def planned_episode(
    turn: TurnInput, state: TurnState, recorded_at: datetime, importance: ImportanceResult
) -> Episode:
    """The episode ``turn`` stores when it is worth storing, with the readings of its words
    the reply path would otherwise read each time (:mod:`.episode_readings`)."""
    episode = Episode(
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
    return with_readings(episode)


class TurnPlanner:
    """Plans turns for :class:`~omoide.memory.remember.Rememberer`."""

    def __init__(
        self,
        *,
        scorer: ImportanceScorer,
        extractor: FactExtractor,
        config: WriteConfig,
        clock: Clock,
        topics: TopicTracker,
    ) -> None:
        self._scorer = scorer
        self._extractor = extractor
        self._config = config
        self._clock = clock
        self._topics = topics

    async def plan_batch(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> tuple[PlannedTurn, ...]:
        """Check and plan one character's turns, in order; nothing is embedded or written."""
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

    async def _plan(self, turn: TurnInput, recorded_at: datetime) -> PlannedTurn:
        state = read_turn(turn, self._topics)
        importance = await self._importance(turn, state)
        worth = importance.worth_storing or turn.force_store
        episode = planned_episode(turn, state, recorded_at, importance) if worth else None
        extracts = (
            episode is not None and importance.score >= self._config.fact_extraction_threshold
        )
        foreseen = foreseen_candidates(self._extractor, turn.user_message) if extracts else ()
        return PlannedTurn(turn, state, recorded_at, importance, episode, extracts, foreseen)

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


def turn_writes(planned: Sequence[PlannedTurn], vectors: Mapping[str, Vector]) -> list[TurnWrite]:
    """What to write for a planned batch: each turn's episode (if it stores one) and
    emotion record, and the name the viewer went by."""
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

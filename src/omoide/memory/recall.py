"""The reply path: find what to remember for one message, under a token budget.

Nothing here waits for a language model. The query is embedded once (cached for repeats),
vector and keyword searches for episodes and facts and the emotion summary run
concurrently. What reaches the prompt is reinforced off the reply path: the recall is
noted here and written by the write path (see :mod:`omoide.memory.reinforce`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

import anyio

from omoide.clock import Clock
from omoide.domain import EmotionRecord, Episode, Fact, Scope, Vector, as_utc
from omoide.embed.base import Embedder
from omoide.errors import OmoideError
from omoide.memory.config import MemoryConfig
from omoide.memory.context import MemoryContext, RenderedContext
from omoide.memory.emotions import summarise_emotions
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.importance import is_low_signal
from omoide.memory.intent import cued_categories
from omoide.memory.neighbours import asked, with_neighbours
from omoide.memory.ranking import Candidate, Ranked, fuse_relevance, rank
from omoide.memory.reinforce import DUE_FLUSH, Reinforcements
from omoide.memory.relevance import RelevanceFloor
from omoide.memory.tokens import TokenCounter
from omoide.store.base import EpisodeFilter, FactFilter, Hit, MemoryStore

logger = logging.getLogger(__name__)

Item = TypeVar("Item", bound=Episode | Fact)


@dataclass(frozen=True, slots=True)
class Recollection:
    """What the reply path found, and the prompt section built from it."""

    scope: Scope
    query: str
    now: datetime
    context: MemoryContext
    rendered: RenderedContext
    searched: bool


@dataclass(slots=True)
class _Found:
    episode_vector: list[Hit[Episode]]
    episode_keyword: list[Hit[Episode]]
    fact_vector: list[Hit[Fact]]
    fact_keyword: list[Hit[Fact]]
    emotions: list[EmotionRecord]


class Recaller:
    def __init__(
        self,
        *,
        store: MemoryStore,
        embedder: Embedder,
        counter: TokenCounter,
        config: MemoryConfig,
        clock: Clock,
        floors: RelevanceFloor,
        reinforcements: Reinforcements | None = None,
    ) -> None:
        self._store = store
        self._reinforcements = reinforcements or Reinforcements(store)
        self._embedder = embedder
        self._counter = counter
        self._config = config
        self._clock = clock
        self._floors = floors

    @property
    def reinforcements(self) -> Reinforcements:
        """Recalls noted by :meth:`recall`, waiting to be written."""
        return self._reinforcements

    async def recall(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime | None = None,
        token_budget: int | None = None,
    ) -> Recollection:
        """Build the prompt section for ``query``; note what it used for reinforcement.

        The reinforcement is written off the reply path; only when so many notes wait that
        a flush is due (nothing else flushes them) does the reply write the oldest two."""
        moment = as_utc(now, name="now") if now is not None else self._clock.now()
        context, searched = await self.look_up(scope, query, now=moment)
        budget = self._config.recall.token_budget if token_budget is None else token_budget
        rendered = context.render(budget_tokens=budget, counter=self._counter, now=moment)
        flush_due = self._reinforcements.note(
            scope, episode_ids=rendered.episode_ids, fact_ids=rendered.fact_ids, at=moment
        )
        if flush_due:
            await self._reinforcements.flush_quietly(limit=DUE_FLUSH)
        return Recollection(scope, query, moment, context, rendered, searched)

    async def look_up(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime,
        for_prompt: bool = True,
        limit: int | None = None,
    ) -> tuple[MemoryContext, bool]:
        """Ranked memories for ``query`` without rendering or reinforcing anything.

        ``for_prompt`` keeps only memories related to the query (shared words, meaning
        above the model's floor, or a fact type the query asks about) and skips search
        for low-signal messages; without it every candidate is ranked, for inspection.
        ``limit`` overrides how many facts and episodes are kept (at most the candidates).
        """
        searched = not for_prompt or not is_low_signal(query)
        recall = self._config.recall
        episodes_where = EpisodeFilter(min_importance=recall.min_importance, until=now)
        found = await self._search(scope, query, now, searched, episodes_where)
        if for_prompt:
            found = self._only_related(found, query)
        facts_by_vector = [hit for hit in found.fact_vector if hit.item.recorded_at <= now]
        facts_by_words = [hit for hit in found.fact_keyword if hit.item.recorded_at <= now]
        episodes = self._rank(found.episode_vector, found.episode_keyword, now)
        episodes = await self._with_neighbours(scope, episodes, episodes_where)
        context = MemoryContext(
            facts=tuple(
                self._rank(facts_by_vector, facts_by_words, now)[: recall.facts_in_context]
            ),
            episodes=tuple(episodes[: limit or recall.episodes_in_context]),
            emotions=summarise_emotions(found.emotions, now=now, days=recall.emotion_days),
        )
        return context, searched

    async def _with_neighbours(
        self, scope: Scope, ranked: list[Ranked[Episode]], where: EpisodeFilter
    ) -> list[Ranked[Episode]]:
        """The episodes recorded next to the best ones joined (:mod:`.neighbours`)."""
        config = self._config.recall.neighbours
        if not config.enabled or not ranked:
            return ranked
        anchors = [entry.item.id for entry in ranked[: config.best] if asked(entry.item)]
        if not anchors:  # nothing asked: no answer to look for, no store read
            return ranked
        found = await self._store.episode_neighbours(scope, anchors, where=where)
        return with_neighbours(ranked, found, config)

    async def _search(
        self, scope: Scope, query: str, now: datetime, searched: bool, episodes_where: EpisodeFilter
    ) -> _Found:
        found = _Found([], [], [], [], [])
        recall = self._config.recall
        facts_where = FactFilter()

        async def by_vector() -> None:
            vector: Vector = await self._embedder.embed_query(query)
            found.episode_vector = await self._store.search_episode_vectors(
                scope, vector, where=episodes_where, limit=recall.episode_candidates
            )
            found.fact_vector = await self._store.search_fact_vectors(
                scope, vector, where=facts_where, limit=recall.fact_candidates
            )

        async def by_keywords() -> None:
            found.episode_keyword = await self._store.search_episode_keywords(
                scope, query, where=episodes_where, limit=recall.episode_candidates
            )
            found.fact_keyword = await self._store.search_fact_keywords(
                scope, query, where=facts_where, limit=recall.fact_candidates
            )

        async def emotions() -> None:
            since = now - timedelta(days=recall.emotion_days)
            found.emotions = await self._store.list_emotions(scope, since=since, until=now)

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(emotions)
                if searched:
                    group.start_soon(by_vector)
                    group.start_soon(by_keywords)
        except ExceptionGroup as failures:
            raise first_omoide_error(failures) from failures
        return found

    def _only_related(self, found: _Found, query: str) -> _Found:
        """Drop memories unrelated to the query: no shared words, meaning below the floor,
        and (for facts) not among the best facts of a type the query asks about."""
        floors = self._floors
        fact_ids = {hit.item.id for hit in found.fact_keyword}
        fact_ids.update(hit.item.id for hit in found.fact_vector if hit.score > floors.facts)
        for category in cued_categories(query):
            in_category = [hit for hit in found.fact_vector if hit.item.category is category]
            per_category = self._config.recall.facts_per_cued_category
            fact_ids.update(hit.item.id for hit in in_category[:per_category])
        episode_ids = {hit.item.id for hit in found.episode_keyword}
        episode_ids.update(
            hit.item.id for hit in found.episode_vector if hit.score > floors.episodes
        )
        return _Found(
            episode_vector=[hit for hit in found.episode_vector if hit.item.id in episode_ids],
            episode_keyword=found.episode_keyword,
            fact_vector=[hit for hit in found.fact_vector if hit.item.id in fact_ids],
            fact_keyword=[hit for hit in found.fact_keyword if hit.item.id in fact_ids],
            emotions=found.emotions,
        )

    def _rank(
        self,
        vector_hits: Sequence[Hit[Item]],
        keyword_hits: Sequence[Hit[Item]],
        now: datetime,
    ) -> list[Ranked[Item]]:
        items = {hit.item.id: hit.item for hit in [*vector_hits, *keyword_hits]}
        relevance = fuse_relevance(
            {hit.item.id: hit.score for hit in vector_hits},
            {hit.item.id: hit.score for hit in keyword_hits},
            config=self._config.fusion,
        )
        candidates: list[Candidate[Item]] = [
            Candidate(
                item=items[item_id],
                relevance=score,
                importance=importance_of(items[item_id]),
                last_activity=last_reinforced_at(items[item_id]),
            )
            for item_id, score in relevance.items()
        ]
        return rank(candidates, weights=self._config.ranking, now=now)


def first_omoide_error(failures: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first of our own errors inside a task group's failures (the group if none)."""
    for failure in failures.exceptions:
        if isinstance(failure, BaseExceptionGroup):
            failure = first_omoide_error(failure)
        if isinstance(failure, OmoideError):
            return failure
    return failures


def importance_of(memory: Episode | Fact) -> float:
    """How much a memory matters: an episode's importance, a fact's salience."""
    return memory.importance if isinstance(memory, Episode) else memory.salience

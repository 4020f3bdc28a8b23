"""The reply path: find what to remember for one message, under a token budget.

Nothing here waits for a language model. The query is embedded once (cached for repeats),
then the vector and keyword searches for episodes and facts and the emotions are read in
one store call. What reaches the prompt is reinforced off the reply path: the recall is
noted here and written by the write path (see :mod:`omoide.memory.reinforce`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Protocol, TypeVar

import anyio

from omoide.clock import Clock, moment_of
from omoide.domain import Episode, Fact, Scope, Vector
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput, first_omoide_error
from omoide.memory.addressing import CharacterNames, without_names
from omoide.memory.associations import lift_associated
from omoide.memory.config import SMALL_TALK_IMPORTANCE, MemoryConfig
from omoide.memory.context import MemoryContext, RenderedContext
from omoide.memory.diversity import Repeats, collapse_repeats
from omoide.memory.emotions import summarise_emotions
from omoide.memory.episode_readings import asked, said
from omoide.memory.facet_cues import cued_facets
from omoide.memory.facets import Facet, facet_of
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.importance import is_low_signal
from omoide.memory.neighbours import with_neighbours
from omoide.memory.ranking import Candidate, Ranked, Relevance, fuse_relevance, rank
from omoide.memory.reinforce import DUE_FLUSH, RecallRecording, Reinforcements
from omoide.memory.relevance import RelevanceFloor
from omoide.memory.reply_finding import EVERY_FACT, ReplyFinding, joined
from omoide.memory.tokens import TokenCounter
from omoide.memory.viewer_profile import ViewerProfile, build_profile
from omoide.store.base import EpisodeFilter, FactFilter, Hit, ReplyFound, ReplyReads
from omoide.store.keywords import analyze_query
from omoide.text_caches import remembers_text

logger = logging.getLogger(__name__)

Item = TypeVar("Item", bound=Episode | Fact)


class ReplyReading(Protocol):
    """How recall reads what a message calls up (a memory store)."""

    async def read_for_reply(self, scope: Scope, reads: ReplyReads) -> ReplyFound: ...

    async def episode_neighbours(
        self, scope: Scope, episode_ids: Sequence[str], *, where: EpisodeFilter
    ) -> dict[str, tuple[Episode, ...]]: ...

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...


class MemorySearch(ReplyReading, RecallRecording, Protocol):
    """What recall reads, and where it records what it recalled (a memory store)."""


@dataclass(frozen=True, slots=True)
class Recollection:
    """What the reply path found, and the prompt section built from it."""

    scope: Scope
    query: str
    now: datetime
    context: MemoryContext
    rendered: RenderedContext
    searched: bool


class Recaller:
    def __init__(
        self,
        *,
        store: MemorySearch,
        embedder: Embedder,
        counter: TokenCounter,
        config: MemoryConfig,
        clock: Clock,
        floors: RelevanceFloor,
        names: CharacterNames | None = None,
        reinforcements: Reinforcements | None = None,
        reads_while_embedding: bool = False,
    ) -> None:
        """``reads_while_embedding``: read what needs no query vector while the query is
        embedded (a store whose reads wait on the network); without it the query is
        embedded first and one read asks for everything (an embedded store, whose reads
        share this process's CPUs and interpreter lock with the embedding)."""
        self._store = store
        self._reads_while_embedding = reads_while_embedding
        self._names = names
        self._names_cache: dict[str, tuple[str, ...]] = {}
        self._reinforcements = reinforcements or Reinforcements(store)
        self._embedder = embedder
        self._counter = counter
        self._config = config
        self._clock = clock
        self._scale = floors.scale(keyword_half=config.recall.keyword_half)

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
        moment = moment_of(now, self._clock)
        context, searched = await self.look_up(scope, query, now=moment)
        budget = self._config.recall.token_budget if token_budget is None else token_budget
        rendered = context.render(budget_tokens=budget, counter=self._counter, now=moment)
        flush_due = self._reinforcements.note(
            scope, episode_ids=rendered.episode_ids, fact_ids=rendered.fact_ids, at=moment
        )
        if flush_due:
            await self._reinforcements.flush_quietly(limit=DUE_FLUSH)
        return Recollection(scope, query, moment, context, rendered, searched)

    async def search(
        self, scope: Scope, query: str, *, now: datetime | None = None, limit: int | None = None
    ) -> MemoryContext:
        """Every candidate for ``query`` ranked, for inspection (``look_up`` not for the
        prompt); reinforces nothing. ``limit`` (default: the prompt's sizes) caps facts and
        episodes."""
        if limit is not None and limit < 1:
            raise InvalidInput(f"limit must be at least 1 (got {limit})")
        moment = moment_of(now, self._clock)
        context, _ = await self.look_up(scope, query, now=moment, for_prompt=False, limit=limit)
        return context

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

        ``for_prompt`` keeps only memories relevant to the query (at least
        ``min_relevance`` on the absolute scale, low-signal turns never), collapses
        repeats, adds the viewer profile and skips search for low-signal messages; without
        it every candidate is ranked, for inspection. ``limit`` overrides how many facts and
        episodes are kept (at most the candidates).
        """
        query = bounded_query(query)
        searched = not for_prompt or not is_low_signal(query)
        recall = self._config.recall
        episodes_where = EpisodeFilter(min_importance=recall.min_importance, until=now)
        words = await self._words_of(scope, query)
        found = await self._search(scope, query, words, now, (searched, for_prompt), episodes_where)
        terms = len(set(analyze_query(words))) if searched else 0
        fact_items, fact_relevance = self._relevance(
            [hit for hit in found.fact_vector if hit.item.recorded_at <= now],
            [hit for hit in found.fact_keyword if hit.item.recorded_at <= now],
            terms,
        )
        cued = cued_facets(query) if for_prompt else frozenset()
        associated = cued if searched else frozenset()
        episode_items, episode_relevance = self._relevance(
            found.episode_vector, found.episode_keyword, terms, associated
        )
        if for_prompt:  # only what is shown is ranked: leaving out first keeps the order
            episode_relevance = self._worth_showing(
                episode_relevance, found.outdated, episode_items
            )
        episodes = self._ranked(episode_items, episode_relevance, now)
        episodes = await self._with_neighbours(scope, episodes, episodes_where)
        repeats: dict[str, Repeats] = {}
        if for_prompt:
            in_context = limit or recall.episodes_in_context
            window = episodes[: REPEAT_WINDOW * in_context]
            episodes, repeats = collapse_repeats(window, keep=in_context, shown=_worth_a_line)
        profile = None
        if for_prompt:
            matched = {item_id: score.value for item_id, score in fact_relevance.items()}
            profile = self._profile(scope, cued, found.current_facts, matched, now)
            fact_relevance = self._worth_showing(fact_relevance)
        facts = self._ranked(fact_items, fact_relevance, now)
        context = MemoryContext(
            facts=tuple(facts[: limit or recall.facts_in_context]),
            episodes=tuple(episodes[: limit or recall.episodes_in_context]),
            emotions=summarise_emotions(found.emotions, now=now, days=recall.emotion_days),
            profile=profile,
            repeats=repeats,
            profile_share=self._config.profile.share,
        )
        return context, searched

    async def profile(self, scope: Scope, query: str | None, *, now: datetime) -> ViewerProfile:
        """The viewer profile as the prompt would carry it for ``query`` (``None``: no
        message, facts chosen by their weight alone)."""
        if query is None or not query.strip():
            facts = await self._store.list_facts(scope, where=FactFilter())
            return self._profile(scope, frozenset(), facts, {}, now)
        context, _ = await self.look_up(scope, query, now=now)
        assert context.profile is not None  # look_up for the prompt always builds it
        return context.profile

    def _worth_showing(
        self,
        relevance: Mapping[str, Relevance],
        outdated: frozenset[str] = frozenset(),
        items: Mapping[str, Episode | Fact] | None = None,
    ) -> dict[str, Relevance]:
        """The candidates relevant enough for the prompt, in the same order; ``outdated``
        ones left out. Among ``items``, an exchange scored as small talk needs
        ``small_talk_relevance``: a weak match leaves its room to what the viewer told."""
        recall = self._config.recall
        chatter = max(recall.min_relevance, recall.small_talk_relevance)

        def floor(item_id: str) -> float:
            item = None if items is None else items.get(item_id)
            small_talk = isinstance(item, Episode) and item.importance < SMALL_TALK_IMPORTANCE
            return chatter if small_talk else recall.min_relevance

        return {
            item_id: score
            for item_id, score in relevance.items()
            if score.value >= floor(item_id) and item_id not in outdated
        }

    def _profile(
        self,
        scope: Scope,
        cued: frozenset[Facet],
        current: Sequence[Fact],
        matched: Mapping[str, float],
        now: datetime,
    ) -> ViewerProfile:
        """The viewer profile for a message: facts it matched (``matched``: relevance by
        id), or whose group it cues (``cued``, :mod:`.facet_cues`), count as relevant."""
        relevance = dict(matched)
        if cued:
            lift = self._config.recall.cued_relevance
            for fact in current:
                if facet_of(fact) in cued:
                    relevance[fact.id] = max(relevance.get(fact.id, 0.0), lift)
        known = [fact for fact in current if fact.recorded_at <= now]
        return build_profile(scope, known, relevance=relevance, config=self._config.profile)

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

    async def _words_of(self, scope: Scope, query: str) -> str:
        """The query the keyword search reads: without the character's own names."""
        if self._names is None:
            return query
        names = self._names_cache.get(scope.character_id)
        if names is None:  # a name is protected: read once per character and process
            names = await self._names.names_of(scope.character_id)
            self._names_cache[scope.character_id] = names
        return without_names(query, names)

    async def _search(
        self,
        scope: Scope,
        query: str,
        words: str,
        now: datetime,
        wanted: tuple[bool, bool],
        episodes_where: EpisodeFilter,
    ) -> ReplyFinding:
        """Both searches (``words`` for the keyword one), the emotions and, for the
        prompt, the current facts; ``wanted`` is (search at all, read the profile). The
        query is embedded first and everything read at once, or, with
        ``reads_while_embedding``, what needs no vector is read meanwhile."""
        searched, with_profile = wanted
        recall = self._config.recall
        besides = ReplyReads(  # what needs no query vector
            episodes_where=episodes_where,
            episode_limit=recall.episode_candidates,
            fact_limit=recall.fact_candidates,
            words=words if searched and words.strip() else None,
            emotions_between=(now - timedelta(days=recall.emotion_days), now),
            facts_listed=EVERY_FACT if with_profile else None,
        )
        if searched and self._reads_while_embedding:
            return joined(await self._overlapped(scope, query, besides), with_profile)
        if searched:
            besides = replace(besides, vector=await self._embedder.embed_query(query))
        return joined([await self._store.read_for_reply(scope, besides)], with_profile)

    async def _overlapped(self, scope: Scope, query: str, besides: ReplyReads) -> list[ReplyFound]:
        """``besides`` read while the query is embedded, then the searches by meaning."""
        parts: list[ReplyFound] = []
        limits = ReplyReads(besides.episodes_where, besides.episode_limit, besides.fact_limit)

        async def read(reads: ReplyReads) -> None:
            parts.append(await self._store.read_for_reply(scope, reads))

        async def by_meaning() -> None:
            vector: Vector = await self._embedder.embed_query(query)
            await read(replace(limits, vector=vector))

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(read, besides)
                group.start_soon(by_meaning)
        except ExceptionGroup as failures:
            raise first_omoide_error(failures) from failures
        return parts

    def _relevance(
        self,
        vector_hits: Sequence[Hit[Item]],
        keyword_hits: Sequence[Hit[Item]],
        query_terms: int,
        cued: frozenset[Facet] = frozenset(),
    ) -> tuple[dict[str, Item], dict[str, Relevance]]:
        """The candidates by id and their fused relevance, best first; with ``cued``
        groups, told exchanges about them lifted (:mod:`.associations`)."""
        items = {hit.item.id: hit.item for hit in [*vector_hits, *keyword_hits]}
        relevance = fuse_relevance(
            {hit.item.id: hit.score for hit in vector_hits},
            {hit.item.id: hit.score for hit in keyword_hits},
            scale=self._scale,
            query_terms=query_terms,
            config=self._config.fusion,
        )
        if cued:
            episodes = {key: item for key, item in items.items() if isinstance(item, Episode)}
            relevance = lift_associated(
                relevance, episodes, cued, config=self._config.recall.associations
            )
        return items, relevance

    def _ranked(
        self, items: Mapping[str, Item], relevance: Mapping[str, Relevance], now: datetime
    ) -> list[Ranked[Item]]:
        """The candidates in ``relevance`` best first (:func:`.ranking.rank`)."""
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


SIGNAL_CACHED = 8192
"""Remembered texts whose low-signal reading is kept per process (a text never changes)."""
_low_signal = remembers_text(lru_cache(maxsize=SIGNAL_CACHED)(is_low_signal))


def _worth_a_line(entry: Ranked[Episode]) -> bool:
    """Whether an episode may be shown: a low-signal turn never is."""
    return not _low_signal(said(entry.item))


REPEAT_WINDOW = 4
"""Repeats are looked for among this many times the episodes the prompt shows."""
RECALL_QUERY_CHARS = 2000
"""How much of a message recall reads: a pasted text's beginning and end (where a question
about it usually is), not a 100,000 character query to embed and search."""


def bounded_query(query: str) -> str:
    """``query``, or its first and last ``RECALL_QUERY_CHARS / 2`` characters."""
    if len(query) <= RECALL_QUERY_CHARS:
        return query
    half = RECALL_QUERY_CHARS // 2
    return f"{query[:half]}\n{query[-half:]}"


def importance_of(memory: Episode | Fact) -> float:
    """How much a memory matters: an episode's importance, a fact's salience."""
    return memory.importance if isinstance(memory, Episode) else memory.salience

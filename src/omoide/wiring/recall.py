"""The recall half of the memory pipeline: what finding memories for a message needs.

The full build (:mod:`.memory`) and the read path's search and reply section
(:mod:`.reader`) both build their :class:`~omoide.memory.recall.Recaller` here, from the
same settings, so a search ranks and a section reads alike on both; this module loads none
of the write path (extraction, facts, importance scoring).
"""

from __future__ import annotations

from datetime import datetime

from omoide.clock import Clock, moment_of
from omoide.config import Settings
from omoide.domain import Scope
from omoide.embed.base import Embedder
from omoide.embed.centring import CentredQueries, chat_centroid_for
from omoide.memory.addressing import CharacterNames
from omoide.memory.associations import AssociationConfig
from omoide.memory.config import MemoryConfig, RecallConfig, WriteConfig
from omoide.memory.context import MemoryContext
from omoide.memory.importance import is_low_signal
from omoide.memory.neighbours import NeighbourConfig
from omoide.memory.ranking import RankingWeights
from omoide.memory.recall import MemorySearch, Recaller, Recollection, bounded_query
from omoide.memory.relevance import cached_relevance_floor
from omoide.memory.tokens import ApproximateTokenCounter, TokenCounter
from omoide.memory.viewer_profile import ViewerProfile
from omoide.wiring.reader import decay_policy, profile_config


def memory_config(settings: Settings) -> MemoryConfig:
    return MemoryConfig(
        ranking=RankingWeights(
            relevance=settings.weight_relevance,
            recency=settings.weight_recency,
            importance=settings.weight_importance,
            recency_decay_per_hour=settings.recency_decay_per_hour,
        ),
        recall=RecallConfig(
            token_budget=settings.context_token_budget,
            min_relevance=settings.min_relevance,
            small_talk_relevance=settings.small_talk_relevance,
            keyword_half=settings.keyword_half,
            associations=AssociationConfig(limit=settings.associated_episodes),
            neighbours=NeighbourConfig(
                best=settings.neighbours_of_best, share=settings.neighbour_share
            ),
        ),
        profile=profile_config(settings),
        write=WriteConfig(store_threshold=settings.store_threshold),
        decay=decay_policy(settings),
    )


async def build_recaller(
    settings: Settings,
    store: MemorySearch,
    *,
    embedder: Embedder,
    model_embedder: Embedder,
    counter: TokenCounter,
    names: CharacterNames,
    clock: Clock,
) -> Recaller:
    """The recaller over ``store``: ``embedder`` embeds queries (the full build's has the
    query cache), ``model_embedder`` names the model whose relevance floors apply (they are
    calibrated once per model and cached in ``data_dir/relevance.json``). Both search
    without the chat direction when a centroid ships for the model
    (:mod:`omoide.embed.centring`; ``centre_queries``). A server store's
    reads run while the query is embedded; an embedded store's follow it (measured in
    ``docs/benchmarks.md``)."""
    centroid = chat_centroid_for(model_embedder) if settings.centre_queries else None
    queries = "plain" if centroid is None else f"centred:{centroid.digest}"
    if centroid is not None:
        embedder = CentredQueries(embedder, centroid)
        model_embedder = CentredQueries(model_embedder, centroid)
    floors = await cached_relevance_floor(
        model_embedder, settings.data_dir / "relevance.json", queries=queries
    )
    return Recaller(
        store=store,
        embedder=embedder,
        counter=counter,
        config=memory_config(settings),
        clock=clock,
        floors=floors,
        names=names,
        reads_while_embedding=settings.store == "server",  # network waits overlap the model
    )


class RecallOnly:
    """:class:`~omoide.memory.manager.MemoryManager`'s reads over the recaller alone (the
    read path): the reply section and the profile steered by a message, the same calls
    without the write path."""

    def __init__(self, recaller: Recaller, clock: Clock) -> None:
        self._recaller = recaller
        self._clock = clock

    async def retrieve_context(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime | None = None,
        token_budget: int | None = None,
    ) -> Recollection:
        return await self._recaller.recall(scope, query, now=now, token_budget=token_budget)

    async def profile(
        self, scope: Scope, message: str | None = None, *, now: datetime | None = None
    ) -> ViewerProfile:
        moment = moment_of(now, self._clock)
        return await self._recaller.profile(scope, message, now=moment)


class NothingToRecall:
    """What :meth:`Recaller.recall` answers over an empty store (an empty section, the
    message searched unless it is slight), without creating the store or embedding."""

    def __init__(self, clock: Clock, token_budget: int) -> None:
        self._clock = clock
        self._token_budget = token_budget

    async def retrieve_context(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime | None = None,
        token_budget: int | None = None,
    ) -> Recollection:
        moment = moment_of(now, self._clock)
        budget = self._token_budget if token_budget is None else token_budget
        context = MemoryContext()
        rendered = context.render(
            budget_tokens=budget, counter=ApproximateTokenCounter(), now=moment
        )  # nothing to render: no count is asked, only the budget checked
        searched = not is_low_signal(bounded_query(query))
        return Recollection(scope, query, moment, context, rendered, searched)

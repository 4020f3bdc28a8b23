"""The recall half of the memory pipeline: what finding memories for a message needs.

The full build (:mod:`.memory`) and the read path's search (:mod:`.reader`) both build
their :class:`~omoide.memory.recall.Recaller` here, from the same settings, so a search
ranks alike on both; this module loads none of the write path (extraction, facts,
importance scoring).
"""

from __future__ import annotations

from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.memory.addressing import CharacterNames
from omoide.memory.associations import AssociationConfig
from omoide.memory.config import MemoryConfig, RecallConfig, WriteConfig
from omoide.memory.neighbours import NeighbourConfig
from omoide.memory.ranking import RankingWeights
from omoide.memory.recall import MemorySearch, Recaller
from omoide.memory.relevance import cached_relevance_floor
from omoide.memory.tokens import TokenCounter
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
    calibrated once per model and cached in ``data_dir/relevance.json``)."""
    floors = await cached_relevance_floor(model_embedder, settings.data_dir / "relevance.json")
    return Recaller(
        store=store,
        embedder=embedder,
        counter=counter,
        config=memory_config(settings),
        clock=clock,
        floors=floors,
        names=names,
    )

"""omoide's ranking, re-done fast for a grid of weights over one fused candidate list.

:func:`omoide.memory.ranking.rank` validates and rebuilds every candidate on each call;
a grid of ~100 configurations over a few thousand questions would spend minutes there.
Here the fused relevance (omoide's own ``fuse_relevance``), the importance and the last
activity of each candidate are computed once per (fusion, keyword half), the recency
once per decay, and each weighting only recombines them with ``RankingWeights.factor``:
``total = relevance x factor(recency, importance)``, clamped to [0, 1], ordered with
``rank``'s tie-breaking (total at 9 decimals, then relevance, importance, the more
recent activity, input order).

The run checks this against :func:`~benchmarks.quality.systems.exact_order` (which calls
``rank`` itself) on every configuration for a sample of questions, and reports any
difference; a test does the same on generated pools.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from benchmarks.quality.harness import Pool, unit_of
from omoide.domain import Episode
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.ranking import (
    FusionConfig,
    RankingWeights,
    Relevance,
    fuse_relevance,
    raw_recency,
)
from omoide.memory.recall import importance_of
from omoide.store.base import Hit

_TOTAL_DIGITS = 9


@dataclass(frozen=True, slots=True)
class Features:
    """The candidates of one pool under one fusion, in ``rank``'s input order."""

    relevance: tuple[float, ...]
    importance: tuple[float, ...]
    moments: tuple[float, ...]
    episodes: tuple[Episode, ...]


def fused(
    pool: Pool,
    keyword_hits: Sequence[Hit[Episode]],
    fusion: FusionConfig,
    keyword_half: float,
    vector_hits: Sequence[Hit[Episode]] | None = None,
) -> list[tuple[Episode, Relevance]]:
    """(episode, fused relevance) best first, as ``Recaller._rank`` fuses the hits: on the
    pool's calibrated scale with ``keyword_half``, over the query's distinct terms."""
    vectors = pool.vector if vector_hits is None else vector_hits
    items = {hit.item.id: hit.item for hit in [*vectors, *keyword_hits]}
    relevance = fuse_relevance(
        {hit.item.id: hit.score for hit in vectors},
        {hit.item.id: hit.score for hit in keyword_hits},
        scale=replace(pool.scale, keyword_half=keyword_half),
        query_terms=pool.query_terms,
        config=fusion,
    )
    return [(items[item_id], value) for item_id, value in relevance.items()]


def features(
    pool: Pool, keyword_hits: Sequence[Hit[Episode]], fusion: FusionConfig, keyword_half: float
) -> Features:
    candidates = fused(pool, keyword_hits, fusion, keyword_half)
    episodes = tuple(episode for episode, _ in candidates)
    return Features(
        relevance=tuple(relevance.value for _, relevance in candidates),
        importance=tuple(importance_of(episode) for episode in episodes),
        moments=tuple(last_reinforced_at(episode).timestamp() for episode in episodes),
        episodes=episodes,
    )


def recency(found: Features, pool: Pool, decay_per_hour: float) -> list[float]:
    """Each candidate's ``decay ** hours`` since its last activity, at the question."""
    return [
        raw_recency(last_reinforced_at(episode), now=pool.probe.now, decay_per_hour=decay_per_hour)
        for episode in found.episodes
    ]


def fast_order(
    found: Features, recencies: Sequence[float], weights: RankingWeights, limit: int
) -> list[str]:
    """Unit ids best first, as ``rank`` orders them under ``weights``."""
    return [unit_of(episode) for episode, _ in fast_ranking(found, recencies, weights)[:limit]]


def fast_ranking(
    found: Features, recencies: Sequence[float], weights: RankingWeights
) -> list[tuple[Episode, float]]:
    """(episode, total) best first, as ``rank`` orders and scores them under ``weights``."""
    keys = []
    totals = []
    for index, relevance in enumerate(found.relevance):
        factor = weights.factor(recencies[index], found.importance[index])
        total = min(1.0, max(0.0, relevance * factor))
        totals.append(total)
        keys.append(
            (
                -round(total, _TOTAL_DIGITS),
                -relevance,
                -found.importance[index],
                -found.moments[index],
                index,
            )
        )
    keys.sort()
    return [(found.episodes[key[-1]], totals[key[-1]]) for key in keys]

"""omoide's ranking, re-done fast for a grid of weights over one fused candidate list.

:func:`omoide.memory.ranking.rank` validates and rebuilds every candidate on each call,
about 1 ms for 100 candidates; a grid of ~100 weightings over a thousand questions would
spend minutes there. Here the fused relevance (omoide's own ``fuse_relevance``), the
recency and the importance of each candidate are computed once per fusion configuration,
normalised with omoide's own ``normalise``, and each weighting only recombines them,
with ``rank``'s tie-breaking (total at 9 decimals, then raw relevance, raw importance,
recency of last activity, input order).

The run checks this against ``omoide_ranking`` (which calls ``rank`` itself) on every
configuration for a sample of questions, and reports any difference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.quality.harness import Pool, unit_of
from omoide.domain import Episode
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.ranking import (
    FusionConfig,
    RankingWeights,
    fuse_relevance,
    normalise,
    raw_recency,
)
from omoide.memory.recall import importance_of
from omoide.store.base import Hit

_TOTAL_DIGITS = 9

Fuse = Callable[..., dict[str, float]]
"""``fuse(vector_scores, keyword_scores, *, config)``, as ``fuse_relevance``."""


@dataclass(frozen=True, slots=True)
class Features:
    """The candidates of one pool under one fusion, in ``rank``'s input order."""

    unit_ids: tuple[str, ...]
    raw_relevance: tuple[float, ...]
    relevance: tuple[float, ...]
    raw_importance: tuple[float, ...]
    importance: tuple[float, ...]
    moments: tuple[float, ...]
    episodes: tuple[Episode, ...]


def features(
    pool: Pool,
    keyword_hits: Sequence[Hit[Episode]],
    fusion: FusionConfig,
    fuse: Fuse = fuse_relevance,
) -> Features:
    items = {hit.item.id: hit.item for hit in [*pool.vector, *keyword_hits]}
    fused = fuse(
        {hit.item.id: hit.score for hit in pool.vector},
        {hit.item.id: hit.score for hit in keyword_hits},
        config=fusion,
    )
    episodes = tuple(items[item_id] for item_id in fused)
    raw_relevance = tuple(fused.values())
    raw_importance = tuple(importance_of(episode) for episode in episodes)
    return Features(
        unit_ids=tuple(unit_of(episode) for episode in episodes),
        raw_relevance=raw_relevance,
        relevance=tuple(normalise(list(raw_relevance))),
        raw_importance=raw_importance,
        importance=tuple(normalise(list(raw_importance))),
        moments=tuple(last_reinforced_at(episode).timestamp() for episode in episodes),
        episodes=episodes,
    )


def recency(found: Features, pool: Pool, decay_per_hour: float) -> list[float]:
    raw = [
        raw_recency(last_reinforced_at(episode), now=pool.probe.now, decay_per_hour=decay_per_hour)
        for episode in found.episodes
    ]
    return normalise(raw)


def fast_order(
    found: Features, recency_scaled: Sequence[float], weights: RankingWeights, limit: int
) -> list[str]:
    """Unit ids best first, as ``rank`` orders them under ``weights``."""
    ranked = fast_ranking(found, recency_scaled, weights)[:limit]
    return [unit_of(episode) for episode, _ in ranked]


def fast_ranking(
    found: Features, recency_scaled: Sequence[float], weights: RankingWeights
) -> list[tuple[Episode, float]]:
    """(episode, total) best first, as ``rank`` orders and scores them under ``weights``."""
    total_weight = weights.weight_sum
    keys = []
    totals = []
    for index in range(len(found.unit_ids)):
        weighted = (
            weights.relevance * found.relevance[index]
            + weights.recency * recency_scaled[index]
            + weights.importance * found.importance[index]
        )
        total = min(1.0, max(0.0, weighted / total_weight))
        totals.append(total)
        keys.append(
            (
                -round(total, _TOTAL_DIGITS),
                -found.raw_relevance[index],
                -found.raw_importance[index],
                -found.moments[index],
                index,
            )
        )
    keys.sort()
    return [(found.episodes[key[-1]], totals[key[-1]]) for key in keys]

"""The rankings :mod:`benchmarks.quality.experiments` compares, each a :class:`Variant`.

Every omoide variant is today's recall ranking (``Recaller._rank``: ``fuse_relevance``
then ``rank``) with one thing changed; the baselines rank one search list alone.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from benchmarks.quality.contextual import CONTEXTUAL, STORE_VECTORS, vector_hits
from benchmarks.quality.fast_rank import Fuse
from benchmarks.quality.harness import STORE_KEYWORDS, Pool, unit_of
from benchmarks.quality.neighbours import Rerank, Timelines, expand, neighbour_order, propagate
from benchmarks.quality.systems import omoide_ranking
from benchmarks.quality.variants import fuse_max_scaled
from omoide.errors import ConfigError
from omoide.memory.config import MemoryConfig, RecallConfig
from omoide.memory.ranking import FusionConfig, FusionMethod, RankingWeights, fuse_relevance

CANDIDATES = 50
"""Hits per list in the quality benchmark (``benchmarks.quality.systems.CANDIDATES``)."""
DEPTH = 50
NEIGHBOUR_WEIGHTS = (0.1, 0.2, 0.3, 0.5)
EXPANSIONS = ((3, 0.3), (3, 0.4), (3, 0.5), (3, 0.6), (3, 0.8), (5, 0.5), (10, 0.5))
"""(N, F) of the ``exN fF`` variants."""

LEGEND = (
    "Each variant is omoide's recall ranking (weighted-sum fusion v0.5/k0.5 of the two "
    "store searches, 50 hits each, then relevance 1 / recency 0.1 / importance 0.25) "
    "with the change its name says: `unstemmed` keyword analysis without stemming, "
    "`expanded` keyword search with pseudo-relevance feedback (5 terms of the 3 best "
    "keyword hits added at half weight), "
    "`cN` N hits per search, `vX` vector weight X (keyword 1 - X), `rrfK` reciprocal-rank "
    "fusion with k = K, `max` each list divided by its best score, `z` each list as "
    "z-scores, `kmax` the keyword list divided by its best score, `relonly` relevance "
    "alone, `imp0` no importance. Conversation neighbours (each episode's timeline "
    "neighbours: the episodes of the same scope recorded just before and just after it, "
    "none after the question): `nbL` every candidate's ranking total plus L x the best "
    "total among its neighbours (neighbours outside the candidates count 0; the product "
    "would look up the neighbours' ids of its ~100 candidates by time, no text or vectors), "
    "`gap1h` only neighbours recorded within an hour of the episode, `exN fF` the neighbours "
    "of the N best candidates join the candidates (or are raised) with F x that candidate's "
    "total (the product would fetch up to 2N more episodes by time). Sections marked "
    'contextual vectors rank a fresh ingestion whose units are also embedded as "previous '
    "unit's text + own text\" (previous by recorded time in the scope, within an hour; "
    "keyword index unchanged): `ctx vector` that vector search alone, `ctx` it in place of "
    "the store's vector search (the product would embed the previous episode with each new "
    "one at write time, about twice the tokens, and nothing more per query)."
)


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    order: Callable[[Pool], list[str]]


def omoide(
    *,
    keywords: str = STORE_KEYWORDS,
    fusion: FusionConfig | None = None,
    weights: RankingWeights | None = None,
    candidates: int = CANDIDATES,
    fuse: Fuse = fuse_relevance,
    vectors: str = STORE_VECTORS,
) -> Callable[[Pool], list[str]]:
    config = MemoryConfig(
        ranking=weights or RankingWeights(),
        fusion=fusion or FusionConfig(),
        recall=RecallConfig(episode_candidates=candidates, episodes_in_context=2 * candidates),
    )

    def order(pool: Pool) -> list[str]:
        keyword = pool.keyword_hits(keywords)
        vector, keyword = vector_hits(pool, vectors)[:candidates], keyword[:candidates]
        return omoide_ranking(vector, keyword, config, pool, fuse)[:DEPTH]

    return order


def keyword_only(keywords: str) -> Callable[[Pool], list[str]]:
    def order(pool: Pool) -> list[str]:
        hits = pool.keyword_hits(keywords)
        return [unit_of(hit.item) for hit in hits[:DEPTH]]

    return order


def vector_only(pool: Pool) -> list[str]:
    return [unit_of(hit.item) for hit in pool.vector[:DEPTH]]


def contextual_only(pool: Pool) -> list[str]:
    return [unit_of(hit.item) for hit in vector_hits(pool, CONTEXTUAL)[:DEPTH]]


def fuse_z_scores(
    vector_scores: Mapping[str, float], keyword_scores: Mapping[str, float], *, config: FusionConfig
) -> dict[str, float]:
    """Weighted mean of each list's z-scores (an id missing from a list gets that list's
    lowest z-score), min-max scaled to [0, 1]; best first, ties by id."""
    lists = [
        (scores, weight)
        for scores, weight in (
            (vector_scores, config.vector_weight),
            (keyword_scores, config.keyword_weight),
        )
        if scores and weight > 0
    ]
    if not lists:
        return {}
    ids = sorted({*vector_scores, *keyword_scores})
    fused = dict.fromkeys(ids, 0.0)
    for scores, weight in lists:
        values = list(scores.values())
        mean = statistics.fmean(values)
        spread = statistics.pstdev(values) or 1.0
        floor = (min(values) - mean) / spread
        for item_id in ids:
            z = (scores[item_id] - mean) / spread if item_id in scores else floor
            fused[item_id] += weight * z
    low, high = min(fused.values()), max(fused.values())
    width = high - low if high - low > 0 and math.isfinite(high - low) else 1.0
    scaled = {item_id: (value - low) / width for item_id, value in fused.items()}
    return dict(sorted(scaled.items(), key=lambda pair: (-pair[1], pair[0])))


def fuse_keywords_max_scaled(
    vector_scores: Mapping[str, float], keyword_scores: Mapping[str, float], *, config: FusionConfig
) -> dict[str, float]:
    """omoide's weighted sum with the keyword list divided by its best score instead of
    min-max scaled (the vector list as today): a keyword hit half as strong as the best
    keeps half the credit, where min-max gives the weakest of the hits 0."""
    best = max(keyword_scores.values(), default=0.0)
    if best <= 0:
        return fuse_relevance(vector_scores, keyword_scores, config=config)
    scaled = {item_id: max(0.0, score) / best for item_id, score in keyword_scores.items()}
    fused = fuse_relevance(vector_scores, {**scaled, _ZERO: 0.0}, config=config)
    fused.pop(_ZERO, None)
    return fused


_ZERO = "\x00zero"
"""A phantom keyword hit scoring 0, so min-max over the keyword list keeps 0 as its floor."""


RELEVANCE_ONLY = RankingWeights(relevance=1.0, recency=0.0, importance=0.0)
NO_IMPORTANCE = RankingWeights(relevance=1.0, recency=0.1, importance=0.0)


def split(vector: float) -> FusionConfig:
    return FusionConfig(vector_weight=vector, keyword_weight=round(1.0 - vector, 6))


def rrf(k: int) -> FusionConfig:
    return FusionConfig(method=FusionMethod.RECIPROCAL_RANK, rrf_k=k)


def reranked(
    found: Timelines,
    rerank: Rerank,
    *,
    max_gap: timedelta | None = None,
    fusion: FusionConfig | None = None,
    vectors: str = STORE_VECTORS,
) -> Callable[[Pool], list[str]]:
    """Today's ranking (or with ``fusion``, or over ``vectors``) re-ranked by ``rerank``
    with conversation neighbours (:mod:`.neighbours`)."""
    config = MemoryConfig(
        fusion=fusion or FusionConfig(),
        recall=RecallConfig(episode_candidates=CANDIDATES, episodes_in_context=2 * CANDIDATES),
    )
    return neighbour_order(
        found,
        rerank,
        config,
        keyword_source=STORE_KEYWORDS,
        vector_source=vectors,
        depth=DEPTH,
        max_gap=max_gap,
    )


def propagation(weight: float) -> Rerank:
    return partial(propagate, weight=weight)


def expansion(top: int, fraction: float) -> Rerank:
    return partial(expand, top=top, fraction=fraction)


def neighbour_variants(found: Timelines) -> list[Variant]:
    hour = timedelta(hours=1)
    return [
        *(
            Variant(f"nb{weight:g}", reranked(found, propagation(weight)))
            for weight in NEIGHBOUR_WEIGHTS
        ),
        Variant("nb0.3 gap1h", reranked(found, propagation(0.3), max_gap=hour)),
        *(
            Variant(f"ex{top} f{fraction:g}", reranked(found, expansion(top, fraction)))
            for top, fraction in EXPANSIONS
        ),
        Variant("v0.3 nb0.3", reranked(found, propagation(0.3), fusion=split(0.3))),
        Variant("v0.3 ex3 f0.5", reranked(found, expansion(3, 0.5), fusion=split(0.3))),
        Variant("v0.3 ex3 f0.4", reranked(found, expansion(3, 0.4), fusion=split(0.3))),
    ]


def contextual_variants(found: Timelines) -> list[Variant]:
    """Variants over pools that carry contextual vector hits (:mod:`.contextual`)."""
    return [
        Variant("bm25", keyword_only(STORE_KEYWORDS)),
        Variant("vector", vector_only),
        Variant("ctx vector", contextual_only),
        Variant("today", omoide()),
        Variant("v0.3", omoide(fusion=split(0.3))),
        Variant("ctx", omoide(vectors=CONTEXTUAL)),
        Variant("ctx v0.3", omoide(vectors=CONTEXTUAL, fusion=split(0.3))),
        Variant("ctx v0.7", omoide(vectors=CONTEXTUAL, fusion=split(0.7))),
        Variant("ex3 f0.5", reranked(found, expansion(3, 0.5))),
        Variant("ctx ex3 f0.5", reranked(found, expansion(3, 0.5), vectors=CONTEXTUAL)),
    ]


def all_variants(found: Timelines | None = None) -> list[Variant]:
    """Every variant; the neighbour variants rank only pools whose scope is in ``found``."""
    return [
        Variant("bm25", keyword_only(STORE_KEYWORDS)),
        Variant("bm25 unstemmed", keyword_only("unstemmed")),
        Variant("bm25 expanded", keyword_only("expanded")),
        Variant("vector", vector_only),
        Variant("today", omoide()),
        Variant("today unstemmed", omoide(keywords="unstemmed")),
        Variant("expanded", omoide(keywords="expanded")),
        Variant("relonly", omoide(weights=RELEVANCE_ONLY)),
        Variant("imp0", omoide(weights=NO_IMPORTANCE)),
        Variant("c20", omoide(candidates=20)),
        Variant("c30", omoide(candidates=30)),
        Variant("c100", omoide(candidates=100)),
        Variant("v0.3", omoide(fusion=split(0.3))),
        Variant("v0.4", omoide(fusion=split(0.4))),
        Variant("v0.6", omoide(fusion=split(0.6))),
        Variant("rrf60", omoide(fusion=rrf(60))),
        Variant("rrf10", omoide(fusion=rrf(10))),
        Variant("max", omoide(fuse=fuse_max_scaled)),
        Variant("z", omoide(fuse=fuse_z_scores)),
        Variant("z imp0", omoide(fuse=fuse_z_scores, weights=NO_IMPORTANCE)),
        Variant("z c100", omoide(fuse=fuse_z_scores, candidates=100)),
        Variant("z v0.4", omoide(fuse=fuse_z_scores, fusion=split(0.4))),
        Variant("z v0.6", omoide(fuse=fuse_z_scores, fusion=split(0.6))),
        Variant("z relonly", omoide(fuse=fuse_z_scores, weights=RELEVANCE_ONLY)),
        Variant("v0.4 c100", omoide(fusion=split(0.4), candidates=100)),
        Variant("kmax", omoide(fuse=fuse_keywords_max_scaled)),
        Variant("kmax c100", omoide(fuse=fuse_keywords_max_scaled, candidates=100)),
        Variant("kmax v0.4", omoide(fuse=fuse_keywords_max_scaled, fusion=split(0.4))),
        *neighbour_variants(found or {}),
    ]


def chosen(names: str, found: Timelines | None = None) -> list[Variant]:
    """The variants named (comma-separated), or all when ``names`` is empty."""
    every = all_variants(found)
    if not names:
        return every
    by_name = {variant.name: variant for variant in every}
    unknown = [name for name in names.split(",") if name not in by_name]
    if unknown:
        raise ConfigError(f"unknown experiment variants {unknown}; known: {sorted(by_name)}")
    return [by_name[name] for name in names.split(",")]

"""The rankings :mod:`benchmarks.quality.experiments` compares, each a :class:`Variant`.

Every omoide variant is today's recall ranking (``Recaller._rank``: ``fuse_relevance`` on
the embedder's calibrated scale, then ``rank``, then the timeline neighbours) with one
thing changed; the baselines rank one search list alone.

The variants that only made sense for the min-max ranking (reciprocal-rank fusion,
max-scaled, z-score and keyword-max-scaled fusion) were deleted with it; their numbers
stay in the history of ``benchmarks/results/quality-experiments.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from benchmarks.quality.contextual import CONTEXTUAL, STORE_VECTORS, vector_hits
from benchmarks.quality.harness import STORE_KEYWORDS, Pool, unit_of
from benchmarks.quality.neighbours import Rerank, Timelines, expand, neighbour_order, propagate
from benchmarks.quality.systems import omoide_ranking
from omoide.errors import ConfigError
from omoide.memory.config import MemoryConfig, RecallConfig
from omoide.memory.ranking import KEYWORD_HALF, FusionConfig, RankingWeights

CANDIDATES = RecallConfig().episode_candidates
"""Hits per list the recall path takes (``benchmarks.quality.systems.CANDIDATES``)."""
DEPTH = 50
NEIGHBOUR_WEIGHTS = (0.1, 0.2, 0.3, 0.5)
EXPANSIONS = ((3, 0.3), (3, 0.5), (3, 0.8), (5, 0.5))
"""(N, F) of the ``exN fF`` variants."""

LEGEND = (
    "Each variant is omoide's recall ranking (relevance: the cosine on the embedder's "
    "calibrated scale and BM25 per query term saturated at half 1, weighted mean "
    "agreement 0.5, of the two store searches with the recall path's candidate count each; "
    "times the bounded factor of recency 0.1 and importance 0.25; answers to the best "
    "asking episodes joined) with the change its name says: `unstemmed` keyword "
    "analysis without stemming, `expanded` keyword search with pseudo-relevance feedback "
    "(5 terms of the 3 best keyword hits added at half weight), `cN` N hits per search, "
    "`vX` vector weight X (keyword 1 - X), `hH` keyword half H, `relonly` relevance "
    "alone, `imp0` no importance. Conversation neighbours (each episode's timeline "
    "neighbours: the episodes of the same scope recorded just before and just after it, "
    "none after the question), over the ranking before omoide's own neighbour step: "
    "`nbL` every candidate's total plus L x the best total among its neighbours, "
    "`gap1h` only neighbours recorded within an hour, `exN fF` the neighbours of the N "
    "best candidates join with F x that candidate's total. Sections marked contextual "
    "vectors rank a fresh ingestion whose units are also embedded as the previous unit's "
    "text and its own: `ctx vector` that vector search alone, `ctx` it in place of the "
    "store's vector search."
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
    keyword_half: float = KEYWORD_HALF,
    vectors: str = STORE_VECTORS,
) -> Callable[[Pool], list[str]]:
    config = MemoryConfig(ranking=weights or RankingWeights(), fusion=fusion or FusionConfig())

    def order(pool: Pool) -> list[str]:
        vector = vector_hits(pool, vectors)[:candidates]
        keyword = pool.keyword_hits(keywords)[:candidates]
        ranked = omoide_ranking(
            pool, config, keyword_half, vector_hits=vector, keyword_hits=keyword
        )
        return ranked[:DEPTH]

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


RELEVANCE_ONLY = RankingWeights(relevance=1.0, recency=0.0, importance=0.0)
NO_IMPORTANCE = RankingWeights(relevance=1.0, recency=0.1, importance=0.0)


def agreeing(agreement: float) -> FusionConfig:
    return FusionConfig(agreement=agreement)


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
    config = MemoryConfig(fusion=fusion or FusionConfig())
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
        Variant("a0 nb0.3", reranked(found, propagation(0.3), fusion=agreeing(0.0))),
        Variant("a0 ex3 f0.5", reranked(found, expansion(3, 0.5), fusion=agreeing(0.0))),
        Variant("a0 ex3 f0.4", reranked(found, expansion(3, 0.4), fusion=agreeing(0.0))),
    ]


def contextual_variants(found: Timelines) -> list[Variant]:
    """Variants over pools that carry contextual vector hits (:mod:`.contextual`)."""
    return [
        Variant("bm25", keyword_only(STORE_KEYWORDS)),
        Variant("vector", vector_only),
        Variant("ctx vector", contextual_only),
        Variant("today", omoide()),
        Variant("a0 stemmed", omoide(fusion=agreeing(0.0))),
        Variant("ctx", omoide(vectors=CONTEXTUAL)),
        Variant("ctx a0", omoide(vectors=CONTEXTUAL, fusion=agreeing(0.0))),
        Variant("ctx a1", omoide(vectors=CONTEXTUAL, fusion=agreeing(1.0))),
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
        Variant("c50", omoide(candidates=50)),
        Variant("c100", omoide(candidates=100)),
        Variant("a0", omoide(fusion=agreeing(0.0))),
        Variant("a1", omoide(fusion=agreeing(1.0))),
        Variant("h0.5", omoide(keyword_half=0.5)),
        Variant("h2", omoide(keyword_half=2.0)),
        Variant("h4", omoide(keyword_half=4.0)),
        Variant("a1 h4", omoide(fusion=agreeing(1.0), keyword_half=4.0)),
        Variant("a0.5 c50", omoide(fusion=agreeing(0.5), candidates=50)),
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

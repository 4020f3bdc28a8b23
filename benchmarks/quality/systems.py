"""The systems compared, each a way to order one probe's :class:`Pool` of store hits.

* ``bm25``: the store's keyword search alone (``search_episode_keywords``, FTS5 BM25);
* ``vector:<embedder>``: the store's vector search alone (cosine similarity);
* ``omoide:<embedder> <config>``: omoide's ranking exactly as ``MemoryManager.search``
  does it (:func:`omoide_ranking` repeats ``Recaller._rank``: fuse the two hit lists with
  :func:`~omoide.memory.ranking.fuse_relevance`, then :func:`~omoide.memory.ranking.rank`
  by relevance, recency and importance); the run checks it against the real Recaller.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.quality.fast_rank import Features, Fuse, fast_ranking, features, recency
from benchmarks.quality.harness import STORE_KEYWORDS, Pool, unit_of
from benchmarks.quality.variants import fuse_max_scaled
from omoide.domain import Episode
from omoide.memory.config import MemoryConfig, RecallConfig
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.neighbours import answers_to, expanded_totals
from omoide.memory.ranking import (
    Candidate,
    FusionConfig,
    FusionMethod,
    RankingWeights,
    fuse_relevance,
    rank,
)
from omoide.memory.recall import importance_of
from omoide.store.base import Hit

CANDIDATES = 50
"""Hits per search list (``RecallConfig.episode_candidates``); metrics go to k = 10."""
DEPTH = 50
"""How many units of each ranking are scored (enough for every k reported)."""


class SystemKind(enum.StrEnum):
    KEYWORD = "bm25"
    VECTOR = "vector"
    OMOIDE = "omoide"


@dataclass(frozen=True, slots=True)
class Family:
    """Where keyword hits come from and how fusion scales scores.

    ``keywords`` is ``"store"`` (the store's FTS5 search) or a variant search of
    :mod:`benchmarks.quality.variants` (``"unstemmed"``); ``max_scaled`` swaps omoide's min-max
    weighted sum for :func:`~benchmarks.quality.variants.fuse_max_scaled`.
    """

    keywords: str = STORE_KEYWORDS
    max_scaled: bool = False

    @property
    def suffix(self) -> str:
        keywords = "" if self.keywords == STORE_KEYWORDS else f"+{self.keywords}"
        return keywords + ("+max" if self.max_scaled else "")


TODAY = Family()
FAMILIES = (
    TODAY,
    Family(keywords="unstemmed"),
    Family(max_scaled=True),
    Family(keywords="unstemmed", max_scaled=True),
)


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """One system: what it ranks with, and for omoide's ranking, the configuration."""

    kind: SystemKind
    embedder: str | None = None
    config: MemoryConfig | None = None
    label: str = ""
    family: Family = TODAY

    @property
    def name(self) -> str:
        if self.kind is SystemKind.KEYWORD:
            keywords = self.family.keywords
            return "bm25" if keywords == STORE_KEYWORDS else f"bm25:{keywords}"
        if self.kind is SystemKind.VECTOR:
            return f"vector:{self.embedder}"
        return f"omoide:{self.embedder}{self.family.suffix} {self.label}".strip()

    @property
    def fuse(self) -> Fuse:
        return fuse_max_scaled if self.family.max_scaled else fuse_relevance


def recall_config(fusion: FusionConfig, weights: RankingWeights) -> MemoryConfig:
    """A config that ranks every candidate of both lists (no cut at 5 episodes)."""
    recall = RecallConfig(episode_candidates=CANDIDATES, episodes_in_context=2 * CANDIDATES)
    return MemoryConfig(ranking=weights, fusion=fusion, recall=recall)


def config_label(config: MemoryConfig) -> str:
    fusion, weights = config.fusion, config.ranking
    method = "rrf" if fusion.method is FusionMethod.RECIPROCAL_RANK else "sum"
    return (
        f"{method} v{fusion.vector_weight:g}/k{fusion.keyword_weight:g} "
        f"rel{weights.relevance:g} rec{weights.recency:g} imp{weights.importance:g}"
    )


def default_config() -> MemoryConfig:
    """Today's defaults (ranking.py, config.py), with the candidate counts of this run."""
    return recall_config(FusionConfig(), RankingWeights())


REFERENCE_WEIGHTS = RankingWeights(relevance=1.0, recency=0.25, importance=0.5)
"""The ranking weights omoide shipped with before these benchmarks: stage 1 sweeps the
fusion under them and under relevance alone, whatever the code's defaults are now."""
FUSION_METHODS = (FusionMethod.WEIGHTED_SUM, FusionMethod.RECIPROCAL_RANK)
VECTOR_WEIGHTS = (0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
RECENCY_WEIGHTS = (0.0, 0.1, 0.25, 0.5)
IMPORTANCE_WEIGHTS = (0.0, 0.25, 0.5, 1.0)


def fusion_grid() -> list[MemoryConfig]:
    """Stage 1: both fusion methods x the vector/keyword split, each under relevance alone
    and under :data:`REFERENCE_WEIGHTS`."""
    configs = []
    rankings = (RankingWeights(relevance=1.0, recency=0.0, importance=0.0), REFERENCE_WEIGHTS)
    for method, vector, weights in itertools.product(FUSION_METHODS, VECTOR_WEIGHTS, rankings):
        keyword = round(1.0 - vector, 6)
        fusion = FusionConfig(method=method, vector_weight=vector, keyword_weight=keyword)
        configs.append(recall_config(fusion, weights))
    return configs


ANCHOR_FUSIONS = (
    FusionConfig(vector_weight=0.7, keyword_weight=0.3),
    FusionConfig(vector_weight=0.5, keyword_weight=0.5),
    FusionConfig(method=FusionMethod.RECIPROCAL_RANK, vector_weight=0.5, keyword_weight=0.5),
)
"""Fusions every dataset's stage 2 also covers (the previous default 0.7/0.3 among them),
so that a configuration can be compared across datasets."""


def ranking_grid(fusions: Sequence[FusionConfig]) -> list[MemoryConfig]:
    """Stage 2: recency x importance weights (relevance 1) on each fusion given and on
    the :data:`ANCHOR_FUSIONS`."""
    fusions = list(dict.fromkeys([*fusions, *ANCHOR_FUSIONS]))
    return [
        recall_config(fusion, RankingWeights(relevance=1.0, recency=recency, importance=importance))
        for fusion, recency, importance in itertools.product(
            fusions, RECENCY_WEIGHTS, IMPORTANCE_WEIGHTS
        )
    ]


def omoide_spec(embedder: str, config: MemoryConfig, family: Family = TODAY) -> SystemSpec:
    label = config_label(config)
    if family.max_scaled:
        label = label.replace("sum ", "max ", 1)
    return SystemSpec(
        SystemKind.OMOIDE, embedder=embedder, config=config, label=label, family=family
    )


def omoide_ranking(
    vector_hits: Sequence[Hit[Episode]],
    keyword_hits: Sequence[Hit[Episode]],
    config: MemoryConfig,
    pool: Pool,
    fuse: Fuse = fuse_relevance,
) -> list[str]:
    """Unit ids in the order omoide's recall path ranks these hits (``Recaller._rank``)."""
    totals = ranked_totals(vector_hits, keyword_hits, config, pool, fuse)
    return with_timeline_neighbours(totals, pool, config)[: config.recall.episodes_in_context]


def ranked_totals(
    vector_hits: Sequence[Hit[Episode]],
    keyword_hits: Sequence[Hit[Episode]],
    config: MemoryConfig,
    pool: Pool,
    fuse: Fuse = fuse_relevance,
) -> list[tuple[Episode, float]]:
    """(episode, total) best first, as ``Recaller._rank`` fuses and ranks these hits."""
    items = {hit.item.id: hit.item for hit in [*vector_hits, *keyword_hits]}
    relevance = fuse(
        {hit.item.id: hit.score for hit in vector_hits},
        {hit.item.id: hit.score for hit in keyword_hits},
        config=config.fusion,
    )
    candidates = [
        Candidate(
            item=items[item_id],
            relevance=score,
            importance=importance_of(items[item_id]),
            last_activity=last_reinforced_at(items[item_id]),
        )
        for item_id, score in relevance.items()
    ]
    ranked = rank(candidates, weights=config.ranking, now=pool.probe.now)
    return [(entry.item, entry.total) for entry in ranked]


def with_timeline_neighbours(
    ranked: Sequence[tuple[Episode, float]], pool: Pool, config: MemoryConfig
) -> list[str]:
    """Unit ids after the recall path joins answers to its best asking episodes
    (:mod:`omoide.memory.neighbours`), of a ranking given as (episode, total) best first.

    Keyed by episode id, as the recall path does: a haystack may hold a unit twice."""
    settings = config.recall.neighbours
    if not settings.enabled:
        return [unit_of(episode) for episode, _ in ranked]
    lent = {
        episode.id: [
            answer.id
            for answer in answers_to(episode, pool.neighbours.get(episode.id, ()), settings)
        ]
        for episode, _ in ranked[: settings.best]
    }
    episodes = {episode.id: episode for found in pool.neighbours.values() for episode in found}
    episodes.update((episode.id, episode) for episode, _ in ranked)
    expanded = expanded_totals(
        [(episode.id, total) for episode, total in ranked],
        lent,
        best=settings.best,
        share=settings.share,
    )
    return [unit_of(episodes[episode_id]) for episode_id, _, _ in expanded]


def exact_order(spec: SystemSpec, pool: Pool) -> list[str]:
    """The system's ranking of ``pool`` computed with omoide's own ``rank``."""
    keyword = pool.keyword_hits(spec.family.keywords)
    if spec.kind is SystemKind.KEYWORD:
        return [unit_of(hit.item) for hit in keyword][:DEPTH]
    if spec.kind is SystemKind.VECTOR:
        return [unit_of(hit.item) for hit in pool.vector][:DEPTH]
    if spec.config is None:
        raise ValueError(f"system {spec.name} needs a config")
    return omoide_ranking(pool.vector, keyword, spec.config, pool, spec.fuse)[:DEPTH]


class PoolRanker:
    """Ranks one pool for many systems, sharing fused features between weightings."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._features: dict[tuple[Family, FusionConfig], Features] = {}
        self._recency: dict[tuple[Family, FusionConfig, float], list[float]] = {}

    def order(self, spec: SystemSpec) -> list[str]:
        if spec.kind is not SystemKind.OMOIDE or spec.config is None:
            return exact_order(spec, self.pool)
        config = spec.config
        family = spec.family
        found = self._features.get((family, config.fusion))
        if found is None:
            hits = self.pool.keyword_hits(family.keywords)
            found = features(self.pool, hits, config.fusion, spec.fuse)
            self._features[(family, config.fusion)] = found
        decay = config.ranking.recency_decay_per_hour
        scaled = self._recency.get((family, config.fusion, decay))
        if scaled is None:
            scaled = recency(found, self.pool, decay)
            self._recency[(family, config.fusion, decay)] = scaled
        limit = min(DEPTH, config.recall.episodes_in_context)
        ranked = fast_ranking(found, scaled, config.ranking)
        return with_timeline_neighbours(ranked, self.pool, config)[:limit]

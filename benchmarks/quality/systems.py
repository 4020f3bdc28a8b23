"""The systems compared, each a way to order one probe's :class:`Pool` of store hits.

* ``bm25``: the store's keyword search alone (``search_episode_keywords``, FTS5 BM25);
* ``vector:<embedder>``: the store's vector search alone (cosine similarity);
* ``omoide:<embedder> <config>``: omoide's ranking exactly as ``MemoryManager.search``
  does it (``Recaller.look_up(for_prompt=False)``): :func:`omoide_ranking` fuses the two
  hit lists with :func:`~omoide.memory.ranking.fuse_relevance` on the embedder's
  calibrated scale, ranks them with :func:`~omoide.memory.ranking.rank` (relevance times
  a bounded factor of recency and importance), then joins the answers to the best
  asking episodes (:mod:`omoide.memory.neighbours`); the run checks it against the real
  Recaller.

The grid covers what is tunable on this ranking: the fusion's vector/keyword weights,
the BM25 per query term at which keyword relevance is 0.5 (``RelevanceScale.keyword_half``)
and the recency and importance weights (0 or the default).
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.quality.fast_rank import Features, fast_ranking, features, fused
from benchmarks.quality.fast_rank import recency as recencies_of
from benchmarks.quality.harness import Pool, unit_of
from omoide.domain import Episode
from omoide.memory.config import MemoryConfig, RecallConfig
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.neighbours import answers_to, expanded_totals
from omoide.memory.ranking import KEYWORD_HALF, Candidate, FusionConfig, RankingWeights, rank
from omoide.memory.recall import importance_of
from omoide.store.base import Hit

CANDIDATES = RecallConfig().episode_candidates
"""Hits per search list, as the recall path searches by default."""
DEPTH = 50
"""How many units of each ranking are scored (enough for every k reported)."""


class SystemKind(enum.StrEnum):
    KEYWORD = "bm25"
    VECTOR = "vector"
    OMOIDE = "omoide"


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """One system: what it ranks with, and for omoide's ranking, the configuration."""

    kind: SystemKind
    embedder: str | None = None
    config: MemoryConfig = field(default_factory=MemoryConfig)
    keyword_half: float = KEYWORD_HALF

    @property
    def name(self) -> str:
        if self.kind is SystemKind.KEYWORD:
            return "bm25"
        if self.kind is SystemKind.VECTOR:
            return f"vector:{self.embedder}"
        return f"omoide:{self.embedder} {config_label(self.config, self.keyword_half)}"


def config_label(config: MemoryConfig, keyword_half: float = KEYWORD_HALF) -> str:
    fusion, weights = config.fusion, config.ranking
    return (
        f"a{fusion.agreement:g} h{keyword_half:g} "
        f"rel{weights.relevance:g} rec{weights.recency:g} imp{weights.importance:g}"
    )


def default_spec(embedder: str) -> SystemSpec:
    """Today's defaults (``MemoryConfig()``, ``RelevanceScale``'s keyword half)."""
    return SystemSpec(SystemKind.OMOIDE, embedder=embedder)


def default_name(embedder: str) -> str:
    return default_spec(embedder).name


AGREEMENTS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""How much the weaker search adds to the stronger (``FusionConfig.agreement``)."""
KEYWORD_HALVES = (0.5, 1.0, 2.0, 4.0)
DEFAULT_WEIGHTS = RankingWeights()
RECENCY_WEIGHTS = (0.0, DEFAULT_WEIGHTS.recency)
IMPORTANCE_WEIGHTS = (0.0, 0.25, DEFAULT_WEIGHTS.importance)


def grid(embedder: str) -> list[SystemSpec]:
    """Every combination of fusion agreement, keyword half, recency and importance weight."""
    specs = []
    for agreement, half, recency, importance in itertools.product(
        AGREEMENTS, KEYWORD_HALVES, RECENCY_WEIGHTS, sorted(set(IMPORTANCE_WEIGHTS))
    ):
        fusion = FusionConfig(agreement=agreement)
        weights = RankingWeights(recency=recency, importance=importance)
        config = MemoryConfig(ranking=weights, fusion=fusion)
        specs.append(SystemSpec(SystemKind.OMOIDE, embedder, config, half))
    return specs


def omoide_ranking(
    pool: Pool,
    config: MemoryConfig,
    keyword_half: float = KEYWORD_HALF,
    *,
    vector_hits: Sequence[Hit[Episode]] | None = None,
    keyword_hits: Sequence[Hit[Episode]] | None = None,
) -> list[str]:
    """Unit ids in the order omoide's recall path ranks the pool's hits (or the hits
    given): ``Recaller._rank``, then the timeline neighbours."""
    totals = ranked_totals(pool, config, keyword_half, vector_hits, keyword_hits)
    return with_timeline_neighbours(totals, pool, config)


def ranked_totals(
    pool: Pool,
    config: MemoryConfig,
    keyword_half: float = KEYWORD_HALF,
    vector_hits: Sequence[Hit[Episode]] | None = None,
    keyword_hits: Sequence[Hit[Episode]] | None = None,
) -> list[tuple[Episode, float]]:
    """(episode, total) best first, as ``Recaller._rank`` fuses and ranks these hits."""
    keywords = pool.keyword if keyword_hits is None else keyword_hits
    candidates = [
        Candidate(
            item=episode,
            relevance=relevance,
            importance=importance_of(episode),
            last_activity=last_reinforced_at(episode),
        )
        for episode, relevance in fused(pool, keywords, config.fusion, keyword_half, vector_hits)
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
    """The system's ranking of ``pool``, omoide's computed with omoide's own ``rank``."""
    if spec.kind is SystemKind.KEYWORD:
        return [unit_of(hit.item) for hit in pool.keyword][:DEPTH]
    if spec.kind is SystemKind.VECTOR:
        return [unit_of(hit.item) for hit in pool.plain_vector or pool.vector][:DEPTH]
    return omoide_ranking(pool, spec.config, spec.keyword_half)[:DEPTH]


class PoolRanker:
    """Ranks one pool for many systems, sharing fused features between weightings."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._features: dict[tuple[FusionConfig, float], Features] = {}
        self._recency: dict[tuple[FusionConfig, float, float], list[float]] = {}

    def order(self, spec: SystemSpec) -> list[str]:
        if spec.kind is not SystemKind.OMOIDE:
            return exact_order(spec, self.pool)
        config, half = spec.config, spec.keyword_half
        found = self._features.get((config.fusion, half))
        if found is None:
            found = features(self.pool, self.pool.keyword, config.fusion, half)
            self._features[(config.fusion, half)] = found
        decay = config.ranking.recency_decay_per_hour
        scaled = self._recency.get((config.fusion, half, decay))
        if scaled is None:
            scaled = recencies_of(found, self.pool, decay)
            self._recency[(config.fusion, half, decay)] = scaled
        ranked = fast_ranking(found, scaled, config.ranking)
        return with_timeline_neighbours(ranked, self.pool, config)[:DEPTH]

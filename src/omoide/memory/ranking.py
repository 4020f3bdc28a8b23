"""Ranking recalled memories: fuse search scores, then weigh relevance, recency, importance.

VirtualWife's ``normalize_scores`` (seed 001) summed relevance in [0, 1], recency in (0, 1]
and an importance on a 1-10 scale, so importance alone ordered the results. Here every
component is min-max normalised over the candidate set *before* weighting, so the weights
mean what they say and a 1-10 importance scale ranks exactly like a 0-1 scale.

Two steps:

1. :func:`fuse_relevance` turns the vector and keyword (BM25) scores of one search into a
   single raw relevance in [0, 1] per candidate, by a min-max normalised weighted sum or by
   Reciprocal Rank Fusion, chosen by :class:`FusionConfig`.
2. :func:`rank` scores :class:`Candidate` items and returns them best first, each with the
   :class:`ScoreComponents` that explain its place.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from omoide.domain import as_utc
from omoide.errors import InvalidInput

T = TypeVar("T")

SECONDS_PER_HOUR = 3600.0
_SPREAD_TOLERANCE = 1e-9
"""Spreads below this fraction of the values' magnitude are float noise, not differences."""
_TOTAL_DIGITS = 9
"""Totals are compared at this many decimals, so rounding noise cannot reorder equals."""


def _check_weight(value: float, *, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number")
    if not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{name} must be a finite, non-negative number (got {value})")
    return float(value)


def _check_finite(value: float, *, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput(f"{name} must be a finite number (got {value!r})")
    return float(value)


class FusionMethod(enum.StrEnum):
    """How vector and keyword scores become one relevance."""

    WEIGHTED_SUM = "weighted_sum"
    """Each list min-max normalised over the candidates, then a weighted mean."""
    RECIPROCAL_RANK = "reciprocal_rank"
    """Weighted Reciprocal Rank Fusion: only the rank within each list counts."""


@dataclass(frozen=True, slots=True)
class FusionConfig:
    """How :func:`fuse_relevance` combines the two searches.

    Equal weights (0.5 / 0.5) by measurement: on LoCoMo and LongMemEval the weighted sum
    with 0.5 / 0.5 beat 0.7 / 0.3 and reciprocal-rank fusion for both bundled embedders
    (benchmarks/results/quality-full.md, docs/benchmarks.md). ``rrf_k`` = 60 is the
    constant of Cormack et al. (2009).
    """

    method: FusionMethod = FusionMethod.WEIGHTED_SUM
    vector_weight: float = 0.5
    keyword_weight: float = 0.5
    rrf_k: int = 60

    def __post_init__(self) -> None:
        if not isinstance(self.method, FusionMethod):
            raise InvalidInput(f"fusion method must be a FusionMethod (got {self.method!r})")
        vector = _check_weight(self.vector_weight, name="vector_weight")
        keyword = _check_weight(self.keyword_weight, name="keyword_weight")
        if vector + keyword == 0:
            raise InvalidInput("vector_weight and keyword_weight must not both be zero")
        if isinstance(self.rrf_k, bool) or not isinstance(self.rrf_k, int) or self.rrf_k < 1:
            raise InvalidInput(f"rrf_k must be a positive integer (got {self.rrf_k!r})")


@dataclass(frozen=True, slots=True)
class RankingWeights:
    """Weights of the three normalised components, and the hourly recency decay.

    Defaults: relevance 1.0, importance 0.25, recency 0.1, chosen from the quality
    benchmarks (benchmarks/results/quality-full.md): with USE, relevance alone scored best
    (0.683 mean of LoCoMo recall@10 and LongMemEval hit@10); 0.1 / 0.25 cost 1.6 % of
    that, the earlier 0.25 / 0.5 cost 12 %. A companion keeps some recency (wall-clock
    decay) and importance (what mattered to the viewer) at that small measured price.

    Relevance outweighs recency and importance together (0.35 < 1.0), so the candidate
    that best matches what the viewer is talking about beats the least relevant one
    whatever their ages and importance: of a perfectly relevant, fresh memory of
    importance 0.1 and an irrelevant, 120-day-old memory of importance 1.0, the relevant
    one wins (pinned in ``tests/memory/test_ranking.py``, as is the harder case where the
    relevant memory is also the old, unimportant one). The decay 0.99 per hour is
    Generative Agents' (half-life about 69 hours).
    """

    relevance: float = 1.0
    recency: float = 0.1
    importance: float = 0.25
    recency_decay_per_hour: float = 0.99

    def __post_init__(self) -> None:
        total = sum(
            _check_weight(value, name=name)
            for name, value in (
                ("relevance weight", self.relevance),
                ("recency weight", self.recency),
                ("importance weight", self.importance),
            )
        )
        if total == 0:
            raise InvalidInput("ranking weights must not all be zero")
        decay = _check_finite(self.recency_decay_per_hour, name="recency_decay_per_hour")
        if not 0.0 < decay <= 1.0:
            raise InvalidInput(f"recency_decay_per_hour must be in (0, 1] (got {decay})")

    @property
    def weight_sum(self) -> float:
        return self.relevance + self.recency + self.importance


@dataclass(frozen=True, slots=True)
class ScoreComponents:
    """Why a memory ranked where it did.

    ``relevance``, ``recency`` and ``importance`` are the normalised values in [0, 1] that
    were weighted; ``total`` is their weighted mean, in [0, 1]. The ``raw_`` fields are the
    values before normalisation; ``raw_recency`` is ``decay ** hours`` since last activity.
    """

    relevance: float
    recency: float
    importance: float
    total: float
    raw_relevance: float
    raw_recency: float
    raw_importance: float
    neighbour_of: str | None = None
    """Set on an episode ranked for being recorded next to this one: its components are
    that episode's, scaled (:mod:`omoide.memory.neighbours`)."""


@dataclass(frozen=True, slots=True)
class Candidate(Generic[T]):
    """One memory to rank.

    ``relevance`` is the raw relevance from :func:`fuse_relevance`; ``importance`` may be on
    any scale (only its order among the candidates matters). ``last_activity`` is when
    recency counts from: the last recall if any, else when the memory was recorded (as in
    Generative Agents, which counts from last access): a memory that keeps being useful
    stays fresh. :func:`omoide.memory.forgetting.last_reinforced_at` computes it.
    """

    item: T
    relevance: float
    importance: float
    last_activity: datetime

    def __post_init__(self) -> None:
        _check_finite(self.relevance, name="relevance")
        _check_finite(self.importance, name="importance")
        as_utc(self.last_activity, name="last_activity")


@dataclass(frozen=True, slots=True)
class Ranked(Generic[T]):
    """A ranked memory and the components of its score."""

    item: T
    components: ScoreComponents

    @property
    def total(self) -> float:
        return self.components.total


def normalise(values: Sequence[float]) -> list[float]:
    """Min-max scale ``values`` to [0, 1].

    When all values are equal (up to float noise) every one gets 1.0: the component does not
    tell the candidates apart, and each is as good as the best. This keeps a single
    candidate's total meaningful (1.0 when it is all there is) and never affects order.
    """
    if not values:
        return []
    lowest, highest = min(values), max(values)
    spread = highest - lowest
    if math.isinf(spread):  # finite values more than the largest float apart
        return normalise([value / 2 for value in values])
    if spread <= _SPREAD_TOLERANCE * max(abs(lowest), abs(highest)):
        return [1.0] * len(values)
    return [min(1.0, max(0.0, (value - lowest) / spread)) for value in values]


def _normalised_by_id(scores: Mapping[str, float], ids: Sequence[str]) -> list[float]:
    """Min-max over the ids present in ``scores``; an id missing from it gets 0."""
    present = [item_id for item_id in ids if item_id in scores]
    scaled = dict(zip(present, normalise([scores[item_id] for item_id in present]), strict=True))
    return [scaled.get(item_id, 0.0) for item_id in ids]


def _ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """1-based rank of each id by descending score, ties by id (deterministic)."""
    ordered = sorted(scores, key=lambda item_id: (-scores[item_id], item_id))
    return {item_id: position for position, item_id in enumerate(ordered, start=1)}


def _reciprocal_rank(
    scores: Sequence[Mapping[str, float]],
    weights: Sequence[float],
    ids: Sequence[str],
    k: int,
) -> list[float]:
    """Weighted RRF divided by its maximum (first in every list), so it lies in [0, 1]."""
    ranks = [_ranks(list_scores) for list_scores in scores]
    best = sum(weights) / (k + 1)
    fused = []
    for item_id in ids:
        score = sum(
            weight / (k + list_ranks[item_id])
            for weight, list_ranks in zip(weights, ranks, strict=True)
            if item_id in list_ranks
        )
        fused.append(min(1.0, score / best))
    return fused


def _weighted_sum(
    scores: Sequence[Mapping[str, float]],
    weights: Sequence[float],
    ids: Sequence[str],
) -> list[float]:
    """Each list min-max normalised over its own hits (missing: 0), then a weighted mean."""
    columns = [_normalised_by_id(list_scores, ids) for list_scores in scores]
    return [
        min(1.0, sum(w * value for w, value in zip(weights, row, strict=True)) / sum(weights))
        for row in zip(*columns, strict=True)
    ]


def fuse_relevance(
    vector_scores: Mapping[str, float],
    keyword_scores: Mapping[str, float],
    *,
    config: FusionConfig,
) -> dict[str, float]:
    """One raw relevance in [0, 1] per candidate id, best first (ties by id).

    ``vector_scores`` are similarities (higher is closer) and ``keyword_scores`` BM25 scores
    (higher is better), each keyed by memory id. Scales never mix: the weighted sum
    normalises each list over its own hits first, and RRF uses ranks only. A list with no
    hits at all says nothing about anyone, so its weight is left out (the best hit of the
    other list then gets 1.0 rather than ``vector_weight / (vector_weight + keyword_weight)``).
    """
    for scores, name in ((vector_scores, "vector score"), (keyword_scores, "keyword score")):
        for item_id, score in scores.items():
            _check_finite(score, name=f"{name} of {item_id!r}")
    lists = tuple(
        (list_scores, weight)
        for list_scores, weight in (
            (vector_scores, config.vector_weight),
            (keyword_scores, config.keyword_weight),
        )
        if list_scores and weight > 0
    )
    if not lists:
        return {}
    scores_used = tuple(list_scores for list_scores, _ in lists)
    weights = tuple(weight for _, weight in lists)
    ids = sorted({*vector_scores, *keyword_scores})
    if config.method is FusionMethod.RECIPROCAL_RANK:
        fused = _reciprocal_rank(scores_used, weights, ids, config.rrf_k)
    else:
        fused = _weighted_sum(scores_used, weights, ids)
    ordered = sorted(zip(ids, fused, strict=True), key=lambda pair: (-pair[1], pair[0]))
    return dict(ordered)


def raw_recency(last_activity: datetime, *, now: datetime, decay_per_hour: float) -> float:
    """``decay ** hours`` since ``last_activity``; 1.0 for anything at or after ``now``."""
    hours = (as_utc(now, name="now") - as_utc(last_activity)).total_seconds() / SECONDS_PER_HOUR
    return float(decay_per_hour ** max(0.0, hours))


def _score(
    candidates: Sequence[Candidate[T]], weights: RankingWeights, now: datetime
) -> list[Ranked[T]]:
    recency = [
        raw_recency(c.last_activity, now=now, decay_per_hour=weights.recency_decay_per_hour)
        for c in candidates
    ]
    relevance = [c.relevance for c in candidates]
    importance = [c.importance for c in candidates]
    scaled = zip(normalise(relevance), normalise(recency), normalise(importance), strict=True)
    ranked = []
    for index, (rel, rec, imp) in enumerate(scaled):
        weighted = weights.relevance * rel + weights.recency * rec + weights.importance * imp
        components = ScoreComponents(
            relevance=rel,
            recency=rec,
            importance=imp,
            total=min(1.0, max(0.0, weighted / weights.weight_sum)),
            raw_relevance=relevance[index],
            raw_recency=recency[index],
            raw_importance=importance[index],
        )
        ranked.append(Ranked(item=candidates[index].item, components=components))
    return ranked


def rank(
    candidates: Sequence[Candidate[T]], *, weights: RankingWeights, now: datetime
) -> list[Ranked[T]]:
    """Score every candidate and return them best first.

    Ties on the total (compared at 9 decimals) go to higher raw relevance, then higher raw
    importance, then the more recent activity, then input order.
    """
    as_utc(now, name="now")
    ranked = _score(candidates, weights, now)

    def order(index: int) -> tuple[float, float, float, float, int]:
        components = ranked[index].components
        moment = candidates[index].last_activity.timestamp()
        rounded = round(components.total, _TOTAL_DIGITS)
        return (-rounded, -components.raw_relevance, -components.raw_importance, -moment, index)

    return [ranked[index] for index in sorted(range(len(ranked)), key=order)]

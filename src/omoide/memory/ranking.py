"""Ranking recalled memories on honest, absolute scales.

VirtualWife's ``normalize_scores`` (seed 001) summed relevance in [0, 1], recency in (0, 1]
and an importance on a 1-10 scale, so importance alone ordered the results. An earlier
omoide rescaled every component min-max over the query's own candidates: the best of a
pool of unrelated turns then got relevance 1.0, recency seven seconds apart became 0 vs 1,
and importance 0.56 vs 0.58 became 0 vs 1. Here nothing is rescaled per query; every
component keeps a meaning that holds across queries:

* **Relevance** (:func:`fuse_relevance`): a cosine is placed on the embedding model's own
  calibrated scale (:class:`RelevanceScale`: 0 at the similarity of unrelated statements,
  1 at that of paraphrases), a BM25 score is taken per query term and saturated
  (``x / (x + half)``), and the stronger of the two decides, the other adding a share
  (:class:`FusionConfig`). A pool of unrelated memories stays low, whatever its best
  member.
* **Recency** is ``decay ** hours`` since the last activity (Generative Agents' 0.99 per
  hour), **importance** the stored value in [0, 1].
* The total is relevance scaled by a bounded factor of recency and importance
  (:class:`RankingWeights`): recency and importance reorder memories that are about
  equally relevant and can never lift an irrelevant one.

:func:`rank` scores :class:`Candidate` items and returns them best first, each with the
:class:`ScoreComponents` that explain its place, including the raw cosine and BM25.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from omoide.domain import as_utc
from omoide.errors import InvalidInput

T = TypeVar("T")

SECONDS_PER_HOUR = 3600.0
_TOTAL_DIGITS = 9
"""Totals are compared at this many decimals, so rounding noise cannot reorder equals."""
KEYWORD_HALF = 2.0
"""BM25 per query term at which keyword relevance is 0.5 (see :class:`RelevanceScale`)."""


def _check_weight(value: float, *, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number")
    if not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{name} must be a finite, non-negative number (got {value})")
    return float(value)


def _is_finite_number(value: object) -> bool:
    if type(value) is float:  # the usual case, answered without the checks below
        return math.isfinite(value)
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _check_finite(value: float, *, name: str) -> float:
    if not _is_finite_number(value):
        raise InvalidInput(f"{name} must be a finite number (got {value!r})")
    return float(value)


def _check_unit(value: float, *, name: str) -> float:
    if type(value) is float and 0.0 <= value <= 1.0:  # every candidate's scores
        return value
    checked = _check_finite(value, name=name)
    if not 0.0 <= checked <= 1.0:
        raise InvalidInput(f"{name} must be in [0, 1] (got {checked})")
    return checked


@dataclass(frozen=True, slots=True)
class RelevanceScale:
    """Where an embedding model's cosines and a query's BM25 mean "related".

    ``cosine_unrelated`` is the similarity the model gives statements about different
    things, ``cosine_related`` the one it gives paraphrases; both come from the model's
    calibration (:mod:`omoide.memory.relevance`). A cosine maps linearly from the first
    (0) to the second (1), clamped. ``keyword_half`` is the BM25 score per query term at
    which keyword relevance reaches 0.5: a query whose every term matches rare words of
    a memory scores near 1, one rare shared word among many terms stays low.
    """

    cosine_unrelated: float
    cosine_related: float
    keyword_half: float = KEYWORD_HALF

    def __post_init__(self) -> None:
        low = _check_finite(self.cosine_unrelated, name="cosine_unrelated")
        high = _check_finite(self.cosine_related, name="cosine_related")
        if high <= low:
            raise InvalidInput(f"cosine_related ({high}) must be above cosine_unrelated ({low})")
        half = _check_finite(self.keyword_half, name="keyword_half")
        if half <= 0:
            raise InvalidInput(f"keyword_half must be positive (got {half})")

    def of_cosine(self, cosine: float) -> float:
        spread = self.cosine_related - self.cosine_unrelated
        return min(1.0, max(0.0, (cosine - self.cosine_unrelated) / spread))

    def of_keywords(self, bm25: float, query_terms: int) -> float:
        per_term = max(0.0, bm25) / max(1, query_terms)
        return per_term / (per_term + self.keyword_half)


@dataclass(frozen=True, slots=True)
class FusionConfig:
    """How :func:`fuse_relevance` combines the two searches.

    The stronger of the two relevances decides and the other adds ``agreement`` times
    itself: ``max(meaning, words) + agreement * min(meaning, words)``, at most 1
    (CombMAX with an agreement bonus, after Fox and Shaw's combination methods). A memory
    one search alone finds keeps its full relevance there: a weighted mean halved it, so
    a clear paraphrase without a shared word fell under the prompt's gate. 0.5 was chosen
    on the dev halves of LoCoMo, LongMemEval and MemoryBank (docs/benchmarks.md).
    """

    agreement: float = 0.5

    def __post_init__(self) -> None:
        agreement = _check_weight(self.agreement, name="agreement")
        if agreement > 1:
            raise InvalidInput(f"agreement must be in [0, 1] (got {agreement})")


@dataclass(frozen=True, slots=True)
class Relevance:
    """A memory's fused relevance in [0, 1] and the raw scores it came from."""

    value: float
    cosine: float | None = None
    bm25: float | None = None
    associated: bool = False
    """Lifted for what it is about, not found alike (:mod:`omoide.memory.associations`)."""

    @property
    def raw(self) -> float:
        """The raw score computed: the cosine if the vector search found it, else BM25."""
        if self.cosine is not None:
            return self.cosine
        return 0.0 if self.bm25 is None else self.bm25


def fuse_relevance(
    vector_scores: Mapping[str, float],
    keyword_scores: Mapping[str, float],
    *,
    scale: RelevanceScale,
    query_terms: int,
    config: FusionConfig,
) -> dict[str, Relevance]:
    """One absolute relevance per candidate id, best first (ties by id).

    ``vector_scores`` are cosines and ``keyword_scores`` BM25 scores (higher is better),
    keyed by memory id; ``query_terms`` is how many terms the keyword search looked for.
    A memory one search did not find scores 0 there.
    """
    for scores, name in ((vector_scores, "vector score"), (keyword_scores, "keyword score")):
        for item_id, score in scores.items():
            if not _is_finite_number(score):  # the message is built only for a bad score
                _check_finite(score, name=f"{name} of {item_id!r}")
    fused: dict[str, Relevance] = {}
    for item_id in {*vector_scores, *keyword_scores}:  # ordered below, ties by id
        cosine, bm25 = vector_scores.get(item_id), keyword_scores.get(item_id)
        by_meaning = 0.0 if cosine is None else scale.of_cosine(cosine)
        by_words = 0.0 if bm25 is None else scale.of_keywords(bm25, query_terms)
        combined = max(by_meaning, by_words) + config.agreement * min(by_meaning, by_words)
        fused[item_id] = Relevance(min(1.0, combined), cosine, bm25)
    return dict(sorted(fused.items(), key=lambda pair: (-pair[1].value, pair[0])))


@dataclass(frozen=True, slots=True)
class RankingWeights:
    """How much recency and importance may move a memory, and the hourly recency decay.

    The total is ``relevance * (w_rel + w_rec * recency + w_imp * importance) / sum``:
    relevance scaled by a factor between ``w_rel / sum`` (an old, unimportant memory) and
    1 (a fresh, important one). With the defaults 1.0 / 0.1 / 0.25 the factor lies in
    [0.74, 1]: among memories about equally relevant the fresher and more important ones
    come first, and no age or importance lifts an irrelevant memory (relevance 0 gives a
    total of 0). The decay 0.99 per hour is Generative Agents' (half-life about 69 hours).
    """

    relevance: float = 1.0
    recency: float = 0.1
    importance: float = 1.0
    recency_decay_per_hour: float = 0.99

    def __post_init__(self) -> None:
        for name, value in (
            ("recency weight", self.recency),
            ("importance weight", self.importance),
        ):
            _check_weight(value, name=name)
        if _check_weight(self.relevance, name="relevance weight") == 0:
            raise InvalidInput("the relevance weight must be positive")
        decay = _check_finite(self.recency_decay_per_hour, name="recency_decay_per_hour")
        if not 0.0 < decay <= 1.0:
            raise InvalidInput(f"recency_decay_per_hour must be in (0, 1] (got {decay})")

    @property
    def weight_sum(self) -> float:
        return self.relevance + self.recency + self.importance

    def factor(self, recency: float, importance: float) -> float:
        """The bounded factor, in [relevance / weight_sum, 1]."""
        weighted = self.relevance + self.recency * recency + self.importance * importance
        return weighted / self.weight_sum


@dataclass(frozen=True, slots=True)
class ScoreComponents:
    """Why a memory ranked where it did, every value on its own absolute scale.

    ``relevance`` is the fused relevance in [0, 1], ``recency`` the decay factor since the
    last activity, ``importance`` the stored importance (a fact's salience), ``total``
    relevance times the weights' bounded factor. ``cosine`` and ``bm25`` are the raw
    search scores (``None`` when that search did not find the memory); ``raw_relevance``
    is the cosine when there is one, else the BM25 score. ``raw_recency`` and
    ``raw_importance`` equal ``recency`` and ``importance``: nothing is rescaled.
    """

    relevance: float
    recency: float
    importance: float
    total: float
    raw_relevance: float
    raw_recency: float
    raw_importance: float
    cosine: float | None = None
    bm25: float | None = None
    neighbour_of: str | None = None
    """Set on an episode ranked for being recorded next to this one: its components are
    that episode's, scaled (:mod:`omoide.memory.neighbours`)."""
    associated: bool = False
    """Set when ``relevance`` is the lift an exchange gets for being about what the message
    cues, not its search relevance (:mod:`omoide.memory.associations`)."""


@dataclass(frozen=True, slots=True)
class Candidate(Generic[T]):
    """One memory to rank.

    ``relevance`` comes from :func:`fuse_relevance`; ``importance`` is in [0, 1].
    ``last_activity`` is when recency counts from: the last recall if any, else when the
    memory was recorded (as in Generative Agents, which counts from last access): a
    memory that keeps being useful stays fresh
    (:func:`omoide.memory.forgetting.last_reinforced_at`).
    """

    item: T
    relevance: Relevance
    importance: float
    last_activity: datetime

    def __post_init__(self) -> None:
        _check_unit(self.relevance.value, name="relevance")
        _check_unit(self.importance, name="importance")
        as_utc(self.last_activity, name="last_activity")


@dataclass(frozen=True, slots=True)
class Ranked(Generic[T]):
    """A ranked memory and the components of its score."""

    item: T
    components: ScoreComponents

    @property
    def total(self) -> float:
        return self.components.total


def raw_recency(last_activity: datetime, *, now: datetime, decay_per_hour: float) -> float:
    """``decay ** hours`` since ``last_activity``; 1.0 for anything at or after ``now``."""
    hours = (as_utc(now, name="now") - as_utc(last_activity)).total_seconds() / SECONDS_PER_HOUR
    return float(decay_per_hour ** max(0.0, hours))


def score(candidate: Candidate[T], *, weights: RankingWeights, now: datetime) -> Ranked[T]:
    """``candidate`` with its components on their absolute scales."""
    recency = raw_recency(
        candidate.last_activity, now=now, decay_per_hour=weights.recency_decay_per_hour
    )
    relevance = candidate.relevance
    total = relevance.value * weights.factor(recency, candidate.importance)
    components = ScoreComponents(
        relevance=relevance.value,
        recency=recency,
        importance=candidate.importance,
        total=min(1.0, max(0.0, total)),
        raw_relevance=relevance.raw,
        raw_recency=recency,
        raw_importance=candidate.importance,
        cosine=relevance.cosine,
        bm25=relevance.bm25,
        associated=relevance.associated,
    )
    return Ranked(item=candidate.item, components=components)


def rank(
    candidates: Sequence[Candidate[T]], *, weights: RankingWeights, now: datetime
) -> list[Ranked[T]]:
    """Score every candidate and return them best first.

    Ties on the total (compared at 9 decimals) go to higher relevance, then higher
    importance, then the more recent activity, then input order.
    """
    as_utc(now, name="now")
    ranked = [score(candidate, weights=weights, now=now) for candidate in candidates]

    def order(index: int) -> tuple[float, float, float, float, int]:
        components = ranked[index].components
        moment = candidates[index].last_activity.timestamp()
        rounded = round(components.total, _TOTAL_DIGITS)
        return (-rounded, -components.relevance, -components.importance, -moment, index)

    return [ranked[index] for index in sorted(range(len(ranked)), key=order)]

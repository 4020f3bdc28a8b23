"""Choosing the cosine threshold above which two facts are near-duplicates, per model.

Similarities live on model-specific ranges: USE puts unrelated sentences near 0.1-0.3,
while e5 puts them near 0.75-0.8 and similar-looking but different facts above 0.9. A
fixed threshold is therefore wrong for all but one model. :func:`calibrate_duplicate_threshold`
embeds a small multilingual set of paraphrase pairs (same fact, to merge) and different-
fact pairs (similar form, never to merge) and picks the threshold that minimises

    missed paraphrases + false_merge_cost * false merges

placed in the middle of the widest gap between observed similarities that reaches that
minimum. A false merge loses a fact, a missed one only keeps a duplicate, hence the
default cost of 2. The result depends only on the model and the pairs, so it can be
cached (:class:`ThresholdCache`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from omoide.domain import Matrix
from omoide.embed.base import Embedder
from omoide.embed.calibration_pairs import DIFFERENT_FACT_PAIRS, PARAPHRASE_PAIRS
from omoide.errors import InvalidInput

Pair = tuple[str, str]
DEFAULT_FALSE_MERGE_COST = 2.0


@dataclass(frozen=True, slots=True)
class SimilarityStats:
    """The distribution of cosine similarities over one set of pairs."""

    count: int
    mean: float
    minimum: float
    low_quantile: float  # 10th percentile
    median: float
    high_quantile: float  # 90th percentile
    maximum: float

    @classmethod
    def of(cls, similarities: NDArray[np.float64]) -> SimilarityStats:
        low, median, high = np.quantile(similarities, [0.1, 0.5, 0.9])
        return cls(
            count=int(similarities.size),
            mean=float(similarities.mean()),
            minimum=float(similarities.min()),
            low_quantile=float(low),
            median=float(median),
            high_quantile=float(high),
            maximum=float(similarities.max()),
        )


@dataclass(frozen=True, slots=True)
class DuplicateThreshold:
    """Merge two facts when their cosine similarity is at least ``threshold``.

    ``accuracy`` is the fraction of calibration pairs the threshold classifies right;
    ``calibration_set`` identifies the pairs used (see :func:`calibration_set_id`).
    """

    model_name: str
    threshold: float
    paraphrases: SimilarityStats
    different_facts: SimilarityStats
    accuracy: float
    missed_paraphrases: int
    false_merges: int
    false_merge_cost: float
    calibration_set: str

    def is_duplicate(self, similarity: float) -> bool:
        return similarity >= self.threshold


def calibration_set_id(paraphrases: Sequence[Pair], different_facts: Sequence[Pair]) -> str:
    """A short stable fingerprint of a calibration set (changes when any pair changes)."""
    encoded = json.dumps([list(paraphrases), list(different_facts)], ensure_ascii=False)
    return hashlib.blake2b(encoded.encode("utf-8"), digest_size=8).hexdigest()


CALIBRATION_SET_ID = calibration_set_id(PARAPHRASE_PAIRS, DIFFERENT_FACT_PAIRS)


async def calibrate_duplicate_threshold(
    embedder: Embedder,
    *,
    paraphrases: Sequence[Pair] = PARAPHRASE_PAIRS,
    different_facts: Sequence[Pair] = DIFFERENT_FACT_PAIRS,
    false_merge_cost: float = DEFAULT_FALSE_MERGE_COST,
) -> DuplicateThreshold:
    """Embed both pair sets as documents (facts are stored as documents) and choose."""
    _check_pairs(paraphrases, name="paraphrases")
    _check_pairs(different_facts, name="different_facts")
    if not math.isfinite(false_merge_cost) or false_merge_cost <= 0:
        raise InvalidInput(f"false_merge_cost must be positive (got {false_merge_cost})")
    paraphrase_scores = await pair_similarities(embedder, paraphrases)
    different_scores = await pair_similarities(embedder, different_facts)
    threshold = choose_threshold(
        paraphrase_scores, different_scores, false_merge_cost=false_merge_cost
    )
    missed = int((paraphrase_scores < threshold).sum())
    false_merges = int((different_scores >= threshold).sum())
    total = paraphrase_scores.size + different_scores.size
    return DuplicateThreshold(
        model_name=embedder.model_name,
        threshold=threshold,
        paraphrases=SimilarityStats.of(paraphrase_scores),
        different_facts=SimilarityStats.of(different_scores),
        accuracy=(total - missed - false_merges) / total,
        missed_paraphrases=missed,
        false_merges=false_merges,
        false_merge_cost=false_merge_cost,
        calibration_set=calibration_set_id(paraphrases, different_facts),
    )


async def pair_similarities(embedder: Embedder, pairs: Sequence[Pair]) -> NDArray[np.float64]:
    """Cosine similarity of each pair, embedding all texts in one call."""
    texts = [text for pair in pairs for text in pair]
    matrix: Matrix = await embedder.embed_documents(texts)
    wide = matrix.astype(np.float64)
    similarities: NDArray[np.float64] = np.clip(
        np.einsum("ij,ij->i", wide[0::2], wide[1::2]), -1.0, 1.0
    )
    return similarities


def choose_threshold(
    paraphrase_scores: NDArray[np.float64],
    different_scores: NDArray[np.float64],
    *,
    false_merge_cost: float,
) -> float:
    """The threshold of least cost, mid-gap; ties go to the wider gap, then the higher one.

    A candidate sits in the middle of every gap between consecutive distinct similarities,
    just below all of them (merge every pair) and above all of them (merge none); the two
    outer candidates count as gaps of width 0.
    """
    edges = np.unique(np.concatenate([paraphrase_scores, different_scores]))
    candidates = [(float(edges[0]) - 1e-3, 0.0), (_above(float(edges[-1])), 0.0)]
    candidates += [
        (_between(float(lower), float(upper)), float(upper - lower))
        for lower, upper in pairwise(edges)
    ]
    best: tuple[float, float, float] | None = None
    for threshold, gap in candidates:
        missed = float((paraphrase_scores < threshold).sum())
        merged_wrongly = float((different_scores >= threshold).sum())
        key = (missed + false_merge_cost * merged_wrongly, -gap, -threshold)
        if best is None or key < best:
            best = key
    assert best is not None  # there are always the two outer candidates
    return -best[2]


def _between(lower: float, upper: float) -> float:
    """The middle of a gap, or its upper edge when the gap is too narrow for a float
    strictly inside it (the threshold must still split ``lower`` from ``upper``)."""
    middle = (lower + upper) / 2
    return middle if lower < middle else upper


def _above(highest: float) -> float:
    """A threshold just above the highest similarity seen: midway to 1, or past it."""
    if highest < 1.0:
        return (highest + 1.0) / 2
    return math.nextafter(highest, math.inf)


def _check_pairs(pairs: Sequence[Pair], *, name: str) -> None:
    if len(pairs) == 0:
        raise InvalidInput(f"{name} must hold at least one pair")
    for index, pair in enumerate(pairs):
        if len(pair) != 2 or not all(isinstance(text, str) for text in pair):
            raise InvalidInput(f"{name}[{index}] must be a pair of strings")

"""Retrieval changes that would need code changes in ``src/``, measured here first.

* Stemmed keyword search. omoide's keyword analysis does no stemming ("adopted" does not
  find "adoption"). :class:`LocalBM25` is Okapi BM25 with FTS5's constants (k1 = 1.2,
  b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)) floored at a small positive number) over
  the same tokens as the store (``omoide.store.keywords``), optionally passed through the
  English Snowball stemmer. Without stemming it should rank like the store's own BM25;
  the report shows both, so the effect of stemming alone can be read off.
* Max-scaled fusion. omoide's weighted sum min-max normalises each hit list, which maps
  the weakest of 50 hits to 0 whatever its score; :func:`fuse_max_scaled` divides each
  list by its best score instead (negative similarities count as 0), so a keyword hit
  half as strong as the best keeps half the credit.
"""

from __future__ import annotations

import importlib
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from benchmarks.quality.dataset import Unit
from omoide.domain import Episode
from omoide.errors import ConfigError
from omoide.memory.ranking import FusionConfig
from omoide.store.base import Hit
from omoide.store.keywords import analyze_document, analyze_query

K1 = 1.2
B = 0.75
_SMALLEST_IDF = 1e-6

Stem = Callable[[str], str]


def snowball_english() -> Stem:
    """The English Snowball stemmer for words of Latin letters; other tokens unchanged.

    Needs PyPI ``snowballstemmer`` (pure Python), an optional benchmark dependency.
    """
    try:
        snowball = importlib.import_module("snowballstemmer")
    except ImportError as exc:
        raise ConfigError(
            "the stemmed keyword variant needs snowballstemmer (pip install snowballstemmer)"
        ) from exc
    stemmer = snowball.stemmer("english")

    def stem(token: str) -> str:
        if token.isascii() and token.isalpha():
            return str(stemmer.stemWord(token))
        return token

    return stem


def identity(token: str) -> str:
    return token


VARIANT_NAMES = ("local", "stem")
"""Keyword searches outside the store: ``local`` re-implements the store's BM25 (a check),
``stem`` adds English stemming."""


def variant_stemmers() -> dict[str, Stem]:
    return {"local": identity, "stem": snowball_english()}


class LocalBM25:
    """Okapi BM25 over one haystack's units, for comparison with the store's FTS5 BM25."""

    def __init__(self, units: Sequence[Unit], stem: Stem = identity) -> None:
        self._stem = stem
        self._units = list(units)
        self._documents = [
            Counter(stem(token) for token in analyze_document(f"{unit.text}\n{unit.reply}"))
            for unit in self._units
        ]
        self._lengths = [sum(document.values()) for document in self._documents]
        self._average = sum(self._lengths) / max(1, len(self._lengths))
        frequency: Counter[str] = Counter()
        for document in self._documents:
            frequency.update(document.keys())
        count = len(self._documents)
        self._idf = {
            token: max(_SMALLEST_IDF, math.log((count - seen + 0.5) / (seen + 0.5)))
            for token, seen in frequency.items()
        }

    def search(self, query: str, *, until: datetime, limit: int) -> list[tuple[str, float]]:
        """(unit id, score) of the best units recorded no later than ``until``."""
        terms = list(dict.fromkeys(self._stem(token) for token in analyze_query(query)))
        scored = []
        for index, document in enumerate(self._documents):
            if self._units[index].at > until:
                continue
            score = self._score(document, self._lengths[index], terms)
            if score > 0:
                scored.append((self._units[index].unit_id, score))
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return scored[:limit]

    def _score(self, document: Counter[str], length: int, terms: Sequence[str]) -> float:
        total = 0.0
        norm = K1 * (1 - B + B * length / self._average) if self._average else K1
        for term in terms:
            frequency = document.get(term, 0)
            if frequency:
                total += self._idf[term] * frequency * (K1 + 1) / (frequency + norm)
        return total


def as_hits(
    found: Sequence[tuple[str, float]], episodes: Mapping[str, Episode]
) -> tuple[Hit[Episode], ...]:
    return tuple(Hit(episodes[unit_id], score) for unit_id, score in found)


def fuse_max_scaled(
    vector_scores: Mapping[str, float], keyword_scores: Mapping[str, float], *, config: FusionConfig
) -> dict[str, float]:
    """Weighted mean of each list's scores divided by that list's best score (lists with no
    hits or no weight left out, as in omoide's fusion), best first, ties by id."""
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
    total = sum(weight for _, weight in lists)
    fused = {}
    for item_id in ids:
        value = 0.0
        for scores, weight in lists:
            best = max(scores.values())
            if item_id in scores and best > 0:
                value += weight * max(0.0, scores[item_id]) / best
        fused[item_id] = min(1.0, value / total)
    return dict(sorted(fused.items(), key=lambda pair: (-pair[1], pair[0])))

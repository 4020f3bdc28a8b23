"""Keyword searches that would need code changes in ``src/``, measured here first
(by :mod:`benchmarks.quality.experiments`).

Keyword search before stemming: omoide's keyword analysis stems English words
(``omoide.store.keywords``). :class:`LocalBM25` is Okapi BM25 with FTS5's constants
(k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)) floored at a small positive
number) over the same tokens as the store, or over the tokens of the analysis before
stemming (``stem_words=False``); :meth:`LocalBM25.expanded_search` adds pseudo-relevance
feedback.

(The max-scaled fusion that was measured here against min-max normalisation is gone with
min-max itself: omoide's relevance is absolute now.)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime

from benchmarks.quality.dataset import Unit
from omoide.domain import Episode
from omoide.store.base import Hit
from omoide.store.keywords import QUERY_STOP_WORDS, analyze_document, analyze_query, stem

K1 = 1.2
B = 0.75
_SMALLEST_IDF = 1e-6
EXPANSION_WEIGHT = 0.5
_STEMMED_STOP_WORDS = frozenset(stem(word) for word in QUERY_STOP_WORDS) | QUERY_STOP_WORDS


class LocalBM25:
    """Okapi BM25 over one haystack's units, for comparison with the store's FTS5 BM25."""

    def __init__(self, units: Sequence[Unit], *, stem_words: bool = True) -> None:
        self._stem_words = stem_words
        self._units = list(units)
        self._documents = [
            Counter(analyze_document(f"{unit.text}\n{unit.reply}", stem_words=stem_words))
            for unit in self._units
        ]
        self._index = {unit.unit_id: index for index, unit in enumerate(self._units)}
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
        terms = analyze_query(query, stem_words=self._stem_words)
        return self.search_terms(dict.fromkeys(terms, 1.0), until=until, limit=limit)

    def search_terms(
        self, terms: Mapping[str, float], *, until: datetime, limit: int
    ) -> list[tuple[str, float]]:
        """As :meth:`search`, for analysed terms each weighted (BM25 term score x weight)."""
        scored = []
        for index, document in enumerate(self._documents):
            if self._units[index].at > until:
                continue
            score = self._score(document, self._lengths[index], terms)
            if score > 0:
                scored.append((self._units[index].unit_id, score))
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return scored[:limit]

    def expanded_search(
        self, query: str, *, until: datetime, limit: int, feedback: int = 3, extra: int = 5
    ) -> list[tuple[str, float]]:
        """Pseudo-relevance feedback: the query's terms (weight 1) plus the ``extra`` terms
        of the best ``feedback`` hits with the highest idf x (hits containing them), each
        weighted :data:`EXPANSION_WEIGHT`, at least two letters and not a stop word."""
        terms = dict.fromkeys(analyze_query(query, stem_words=self._stem_words), 1.0)
        first = self.search_terms(terms, until=until, limit=feedback)
        found: Counter[str] = Counter()
        for unit_id, _ in first:
            found.update(self._documents[self._index[unit_id]].keys())
        candidates = [
            (self._idf[term] * count, term)
            for term, count in found.items()
            if term not in terms and term not in _STEMMED_STOP_WORDS and len(term) > 1
        ]
        for _, term in sorted(candidates, reverse=True)[:extra]:
            terms[term] = EXPANSION_WEIGHT
        return self.search_terms(terms, until=until, limit=limit)

    def _score(self, document: Counter[str], length: int, terms: Mapping[str, float]) -> float:
        total = 0.0
        norm = K1 * (1 - B + B * length / self._average) if self._average else K1
        for term, weight in terms.items():
            frequency = document.get(term, 0)
            if frequency:
                total += weight * self._idf[term] * frequency * (K1 + 1) / (frequency + norm)
        return total


def as_hits(
    found: Sequence[tuple[str, float]], episodes: Mapping[str, Episode]
) -> tuple[Hit[Episode], ...]:
    return tuple(Hit(episodes[unit_id], score) for unit_id, score in found)

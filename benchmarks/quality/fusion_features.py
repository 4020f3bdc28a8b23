"""Per-candidate features of one pool, for the learned fusion experiment
(:mod:`benchmarks.quality.fusion`).

The candidates are those the recall path ranks: the best :data:`CANDIDATES` hits of each
store search (vector and keyword), ranked as today's ranking ranks them
(``fuse_relevance`` on the embedder's calibrated scale, then ``rank``). Every feature is
something the reply path has at hand or can compute from the candidates alone (no corpus
statistics, no store read):

* ``cosine``: the cosine on the embedder's calibrated scale (0 when the vector search did
  not find the memory), ``keywords``: BM25 per query term, saturated (0 when the keyword
  search did not find it), ``both``: their product, ``relevance``: today's fused relevance;
* ``vector_rank``, ``keyword_rank``: 1 / (1 + place) in each list (0 when absent);
* ``matched``: the share of the question's distinct keyword terms the memory holds,
  ``idf_share``: the same share weighted by each term's rarity *among the candidates*
  (``ln((n + 1) / (df + 0.5))``, at least 0), ``length``: ln(1 + the memory's tokens) —
  these three analyse every candidate's text (:data:`TEXT_FEATURES`);
* ``names``: the share of the question's capitalised words (not its first, not "I") the
  memory's text holds;
* ``recency`` (``decay ** hours``), ``importance`` (stored), ``asks``: the memory asked
  something (``omoide.memory.neighbours.asked``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from benchmarks.quality.fast_rank import fused
from benchmarks.quality.harness import Pool, unit_of
from omoide.domain import Episode
from omoide.memory.config import MemoryConfig, RecallConfig
from omoide.memory.episode_readings import asked
from omoide.memory.forgetting import last_reinforced_at
from omoide.memory.ranking import Candidate, Ranked, RelevanceScale, rank
from omoide.memory.recall import importance_of
from omoide.store.keywords import analyze_document, analyze_query

CANDIDATES = RecallConfig().episode_candidates
FEATURES = (
    "cosine",
    "keywords",
    "both",
    "relevance",
    "vector_rank",
    "keyword_rank",
    "matched",
    "idf_share",
    "names",
    "recency",
    "importance",
    "length",
    "asks",
)
TEXT_FEATURES = frozenset({"matched", "idf_share", "length"})
"""The features that need each candidate's text analysed (the costly ones)."""
_NAME = re.compile(r"\b[A-Z][A-Za-z'\-]+")


@dataclass(frozen=True, slots=True)
class PoolFeatures:
    """One pool's candidates (in today's order), their features and labels."""

    probe_id: str
    category: str
    evidence: frozenset[str]
    ranked: tuple[Ranked[Episode], ...]
    """Today's ranking of the candidates, with its components."""
    matrix: np.ndarray
    """One row per candidate, one column per name in :data:`FEATURES`."""
    labels: np.ndarray
    """1.0 where the candidate is an evidence unit."""

    @property
    def episodes(self) -> tuple[Episode, ...]:
        return tuple(entry.item for entry in self.ranked)


@dataclass(frozen=True, slots=True)
class QueryReading:
    """What :func:`features` needs of the question and the two searches."""

    terms: frozenset[str]
    names: frozenset[str]
    vector_places: Mapping[str, int]
    keyword_places: Mapping[str, int]


def question_names(question: str) -> frozenset[str]:
    """Capitalised words after the question's first word (not "I"), lower-cased."""
    stripped = question.strip()
    first = stripped.split(maxsplit=1)[0] if stripped else ""
    return frozenset(word.lower() for word in _NAME.findall(question) if word not in (first, "I"))


def today_ranking(pool: Pool, config: MemoryConfig) -> list[Ranked[Episode]]:
    """The candidates of ``pool`` as ``Recaller._ranked`` ranks them today."""
    vector_hits, keyword_hits = pool.vector[:CANDIDATES], pool.keyword[:CANDIDATES]
    candidates = [
        Candidate(
            item=episode,
            relevance=relevance,
            importance=importance_of(episode),
            last_activity=last_reinforced_at(episode),
        )
        for episode, relevance in fused(
            pool, keyword_hits, config.fusion, config.recall.keyword_half, vector_hits
        )
    ]
    return rank(candidates, weights=config.ranking, now=pool.probe.now)


def pool_features(pool: Pool, config: MemoryConfig) -> PoolFeatures:
    """The features of every candidate today's ranking ranks for ``pool``."""
    ranked = today_ranking(pool, config)
    reading = QueryReading(
        terms=frozenset(analyze_query(pool.probe.question)),
        names=question_names(pool.probe.question),
        vector_places={hit.item.id: at for at, hit in enumerate(pool.vector[:CANDIDATES])},
        keyword_places={hit.item.id: at for at, hit in enumerate(pool.keyword[:CANDIDATES])},
    )
    evidence = pool.probe.evidence
    labels = [1.0 if unit_of(entry.item) in evidence else 0.0 for entry in ranked]
    return PoolFeatures(
        probe_id=pool.probe.probe_id,
        category=pool.probe.category,
        evidence=evidence,
        ranked=tuple(ranked),
        matrix=features(ranked, reading, scale=pool.scale),
        labels=np.asarray(labels, dtype=np.float64),
    )


@lru_cache(maxsize=65536)
def _terms_of(text: str) -> tuple[frozenset[str], int]:
    tokens = analyze_document(text)
    return frozenset(tokens), len(tokens)


def features(
    ranked: Sequence[Ranked[Episode]], reading: QueryReading, *, scale: RelevanceScale
) -> np.ndarray:
    """One row of :data:`FEATURES` per ranked episode."""
    documents = [_terms_of(entry.item.searchable_text) for entry in ranked]
    rarity = _rarity(reading.terms, [terms for terms, _ in documents])
    all_rare = sum(rarity.values())
    rows = np.zeros((len(ranked), len(FEATURES)), dtype=np.float64)
    for index, entry in enumerate(ranked):
        parts, (terms, length) = entry.components, documents[index]
        cosine = 0.0 if parts.cosine is None else scale.of_cosine(parts.cosine)
        keywords = 0.0 if parts.bm25 is None else scale.of_keywords(parts.bm25, len(reading.terms))
        matched = reading.terms & terms
        rows[index] = (
            cosine,
            keywords,
            cosine * keywords,
            parts.relevance,
            _inverse_place(reading.vector_places.get(entry.item.id)),
            _inverse_place(reading.keyword_places.get(entry.item.id)),
            len(matched) / max(1, len(reading.terms)),
            sum(rarity[term] for term in matched) / all_rare if all_rare > 0 else 0.0,
            _share_named(reading.names, entry.item.searchable_text.lower()),
            parts.recency,
            parts.importance,
            math.log1p(length),
            1.0 if asked(entry.item) else 0.0,
        )
    return rows


def _inverse_place(place: int | None) -> float:
    return 0.0 if place is None else 1.0 / (1.0 + place)


def _share_named(names: frozenset[str], text: str) -> float:
    if not names:
        return 0.0
    return sum(1 for name in names if name in text) / len(names)


def _rarity(terms: frozenset[str], documents: Sequence[frozenset[str]]) -> dict[str, float]:
    count = len(documents)
    return {
        term: max(0.0, math.log((count + 1) / (sum(1 for doc in documents if term in doc) + 0.5)))
        for term in terms
    }

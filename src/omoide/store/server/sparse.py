"""BM25 keyword vectors for Qdrant, from omoide's own analyzer (CJK bigrams included).

Qdrant's sparse vectors with the ``idf`` modifier compute the inverse document frequency
on the server; omoide supplies the rest of BM25:

* a document's value for a term is the saturated, length-normalised term frequency
  ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / AVERAGE_LENGTH))``;
* a query's value for each distinct term is 1, so the score is the sum, over shared terms,
  of ``idf * document value``: BM25 with a fixed average document length.

Terms are the tokens of :mod:`omoide.store.keywords` (the same analysis as the embedded
store; :mod:`.keyword_index` records its version beside the vectors), each mapped to a
32-bit index by a hash keyed with the scope: a query can only ever meet its own scope's
terms, and each (scope, term) pair has its own document frequency, like the embedded
store's scoped digests. Two tokens that collide in one document (about one pair in four
billion) simply add up.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from qdrant_client import models

from omoide.store.keywords import analyze_document, analyze_query

K1 = 1.2
B = 0.75
AVERAGE_LENGTH = 40.0
"""Tokens in a typical stored exchange (CJK text counts bigrams and characters)."""


@dataclass(frozen=True, slots=True)
class SparseTerms:
    indices: tuple[int, ...]
    values: tuple[float, ...]

    def __bool__(self) -> bool:
        return bool(self.indices)

    def to_qdrant(self) -> models.SparseVector:
        return models.SparseVector(indices=list(self.indices), values=list(self.values))


def _scope_secret(scope_key: str) -> bytes:
    return hashlib.blake2b(scope_key.encode("utf-8"), digest_size=32).digest()


def term_index(secret: bytes, token: str) -> int:
    """The 32-bit index of ``token``: its 4-byte blake2b keyed with the scope's secret."""
    return _term_indices(secret, (token,))[0]


def _term_indices(secret: bytes, tokens: Iterable[str]) -> list[int]:
    """:func:`term_index` of each token, keying the hash once."""
    keyed = hashlib.blake2b(digest_size=4, key=secret)
    indices: list[int] = []
    for token in tokens:
        hasher = keyed.copy()
        hasher.update(token.encode("utf-8"))
        indices.append(int.from_bytes(hasher.digest(), "big"))
    return indices


def document_terms(scope_key: str, text: str, *, stem_words: bool = True) -> SparseTerms:
    """The BM25 term weights to index for ``text`` stored in the scope ``scope_key``.

    ``stem_words=False`` is the analysis before stemming (keyword analyzer version 1).
    """
    secret = _scope_secret(scope_key)
    tokens = analyze_document(text, stem_words=stem_words)
    counts = Counter(_term_indices(secret, tokens))
    norm = K1 * (1 - B + B * len(tokens) / AVERAGE_LENGTH)
    indices = sorted(counts)
    return SparseTerms(
        tuple(indices), tuple(counts[i] * (K1 + 1) / (counts[i] + norm) for i in indices)
    )


def query_terms(scope_key: str, text: str) -> SparseTerms:
    """The distinct terms of a query in the scope ``scope_key``, each weighted 1."""
    secret = _scope_secret(scope_key)
    indices = sorted(set(_term_indices(secret, analyze_query(text))))
    return SparseTerms(tuple(indices), tuple(1.0 for _ in indices))

"""Sparse term indices keep their formula: a 4-byte blake2b keyed with the scope's secret."""

from __future__ import annotations

import hashlib
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from omoide.domain import Scope
from omoide.store.keywords import analyze_document, analyze_query
from omoide.store.server.scopes import scope_key
from omoide.store.server.sparse import document_terms, query_terms, term_index

VIEWER = scope_key(Scope("haru", "minjun"))
SECRET = hashlib.blake2b(VIEWER.encode("utf-8"), digest_size=32).digest()
TEXTS = st.text(
    alphabet=st.one_of(st.sampled_from("abc 火锅게임ゲーム好き"), st.characters(codec="utf-8"))
)


def reference_index(secret: bytes, token: str) -> int:
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=4, key=secret).digest()
    return int.from_bytes(digest, "big")


@given(st.binary(max_size=64), st.text(alphabet=st.characters(codec="utf-8")))
def test_a_term_index_is_the_keyed_blake2b(secret: bytes, token: str) -> None:
    assert term_index(secret, token) == reference_index(secret, token)


@given(TEXTS)
def test_document_and_query_terms_use_the_reference_indices(text: str) -> None:
    counts = Counter(reference_index(SECRET, token) for token in analyze_document(text))
    assert document_terms(VIEWER, text).indices == tuple(sorted(counts))
    expected = sorted({reference_index(SECRET, token) for token in analyze_query(text)})
    assert query_terms(VIEWER, text).indices == tuple(expected)


def test_the_index_of_a_word_is_pinned() -> None:
    """A value computed before the hash was keyed once per text."""
    assert term_index(SECRET, "game") == 3471991447
    assert document_terms(VIEWER, "games").indices == (3471991447,)

"""BM25 keyword vectors: scoped term indices and BM25's term-frequency part (no servers)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from omoide.domain import Scope
from omoide.store.server.scopes import scope_key
from omoide.store.server.sparse import K1, B, document_terms, query_terms

VIEWER = scope_key(Scope("haru", "minjun"))
OTHER = scope_key(Scope("haru", "sora"))
words = st.text(alphabet="abc火锅게임ゲーム好き ", min_size=1, max_size=40)


def shared(document: str, query: str, *, stored: str = VIEWER, asked: str = VIEWER) -> set[int]:
    return set(document_terms(stored, document).indices) & set(query_terms(asked, query).indices)


@given(words, words)
def test_a_query_never_meets_another_scopes_terms(document: str, query: str) -> None:
    assert shared(document, query, stored=VIEWER, asked=OTHER) == set()


@given(words)
def test_a_document_is_found_by_its_own_text_in_its_scope(text: str) -> None:
    terms = query_terms(VIEWER, text)
    assert shared(text, text) == set(terms.indices)


def test_cjk_queries_match_bigrams_and_single_characters() -> None:
    assert shared("我喜欢吃火锅", "火锅") and shared("我喜欢吃火锅", "吃")
    assert shared("나 롤 게임 엄청 좋아해요!", "게임을 했어")
    assert shared("I walked my dog", "walking")  # English words are stemmed
    assert not shared("I walked my dog", "talk")


def test_weights_saturate_with_repetition_and_shrink_with_length() -> None:
    once = document_terms(VIEWER, "apple pie").values
    twice = document_terms(VIEWER, "apple apple").values
    long = document_terms(VIEWER, "apple " + "filler " * 60).values
    index = query_terms(VIEWER, "apple").indices[0]
    weight = {
        name: dict(zip(terms.indices, terms.values, strict=True))[index]
        for name, terms in (
            ("once", document_terms(VIEWER, "apple pie")),
            ("twice", document_terms(VIEWER, "apple apple")),
            ("long", document_terms(VIEWER, "apple " + "filler " * 60)),
        )
    }
    assert weight["long"] < weight["once"] < weight["twice"] < K1 + 1
    assert all(0 < value < K1 + 1 for value in (*once, *twice, *long))
    assert 0 < B < 1


def test_query_terms_are_distinct_and_weighted_one() -> None:
    terms = query_terms(VIEWER, "game game GAME")
    assert len(terms.indices) == 1 and terms.values == (1.0,)
    assert not query_terms(VIEWER, "🐶 !!")

"""The fast keyword analysis and term digests equal the frozen reference, byte for byte."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from omoide.store.keywords import analyze_document, analyze_query
from omoide.store.sqlite.keyword_index import document_terms, match_expression, term_digest
from tests.store.reference_keywords import (
    reference_document,
    reference_document_terms,
    reference_match_expression,
    reference_query,
    reference_term_digest,
)

ENCODABLE = st.characters(codec="utf-8")
"""Any code point but a lone surrogate, which UTF-8 cannot encode."""
SCOPE_IDS = st.integers(min_value=-(2**63), max_value=2**63 - 1)
MIXED_ALPHABET = (
    "abcZ09_ é\u0301\u0300火锅好吃ゲームが\u3099ﾊﾟ・게임을가\u1161ภาษาไทย❤\ufe0f👍🏽!?。"
)
MIXED = st.text(alphabet=st.one_of(st.sampled_from(MIXED_ALPHABET), ENCODABLE), max_size=40)

CORPUS = [
    "나 롤 게임 엄청 좋아해요! 어제도 밤새 했어요",
    "게임을 했어 ㅋㅋㅋ",
    "うちの亀の名前はコタロウだよ。来月東京に旅行するんだ",
    "ﾊﾟｿｺﾝ買った！ サッカー・ワールドカップ見た？",
    "我喜欢吃火锅，这周超兴奋",
    "最近FF14ばっかりやってる",
    "I spent the afternoon fishing with my boyfriend. Amazing! I'm rooting for you",
    "What games do you like? Deadlock2 is adopted, adoption",
    "Straße café cafe\u0301 naïve Ὀδυσσεύς Привет мир",
    "🎮🎮 ... !!! ❤️ 👍🏽 👨‍👩‍👧",
    "ภาษาไทย สวัสดีครับ",
    "",
    "   ",
]


@given(SCOPE_IDS, st.text(alphabet=ENCODABLE))
@example(7, "")
def test_a_digest_is_the_padded_base32_of_the_keyed_blake2b(scope_id: int, token: str) -> None:
    assert term_digest(scope_id, token) == reference_term_digest(scope_id, token)


def test_digests_are_pinned() -> None:
    """Values computed with ``base64.b32encode`` before the fast encoder existed."""
    assert term_digest(7, "game") == "n4aufahhunvjm"
    assert term_digest(1, "火锅") == "lbyo4ksung56k"
    assert term_digest(-3, "") == "bo53upjbzcpeg"
    assert match_expression(7, "What games do you like? 火锅") == (
        '"n4aufahhunvjm" OR "54ot2z72244ek" OR "swu533kddrolg"'
    )


@pytest.mark.parametrize("text", CORPUS)
@pytest.mark.parametrize("scope_id", [1, 7, 2**63 - 1])
def test_terms_of_a_mixed_language_corpus_equal_the_reference(scope_id: int, text: str) -> None:
    assert document_terms(scope_id, text) == reference_document_terms(scope_id, text)
    assert match_expression(scope_id, text) == reference_match_expression(scope_id, text)


def test_the_corpus_has_terms_in_every_language() -> None:
    """The corpus test above compares something: only the blank texts have no terms."""
    empty = [text for text in CORPUS if not document_terms(7, text)]
    assert empty == ["", "   "]


@given(SCOPE_IDS, st.lists(st.text(alphabet=ENCODABLE, max_size=8), max_size=30))
def test_many_tokens_keep_their_order_and_count(scope_id: int, words: list[str]) -> None:
    text = " ".join(words)
    assert document_terms(scope_id, text) == reference_document_terms(scope_id, text)


@given(MIXED)
def test_analysis_equals_the_reference(text: str) -> None:
    assert analyze_document(text) == reference_document(text)
    assert analyze_query(text) == reference_query(text)


@given(SCOPE_IDS, MIXED)
def test_match_expression_equals_the_reference(scope_id: int, text: str) -> None:
    assert match_expression(scope_id, text) == reference_match_expression(scope_id, text)


def test_letters_and_digits_are_exactly_the_categories_l_and_n() -> None:
    """The analyzer's regular expression finds runs with ``\\w``, i.e. ``str.isalnum``."""
    differing = [
        code_point
        for code_point in range(sys.maxunicode + 1)
        if chr(code_point).isalnum() != (unicodedata.category(chr(code_point))[0] in "LN")
    ]
    assert differing == []


@pytest.mark.parametrize("stride", [1, 3])
@pytest.mark.parametrize("with_marks", [True, False])
def test_every_code_point_is_analyzed_like_the_reference(stride: int, with_marks: bool) -> None:
    """Every code point, in groups of ``stride`` between spaces (runs meet other scripts).

    Text with a combining mark takes the character-by-character path, text without one
    the regular expression: ``with_marks=False`` leaves the marks out to test the latter.
    """
    characters = "".join(
        chr(code_point)
        for code_point in range(sys.maxunicode + 1)
        if with_marks or unicodedata.category(chr(code_point))[0] != "M"
    )
    for start in range(0, len(characters), 20_000):
        block = characters[start : start + 20_000]
        text = " ".join(block[index : index + stride] for index in range(0, len(block), stride))
        assert analyze_document(text) == reference_document(text), hex(start)

"""The keyword analyzer (pure Python, shared by every keyword backend)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.store.keywords import (
    QUERY_STOP_WORDS,
    analyze_document,
    analyze_query,
    is_laughter,
    normalize,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Deadlock好き", ["deadlock", "好き"]),
        ("Deadlockのビルド", ["deadlock", "のビ", "ビル", "ルド"]),
        ("롤 게임", ["롤", "게임"]),
        ("좋아해요!", ["좋아", "아해", "해요"]),
        ("我喜欢吃火锅", ["我喜", "喜欢", "欢吃", "吃火", "火锅"]),
        ("吃", ["吃"]),
        ("Hello, WORLD 42!", ["world", "42"]),
        ("Ｈｅｌｌｏ ﾊﾟｿｺﾝ", ["パソ", "ソコ", "コン"]),
        ("Straße", ["strass"]),
        ("don't-stop_now", ["stop"]),
        (
            "サッカー・ワールドカップ",
            ["サッ", "ッカ", "カー", "ワー", "ール", "ルド", "ドカ", "カッ", "ップ"],
        ),
        ("ภาษาไทย", ["ภา", "าษ", "ษา", "าไ", "ไท", "ทย"]),
        ("🎮🎮 ... !!!", []),
    ],
)
def test_query_tokens(text: str, expected: list[str]) -> None:
    assert analyze_query(text) == expected


def test_documents_also_index_single_characters_of_unspaced_runs() -> None:
    assert analyze_document("火锅 hot") == ["火锅", "火", "锅", "hot"]
    assert analyze_document("猫") == ["猫"]


def test_query_tokens_are_distinct() -> None:
    assert analyze_query("dog dog DOG") == ["dog"]
    assert analyze_document("dog dog") == ["dog", "dog"]


def test_combining_marks_stay_in_their_word() -> None:
    decomposed = "cafe\u0301"
    assert analyze_query(decomposed) == ["café"]


@given(st.text())
def test_tokens_are_non_empty_and_contain_no_separators(text: str) -> None:
    for token in analyze_document(text) + analyze_query(text):
        assert token
        assert not any(character.isspace() for character in token)
        assert '"' not in token


@given(st.text())
def test_every_query_token_of_a_text_is_indexed_for_that_text(text: str) -> None:
    """A text always matches itself: its query tokens are among its document tokens."""
    assert set(analyze_query(text)) <= set(analyze_document(text))


@given(st.text())
def test_analysis_is_stable_under_normalisation(text: str) -> None:
    assert analyze_document(normalize(text)) == analyze_document(text)


HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)


@given(st.text(alphabet=HAN, min_size=1, max_size=12))
def test_han_runs_become_overlapping_bigrams(text: str) -> None:
    """A query's bigrams, without the time words and laughter every message holds ("最近",
    "哈哈") while anything else is left: "一最近" searches for "一最" alone."""
    bigrams = [text[index : index + 2] for index in range(len(text) - 1)] or [text]
    content = [
        bigram for bigram in bigrams if bigram not in QUERY_STOP_WORDS and not is_laughter(bigram)
    ]
    assert analyze_query(text) == list(dict.fromkeys(content or bigrams))
    assert analyze_query("一最近") == ["一最"]


@given(st.lists(st.text(alphabet=HAN, min_size=1, max_size=4), min_size=1, max_size=4))
def test_a_word_inside_a_document_is_matched_by_a_query_for_it(words: list[str]) -> None:
    document = set(analyze_document("".join(words)))
    for word in words:
        assert set(analyze_query(word)) <= document


def test_query_drops_english_function_words_unless_nothing_else_is_left() -> None:
    assert analyze_query("what do you do for fun these days?") == ["fun", "day"]
    assert analyze_query("what do you do?") == ["what", "do", "you"]
    assert "the" in analyze_document("the game")


@pytest.mark.parametrize(
    ("query", "document"),
    [
        ("adoption", "We adopted a puppy"),
        ("games", "my favourite game"),
        ("painting", "she paints landscapes"),
        ("RUNNING", "I ran, then I run"),
    ],
)
def test_english_words_match_other_forms_of_the_same_stem(query: str, document: str) -> None:
    assert set(analyze_query(query)) <= set(analyze_document(document))


def test_only_ascii_words_are_stemmed() -> None:
    assert analyze_document("cafés deadlock2 игры 火锅s") == [
        "cafés",
        "deadlock2",
        "игры",
        "火锅",
        "火",
        "锅",
        "s",
    ]
    assert analyze_query("they're running") == ["run"]


def test_stop_words_are_matched_before_stemming() -> None:
    """The stop word "really" stems to "realli", which is not one: it is still dropped."""
    assert analyze_query("really nice homework") == ["nice", "homework"]
    assert analyze_query("really") == ["realli"]


@pytest.mark.parametrize(
    "laughter",
    ["ᄏᄏ", "ㅋㅋ", "ᅲᅲ", "www", "wwwww", "草", "草草", "哈哈", "呵呵", "lol", "lmao", "haha", "xd"],
)
def test_laughter_is_no_search_term(laughter: str) -> None:
    assert is_laughter(laughter)
    assert analyze_query(f"{laughter} 고양이 cat 猫") == analyze_query("고양이 cat 猫")


@pytest.mark.parametrize("word", ["wow", "hawk", "whale", "law", "哈尔滨", "草莓", "ha", "we"])
def test_words_that_only_look_like_laughter_stay(word: str) -> None:
    assert not is_laughter(word)


def test_a_query_of_laughter_alone_keeps_it() -> None:
    assert analyze_query("ㅋㅋㅋ") == ["ᄏᄏ"]

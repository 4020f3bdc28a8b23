"""The fast cue readers answer exactly what the plain readings they replaced answer.

``cued_facets`` searches only the patterns whose literals the text holds (a text without an
English cue's words skips its alternation), and :class:`~omoide.memory.lexicon.Lexicon`
jumps to the places where one of its words starts; both were the reply path's costliest
reading of remembered text. The references
here are the plain forms: one alternation per group over the whole text, and a look at
every character.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.memory.extraction.mentions import _TOLD
from omoide.memory.facet_cues import _CUES, cued_facets
from omoide.memory.facets import Facet
from omoide.memory.lexicon import Lexicon
from tests.memory.disclosure_texts import DISCLOSURES, ORDINARY

TRICKY = [
    "",
    " ",
    "ıt's my bırthday",  # dotless i: re folds it to "i" without case
    "ſleep all day",  # long s, NFKC makes it "s"
    "KİTTEN",  # Kelvin sign and dotted capital I
    "ＷＯＲＫ　ＴＯＭＯＲＲＯＷ",  # full width
    "오늘 ok 회사 갔어요",
    "猫かわいい cat",
    "🐶🐶 산책 walk",
    "[]^-\\ 시험",
    "냄새 아이돌 새벽",
]
TEXTS = [
    *TRICKY,
    *(text for rows in DISCLOSURES.values() for text, _facet, _term in rows),
    *(text for rows in ORDINARY.values() for text in rows),
]


def plain_cued_facets(message: str) -> frozenset[Facet]:
    folded = unicodedata.normalize("NFKC", message).casefold()
    return frozenset(
        facet
        for facet, cues in _CUES.items()
        if re.search("|".join(f"(?:{cue})" for cue in cues), folded, re.IGNORECASE)
    )


def plain_locate(lexicon: Lexicon, text: str) -> tuple[int, str] | None:
    words = sorted(lexicon, key=len, reverse=True)
    folded = text.casefold()
    for index in range(len(folded)):
        for word in words:
            if folded.startswith(word, index) and Lexicon._bounded(folded, index, word):
                return index, word
    return None


@pytest.mark.parametrize("text", TEXTS)
def test_cued_facets_matches_the_plain_alternations(text: str) -> None:
    assert cued_facets(text) == plain_cued_facets(text)


def test_the_texts_cue_something_in_every_language() -> None:
    cued = {text for text in TEXTS if cued_facets(text)}
    assert len(cued) > len(TEXTS) // 4
    assert {"ıt's my bırthday", "ſleep all day", "오늘 ok 회사 갔어요"} <= cued


@pytest.mark.parametrize("kind", [kind for kind, (words, _p) in _TOLD if words is not None])
def test_lexicon_finds_what_a_look_at_every_character_finds(kind: str) -> None:
    lexicon = dict(_TOLD)[kind][0]
    assert lexicon is not None
    found = [lexicon.locate(text) for text in TEXTS]
    assert found == [plain_locate(lexicon, text) for text in TEXTS]
    assert any(place is not None for place in found)


def test_lexicon_with_special_characters_and_no_words() -> None:
    lexicon = Lexicon(["-x", "]y", "^z", "\\w", "고양이"])
    assert lexicon.locate("a -x b") == (2, "-x")
    assert lexicon.locate("]y") == (0, "]y")
    assert lexicon.locate("^z and \\w") == (0, "^z")
    assert lexicon.locate("우리 고양이가") == (3, "고양이")
    assert lexicon.locate("nothing") is None
    assert Lexicon([]).locate("anything") is None


def test_lexicon_looks_past_a_place_where_only_a_longer_word_is_bounded() -> None:
    # "아이" starts "아이돌" (no child) and "돌" follows a syllable: the search goes on to
    # the next place a word starts
    lexicon = Lexicon(["아이", "아이돌", "돌", "cat", "cats"])
    assert lexicon.locate("아이돌이 좋아 우리 아이가") == (0, "아이돌")
    assert Lexicon(["아이", "돌"]).locate("아이돌이 좋아 우리 아이가") == (11, "아이")
    assert lexicon.locate("scats, cats") == (7, "cats")


LEXICON_PIECES = sorted(
    {piece for _kind, (words, _p) in _TOLD if words is not None for piece in words}
    | {" ", ",", "가", "이", "돌", "a", "s", "的", "ー"}
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LEXICON_PIECES), max_size=8))
def test_lexicon_finds_what_a_look_at_every_character_finds_in_any_mix(
    pieces: list[str],
) -> None:
    text = "".join(pieces)
    for _kind, (lexicon, _pattern) in _TOLD:
        if lexicon is not None:
            assert lexicon.locate(text) == plain_locate(lexicon, text)


ENGLISH_PIECES = [
    "eat",
    "eating",
    "eats",
    "cat",
    "cats",
    "kitty",
    "walk",
    "walking",
    "every",
    "day",
    "everyday",
    "order",
    "ordering",
    "in",
    "run",
    "running",
    "runner",
    "hobby",
    "hobbies",
    "favourite",
    "favorite",
    "okay?",
    "date",
    "night",
    "dates",
    "ex",
    "exes",
    "bar",
    "bars",
    "home",
    "homework",
    "KİTTEN",
    "ſleep",
    "s",
    "a",
]
CUE_PIECES = sorted(
    {word for cues in _CUES.values() for cue in cues[1:] for word in cue.split("|")}
    | {" ", ",", "약 먹", "이번 주", "猫", "가", *ENGLISH_PIECES}
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CUE_PIECES), max_size=6))
def test_cued_facets_match_the_plain_alternations_in_any_mix(pieces: list[str]) -> None:
    text = "".join(pieces).replace("\\s?", "")
    assert cued_facets(text) == plain_cued_facets(text)

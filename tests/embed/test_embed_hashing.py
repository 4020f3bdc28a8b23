"""The deterministic hashing embedder: the fake that ships in the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.embed import HashingEmbedder, keyword_tokens
from omoide.errors import ConfigError, InvalidInput

pytestmark = pytest.mark.anyio

CHILD_SCRIPT = """
import json, sys
import anyio
from omoide.embed import HashingEmbedder

async def main() -> None:
    matrix = await HashingEmbedder(64).embed_documents(json.loads(sys.argv[1]))
    print(json.dumps(matrix.tolist()))

anyio.run(main)
"""

SAMPLE_TEXTS = ["hello world", "나 롤 게임 엄청 좋아해요", "東京タワーに行った", "我喜欢猫", ""]


def embed_in_child_process(texts: list[str], hash_seed: str) -> list[list[float]]:
    environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
    completed = subprocess.run(
        [sys.executable, "-c", CHILD_SCRIPT, json.dumps(texts)],
        capture_output=True,
        check=True,
        env=environment,
        text=True,
        timeout=60,
    )
    rows: list[list[float]] = json.loads(completed.stdout)
    return rows


async def test_vectors_are_the_same_in_other_processes() -> None:
    here = await HashingEmbedder(64).embed_documents(SAMPLE_TEXTS)
    for seed in ("1", "987654"):
        there = np.asarray(embed_in_child_process(SAMPLE_TEXTS, seed), dtype=np.float32)
        np.testing.assert_array_equal(there, here)


async def test_hashing_is_pinned_to_blake2b_buckets() -> None:
    """Changing the hash function or the tokens would silently invalidate stored vectors."""
    vector = await HashingEmbedder(256).embed_query("hello world 你好")
    assert np.flatnonzero(vector).tolist() == [45, 85, 88, 167, 208]
    expected_signs = [-1.0, -1.0, 1.0, 1.0, 1.0]
    np.testing.assert_allclose(vector[[45, 85, 88, 167, 208]], np.multiply(expected_signs, 5**-0.5))


async def test_model_name_and_dimensions() -> None:
    embedder = HashingEmbedder(96)
    assert embedder.model_name == "hashing:96"
    assert embedder.dimensions == 96
    assert HashingEmbedder().model_name == "hashing:256"


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(st.text(max_size=80), max_size=6), dimensions=st.integers(2, 300))
async def test_every_row_is_a_unit_float32_vector(texts: list[str], dimensions: int) -> None:
    matrix = await HashingEmbedder(dimensions).embed_documents(texts)
    assert matrix.dtype == np.float32
    assert matrix.shape == (len(texts), dimensions)
    if texts:
        np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=80))
async def test_query_equals_document(text: str) -> None:
    embedder = HashingEmbedder(128)
    query = await embedder.embed_query(text)
    documents = await embedder.embed_documents([text, text])
    np.testing.assert_array_equal(query, documents[0])
    np.testing.assert_array_equal(documents[0], documents[1])


@pytest.mark.parametrize(
    ("text", "shares_words", "shares_nothing"),
    [
        ("I love League of Legends", "League of Legends is great", "The weather is nice"),
        ("東京に住んでいます", "東京で働いています", "犬が好き"),
        ("我喜欢猫", "我也喜欢猫咪", "明天下雨"),
        ("롤 게임 좋아해요", "롤 게임 재밌어요", "날씨가 맑아요"),
    ],
)
async def test_shared_words_give_positive_similarity(
    text: str, shares_words: str, shares_nothing: str
) -> None:
    embedder = HashingEmbedder(1024)
    query = await embedder.embed_query(text)
    documents = await embedder.embed_documents([shares_words, shares_nothing])
    related, unrelated = documents @ query
    assert related > 0.3
    assert related > unrelated + 0.2


async def test_text_without_tokens_still_embeds() -> None:
    embedder = HashingEmbedder(64)
    empty, blank, punctuation, emoji = await embedder.embed_documents(["", "  \n", "!!!", "😀"])
    np.testing.assert_array_equal(empty, blank)  # empty and blank share the fixed vector
    assert float(np.linalg.norm(punctuation)) == pytest.approx(1.0)
    assert not np.array_equal(punctuation, emoji)


async def test_empty_list_gives_empty_matrix() -> None:
    matrix = await HashingEmbedder(32).embed_documents([])
    assert matrix.shape == (0, 32)
    assert matrix.dtype == np.float32


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Hello, World!", ["hello", "world"]),
        ("ＡＢＣ１２３ Café", ["abc123", "café"]),
        ("我喜欢猫", ["我", "喜", "欢", "猫", "我喜", "喜欢", "欢猫"]),
        ("ラーメン", ["ラ", "ー", "メ", "ン", "ラー", "ーメ", "メン"]),
        ("롤 좋아해요", ["롤", "좋아해요", "좋아", "아해", "해요"]),
        ("I like 東京", ["i", "like", "東", "京", "東京"]),
        ("   ", []),
    ],
)
def test_keyword_tokens(text: str, tokens: list[str]) -> None:
    assert keyword_tokens(text) == tokens


@pytest.mark.parametrize("dimensions", [0, 1, -5, True])
def test_too_few_dimensions_are_refused(dimensions: int) -> None:
    with pytest.raises(ConfigError):
        HashingEmbedder(dimensions)


async def test_a_bare_string_is_not_a_list_of_texts() -> None:
    with pytest.raises(InvalidInput, match="not a single string"):
        await HashingEmbedder().embed_documents("hello")


async def test_lone_surrogates_are_invalid_input() -> None:
    with pytest.raises(InvalidInput, match=r"texts\[1\]"):
        await HashingEmbedder().embed_documents(["fine", "broken \ud800"])
    with pytest.raises(InvalidInput):
        await HashingEmbedder().embed_query("\udfff")

"""Long texts embedded in chunks the model can read; short texts exactly as before."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.embed.chunking import embed_chunked, pool, split_text
from omoide.embed.hashing import HashingEmbedder
from omoide.embed.process import WorkerProcessEmbedder
from omoide.embed.use import USE_MAX_INPUT_CHARS, USEEmbedder
from omoide.errors import ConfigError
from tests.embed.test_embed_worker_process import hashing_factory

pytestmark = pytest.mark.anyio

SHORT = [
    "나 롤 게임 엄청 좋아해요!",
    "うちの猫、ミケって名前なんだ。",
    "我下周要搬到上海了",
    "I've been obsessed with Hollow Knight lately, playing it every night.",
    "",
]
FILLER = [
    "오늘은 날씨가 맑아서 공원에서 산책을 했어요. ",
    "今日は仕事が忙しくて疲れました。",
    "我昨天和朋友一起去吃火锅了。",
    "The train was late again this morning, so I missed the standup. ",
    "주말에는 동생이랑 같이 영화를 봤는데 꽤 재밌었어요. ",
    "駅前に新しいパン屋ができたので、帰りに寄ってみた。",
    "这个月的电费比上个月高了不少。",
    "I repainted the kitchen cabinets a pale green over the weekend. ",
    "회사 앞 카페에서 새로 나온 라떼를 마셔봤어요. ",
    "雨の日は洗濯物が乾かなくて困る。",
    "我们公司下个月要搬到新的办公楼。",
    "A strange rattling noise comes from the laptop fan. ",
]
NEEDLE = "My younger sister is getting married in Busan next spring. "


def long_text(characters: int, *, needle_at: float = 0.8) -> str:
    """Filler in four languages with ``NEEDLE`` placed ``needle_at`` of the way in."""
    parts: list[str] = []
    while sum(map(len, parts)) < characters - len(NEEDLE):
        parts.append(FILLER[len(parts) % len(FILLER)])
    parts.insert(int(len(parts) * needle_at), NEEDLE)
    return "".join(parts)


@given(st.text(max_size=400), st.integers(min_value=1, max_value=60))
def test_chunks_join_back_to_the_text_and_fit(text: str, max_chars: int) -> None:
    chunks = split_text(text, max_chars)
    assert "".join(chunks) == text
    assert all(len(chunk) <= max_chars for chunk in chunks)
    assert len(chunks) == 1 or all(chunks)


def test_chunks_end_at_sentence_ends_when_there_are_some() -> None:
    text = long_text(3000)
    chunks = split_text(text, 500)
    assert len(chunks) > 6
    assert all(chunk.rstrip().endswith((".", "。")) for chunk in chunks[:-1])


def test_an_unbroken_run_is_cut_at_the_limit() -> None:
    assert split_text("猫" * 25, 10) == ["猫" * 10, "猫" * 10, "猫" * 5]


def test_a_pooled_vector_is_the_unit_length_weighted_mean() -> None:
    rows = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    (vector,) = pool(rows, [3, 1])
    assert np.allclose(vector, np.array([3.0, 1.0]) / np.sqrt(10.0))


async def test_short_texts_reach_the_model_as_they_are() -> None:
    seen: list[list[str]] = []

    async def embed(texts: list[str]) -> np.ndarray:
        seen.append(texts)
        return np.eye(len(texts), 8, dtype=np.float32)

    await embed_chunked(embed, SHORT, max_chars=100, dimensions=8)
    assert seen == [SHORT]


async def test_short_texts_get_byte_identical_vectors_from_use(use_embedder: USEEmbedder) -> None:
    whole = USEEmbedder(threads=1, max_input_chars=None)  # today's path: no chunking
    assert all(len(text) <= USE_MAX_INPUT_CHARS for text in SHORT)
    chunked = await use_embedder.embed_documents(SHORT)
    assert chunked.tobytes() == (await whole.embed_documents(SHORT)).tobytes()


async def test_a_long_texts_neighbours_in_a_batch_keep_their_vectors() -> None:
    embedder = HashingEmbedder(256, max_input_chars=300)
    alone = await embedder.embed_documents(SHORT)
    mixed = await embedder.embed_documents([*SHORT[:2], long_text(5000), *SHORT[2:]])
    assert np.delete(mixed, 2, axis=0).tobytes() == alone.tobytes()
    assert np.isclose(np.linalg.norm(mixed[2]), 1.0)


async def test_a_long_text_is_the_mean_of_its_chunks() -> None:
    embedder = HashingEmbedder(256, max_input_chars=300)
    text = long_text(2000)
    chunks = split_text(text, 300)
    (vector,) = await embedder.embed_documents([text])
    (expected,) = pool(await embedder.embed_documents(chunks), [len(c) for c in chunks])
    assert vector.tobytes() == expected.tobytes()


async def test_the_end_of_a_long_text_counts_in_its_vector() -> None:
    """A model that reads 300 characters never sees the last quarter of a 1,500-character
    text, unless the text is embedded in chunks."""
    embedder = HashingEmbedder(512, max_input_chars=300)
    query = await embedder.embed_query(NEEDLE)
    (with_needle, without) = await embedder.embed_documents(
        [long_text(1500), long_text(1500).replace(NEEDLE, "")]
    )
    # seen in chunks: 0.091 against 0.040 (measured); truncated, the two are one vector
    assert float(query @ with_needle) > float(query @ without) + 0.03


async def test_use_reads_every_chunk_of_a_long_text(use_embedder: USEEmbedder) -> None:
    text = long_text(4 * USE_MAX_INPUT_CHARS)
    (vector,) = await use_embedder.embed_documents([text])
    chunks = split_text(text, USE_MAX_INPUT_CHARS)
    assert len(chunks) >= 4
    rows = await use_embedder.embed_documents(chunks)
    (expected,) = pool(rows, [len(chunk) for chunk in chunks])
    assert np.allclose(vector, expected, atol=1e-6)


def test_a_window_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="max_input_chars"):
        HashingEmbedder(64, max_input_chars=0)


async def test_one_long_text_is_embedded_in_the_worker() -> None:
    embedder = WorkerProcessEmbedder(HashingEmbedder(64), hashing_factory, min_chars=1000)
    try:
        await embedder.embed_documents(["a short line"])
        assert embedder.worker_pid is None
        text = long_text(3000)
        (far,) = await embedder.embed_documents([text])
        assert embedder.worker_pid is not None
        assert far.tobytes() == (await HashingEmbedder(64).embed_documents([text]))[0].tobytes()
    finally:
        await embedder.aclose()

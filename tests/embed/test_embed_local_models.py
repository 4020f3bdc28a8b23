"""USE and e5 really run here: shapes, normalisation, prefixes, multilingual sanity."""

from __future__ import annotations

import anyio
import numpy as np
import pytest

from omoide.domain import Vector
from omoide.embed import E5Embedder, USEEmbedder
from omoide.errors import ConfigError, InvalidInput

pytestmark = pytest.mark.anyio

LocalEmbedder = USEEmbedder | E5Embedder

# (query, a text meaning the same in another language, an unrelated text): each pair
# was checked to hold by a clear margin for both models before being written down.
CROSS_LINGUAL = [
    ("나 롤 게임 엄청 좋아해요!", "I love League of Legends", "The weather is nice today"),
    ("猫が大好きです", "I really love cats", "The train was late this morning"),
    ("我明天要去东京旅行", "I am travelling to Tokyo tomorrow", "My favourite food is pizza"),
    ("Je joue de la guitare", "ギターを弾きます", "雨が降っています"),
]


@pytest.fixture(params=["use", "e5"])
def local_embedder(
    request: pytest.FixtureRequest, use_embedder: USEEmbedder, e5_embedder: E5Embedder
) -> LocalEmbedder:
    return use_embedder if request.param == "use" else e5_embedder


def test_identity_is_known_without_loading_a_model() -> None:
    use = USEEmbedder()
    e5 = E5Embedder()
    assert (use.model_name, use.dimensions) == ("use:multilingual-v3@0.2.1", 512)
    assert (e5.model_name, e5.dimensions) == ("e5:multilingual-e5-small-q4@0.3.0", 384)
    assert E5Embedder(variant="enpt").model_name == "e5:portuguese-multilingual-e5-small-q4@0.3.0"


async def test_documents_are_unit_float32_rows(local_embedder: LocalEmbedder) -> None:
    texts = ["I love League of Legends", "猫が好き", ""]
    matrix = await local_embedder.embed_documents(texts)
    assert matrix.dtype == np.float32
    assert matrix.shape == (3, local_embedder.dimensions)
    assert matrix.flags.c_contiguous
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)


async def test_query_is_a_unit_float32_vector(local_embedder: LocalEmbedder) -> None:
    vector = await local_embedder.embed_query("오늘 방송 재밌었어")
    assert vector.dtype == np.float32
    assert vector.shape == (local_embedder.dimensions,)
    assert float(np.linalg.norm(vector)) == pytest.approx(1.0, abs=1e-5)


async def test_no_texts_give_an_empty_matrix(local_embedder: LocalEmbedder) -> None:
    matrix = await local_embedder.embed_documents([])
    assert matrix.shape == (0, local_embedder.dimensions)
    assert matrix.dtype == np.float32


@pytest.mark.parametrize(("query", "related", "unrelated"), CROSS_LINGUAL)
async def test_meaning_crosses_languages(
    local_embedder: LocalEmbedder, query: str, related: str, unrelated: str
) -> None:
    query_vector = await local_embedder.embed_query(query)
    documents = await local_embedder.embed_documents([related, unrelated])
    related_score, unrelated_score = documents @ query_vector
    assert related_score > unrelated_score + 0.03


async def test_use_is_symmetric(use_embedder: USEEmbedder) -> None:
    query = await use_embedder.embed_query("I like cats")
    document = (await use_embedder.embed_documents(["I like cats"]))[0]
    np.testing.assert_allclose(query, document, atol=1e-6)


async def test_e5_embeds_queries_and_passages_differently(e5_embedder: E5Embedder) -> None:
    query = await e5_embedder.embed_query("I like cats")
    passage = (await e5_embedder.embed_documents(["I like cats"]))[0]
    assert float(query @ passage) < 0.999  # the "query: " / "passage: " prefixes differ
    assert float(query @ passage) > 0.8  # but it is still the same sentence


async def test_batching_does_not_change_vectors(e5_embedder: E5Embedder) -> None:
    texts = ["one", "two words", "three little words", "四", "다섯"]
    whole = await e5_embedder.embed_documents(texts)
    sliced = await E5Embedder(batch_size=2).embed_documents(texts)
    np.testing.assert_allclose(sliced, whole, atol=1e-5)


async def test_model_work_leaves_the_event_loop_free(local_embedder: LocalEmbedder) -> None:
    ticks = 0
    observed: list[int] = []

    async def tick() -> None:
        nonlocal ticks
        while not observed:
            ticks += 1
            await anyio.sleep(0)

    async def embed() -> None:
        before = ticks
        await local_embedder.embed_documents(["a sentence to embed"] * 8)
        observed.append(ticks - before)

    async with anyio.create_task_group() as group:
        group.start_soon(tick)
        group.start_soon(embed)
    assert observed[0] > 0


async def test_concurrent_calls_give_the_same_vectors(local_embedder: LocalEmbedder) -> None:
    texts = [f"sentence number {index} about cats" for index in range(4)]
    expected = [await local_embedder.embed_query(text) for text in texts]
    results: dict[int, Vector] = {}

    async def embed_one(index: int) -> None:
        results[index] = await local_embedder.embed_query(texts[index])

    async with anyio.create_task_group() as group:
        for index in range(len(texts)):
            group.start_soon(embed_one, index)
    for index, vector in enumerate(expected):
        np.testing.assert_allclose(results[index], vector, atol=1e-5)


async def test_the_same_text_gives_the_same_vector(local_embedder: LocalEmbedder) -> None:
    first = await local_embedder.embed_documents(["同じ文です", "same sentence"])
    second = await local_embedder.embed_documents(["same sentence", "同じ文です"])
    np.testing.assert_allclose(first, second[::-1], atol=1e-5)


async def test_a_bare_string_is_refused(local_embedder: LocalEmbedder) -> None:
    with pytest.raises(InvalidInput):
        await local_embedder.embed_documents("hello")


@pytest.mark.parametrize("make", [USEEmbedder, E5Embedder])
def test_bad_settings_are_config_errors(make: type[LocalEmbedder]) -> None:
    with pytest.raises(ConfigError, match="threads"):
        make(threads=0)
    with pytest.raises(ConfigError, match="batch_size"):
        make(batch_size=0)


def test_unknown_e5_variant_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="variant"):
        E5Embedder(variant="large")  # type: ignore[arg-type]

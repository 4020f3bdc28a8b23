"""Queries without the chat direction: the shipped centroids, the wrapper, and what it
changes in a search by meaning with the real default model."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from omoide.embed import E5Embedder, HashingEmbedder, USEEmbedder
from omoide.embed.centring import (
    CentredQueries,
    ChatCentroid,
    centred,
    centroid_document,
    centroid_from_text,
    load_chat_centroid,
)
from omoide.errors import ConfigError

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("embedder", [USEEmbedder(), E5Embedder()])
def test_a_centroid_ships_for_each_local_model(embedder: USEEmbedder | E5Embedder) -> None:
    centroid = load_chat_centroid(embedder.model_name, embedder.dimensions)
    assert centroid is not None
    assert centroid.vector.shape == (embedder.dimensions,)
    assert 0.1 < float(np.linalg.norm(centroid.vector)) < 1.0
    assert re.fullmatch(r"[0-9a-f]{12}x[0-9.]+", centroid.digest)


def test_no_centroid_for_a_model_none_was_computed_for() -> None:
    assert load_chat_centroid("hashing:v1", 64) is None


@pytest.mark.parametrize(
    ("document", "complaint"),
    [
        ({"embedder": "use:multilingual-v3"}, "malformed"),
        ({"embedder": "e5:multilingual-e5-small-q4", "vector": [0.1] * 4}, "computed for"),
        ({"embedder": "use:multilingual-v3", "vector": [0.1] * 3}, "4 numbers"),
        ({"embedder": "use:multilingual-v3", "vector": [0.1, None, 0.1, 0.1]}, "4 numbers"),
        ({"embedder": "use:multilingual-v3", "vector": [0.9, 0.9, 0.0, 0.0]}, "unit vectors"),
    ],
)
def test_a_malformed_centroid_file_is_refused_by_name(
    document: dict[str, object], complaint: str
) -> None:
    with pytest.raises(ConfigError, match=complaint):
        centroid_from_text(json.dumps(document), "use:multilingual-v3@0.2.1", 4)


def test_a_written_centroid_reads_back() -> None:
    vector = np.array([0.3, -0.2, 0.1, 0.0], dtype=np.float32)
    text = json.dumps(centroid_document("use:multilingual-v3", vector, messages=3))
    read = centroid_from_text(text, "use:multilingual-v3@0.2.1", 4)
    assert np.allclose(read.vector, vector)


async def test_queries_are_centred_and_unit_length_documents_pass_through() -> None:
    inner = HashingEmbedder(dimensions=16)
    mean = (await inner.embed_documents(["hi", "lol same", "gn"])).mean(axis=0)
    wrapped = CentredQueries(inner, ChatCentroid("hashing", mean.astype(np.float32), "x"))
    query = await wrapped.embed_query("my hamster Bao escaped again")
    plain = await inner.embed_query("my hamster Bao escaped again")
    assert np.isclose(float(np.linalg.norm(query)), 1.0, atol=1e-5)
    expected = (plain - mean) / np.linalg.norm(plain - mean)
    assert np.allclose(query, expected, atol=1e-5)
    documents = await wrapped.embed_documents(["my hamster Bao"])
    assert np.array_equal(documents, await inner.embed_documents(["my hamster Bao"]))
    assert (wrapped.model_name, wrapped.dimensions) == (inner.model_name, inner.dimensions)


def test_a_query_that_is_the_centroid_stays_itself() -> None:
    vector = np.array([0.6, 0.8], dtype=np.float32)
    assert np.array_equal(centred(vector, vector), vector)


def test_a_centroid_of_other_dimensions_is_refused() -> None:
    centroid = ChatCentroid("hashing", np.zeros(8, dtype=np.float32), "x")
    with pytest.raises(ConfigError, match="8 dimensions"):
        CentredQueries(HashingEmbedder(dimensions=16), centroid)


# A viewer's history, written for this test: chat, and the one thing a friend connects to
# the message below (the exam), which shares no word with it.
HISTORY = [
    "stream tomorrow?",
    "gn everyone see you tomorrow",
    "lol that boss fight was so close",
    "what are you playing next week",
    "i have my driving test on friday and i'm so nervous",
    "chat is so fast today",
]
MESSAGE = "tomorrow is the big day, wish me luck behind the wheel"


async def test_centring_widens_the_gap_between_what_a_message_is_about_and_chat(
    use_embedder: USEEmbedder,
) -> None:
    centroid = load_chat_centroid(use_embedder.model_name, use_embedder.dimensions)
    assert centroid is not None
    documents = await use_embedder.embed_documents(HISTORY)
    target = HISTORY.index("i have my driving test on friday and i'm so nervous")
    chat = [index for index in range(len(HISTORY)) if index != target]

    def gap(scores: np.ndarray) -> float:
        return float(scores[target] - scores[chat].max())

    plain = documents @ await use_embedder.embed_query(MESSAGE)
    centred_scores = documents @ await CentredQueries(use_embedder, centroid).embed_query(MESSAGE)
    assert gap(centred_scores) > 0
    assert gap(centred_scores) > 1.5 * gap(plain)

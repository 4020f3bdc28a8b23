"""Two embedders as one (``omoide.embed.fused``): the fused similarity is the weighted mean
of the parts' cosines; what reads a part's space reads the same in the fused space."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omoide.config import Settings
from omoide.embed import E5Embedder, HashingEmbedder, USEEmbedder
from omoide.embed.centring import CentredQueries, ChatCentroid, centred, chat_centroid_for
from omoide.embed.fused import FusedEmbedder
from omoide.errors import ConfigError
from omoide.memory.extraction.disclosure import load_disclosure_model
from omoide.memory.extraction.lasting import load_lasting_model
from omoide.wiring import build_embedder
from omoide.wiring.memory import rule_readers

pytestmark = pytest.mark.anyio

TEXTS = [
    "my cat Miso hates the vacuum",
    "I start the night shift at the bakery next week",
    "猫のミソは掃除機が嫌い",
    "ok lol",
]


def _hashing_pair() -> tuple[HashingEmbedder, HashingEmbedder]:
    return HashingEmbedder(48), HashingEmbedder(32)


async def test_the_fused_similarity_is_the_weighted_mean_of_the_parts_cosines() -> None:
    first, second = _hashing_pair()
    fused = FusedEmbedder([(first, 3.0), (second, 1.0)])  # weights normalised: 0.75, 0.25
    assert fused.dimensions == 80
    assert [part.weight for part in fused.parts] == [0.75, 0.25]
    documents = np.asarray(await fused.embed_documents(TEXTS))
    query = np.asarray(await fused.embed_query("the cat and the vacuum"))
    assert np.allclose(np.linalg.norm(documents, axis=1), 1.0, atol=1e-5)
    assert np.isclose(np.linalg.norm(query), 1.0, atol=1e-5)
    expected = 0.75 * np.asarray(await first.embed_documents(TEXTS)) @ np.asarray(
        await first.embed_query("the cat and the vacuum")
    ) + 0.25 * np.asarray(await second.embed_documents(TEXTS)) @ np.asarray(
        await second.embed_query("the cat and the vacuum")
    )
    assert np.allclose(documents @ query, expected, atol=1e-5)


def test_the_model_name_names_every_part_and_weight() -> None:
    first, second = _hashing_pair()
    name = FusedEmbedder([(first, 1.0), (second, 1.0)]).model_name
    assert name == f"fused(0.5*{first.model_name}+0.5*{second.model_name})"
    assert FusedEmbedder([(first, 0.2), (second, 0.8)]).model_name != name


@pytest.mark.parametrize("weights", [[1.0], [1.0, 0.0], [1.0, -2.0], [1.0, float("nan")]])
def test_a_fusion_needs_two_parts_with_positive_weights(weights: list[float]) -> None:
    parts = [(HashingEmbedder(8 + index), weight) for index, weight in enumerate(weights)]
    with pytest.raises(ConfigError, match="fused embedder"):
        FusedEmbedder(parts)


async def test_a_reading_of_a_part_reads_the_same_in_the_fused_space() -> None:
    first, second = _hashing_pair()
    fused = FusedEmbedder([(first, 0.3), (second, 0.7)])
    direction = np.random.default_rng(7).normal(size=second.dimensions).astype(np.float32)
    lifted = fused.lift(fused.parts[1], direction)
    own = np.asarray(await second.embed_documents(TEXTS)) @ direction
    assert np.allclose(np.asarray(await fused.embed_documents(TEXTS)) @ lifted, own, atol=1e-4)
    with pytest.raises(ConfigError, match="needs 32 numbers"):
        fused.lift(fused.parts[1], direction[:10])


async def test_each_part_of_a_fused_query_is_centred_in_its_own_space() -> None:
    first, second = _hashing_pair()
    fused = FusedEmbedder([(first, 0.4), (second, 0.6)])
    rng = np.random.default_rng(3)
    means = [rng.normal(size=size).astype(np.float32) * 0.05 for size in (48, 32)]
    centroid = ChatCentroid(
        "fused",
        np.concatenate(means),
        "x",
        segments=tuple((part.start, part.stop, part.scale) for part in fused.parts),
    )
    query = np.asarray(await CentredQueries(fused, centroid).embed_query("my cat Miso"))
    for part, mean in zip(fused.parts, means, strict=True):
        own = np.asarray(await part.embedder.embed_query("my cat Miso"))
        scaled_back = query[part.start : part.stop] / part.scale
        assert np.allclose(scaled_back, centred(own, mean), atol=1e-5)
    assert np.isclose(np.linalg.norm(query), 1.0, atol=1e-5)


def test_a_fused_embedder_has_a_centroid_only_when_every_part_has_one() -> None:
    with_hashing = FusedEmbedder([(USEEmbedder(), 0.5), (HashingEmbedder(8), 0.5)])
    assert chat_centroid_for(with_hashing) is None
    fused = FusedEmbedder([(USEEmbedder(), 0.5), (E5Embedder(), 0.5)])
    centroid = chat_centroid_for(fused)
    assert centroid is not None
    assert centroid.vector.shape == (fused.dimensions,)
    assert centroid.segments == ((0, 512, fused.parts[0].scale), (512, 896, fused.parts[1].scale))


async def test_use_plus_e5_is_built_from_the_settings_and_reads_with_uses_sentence_models(
    tmp_path: Path,
) -> None:
    settings = Settings(
        data_dir=tmp_path, embedder="use+e5", fused_e5_weight=0.7, embedder_worker=False
    )
    fused = await build_embedder(settings)
    try:
        assert isinstance(fused, FusedEmbedder)
        assert [round(part.weight, 6) for part in fused.parts] == [0.3, 0.7]
        readers = rule_readers(fused, disclosures=True, lasting=True)
        use_part = fused.parts[0]
        use_vectors = await use_part.embedder.embed_documents(TEXTS)
        fused_vectors = await fused.embed_documents(TEXTS)
        for loader, model in (
            (load_disclosure_model, readers.disclosure_model),
            (load_lasting_model, readers.lasting_model),
        ):
            own = loader(use_part.embedder.model_name)
            assert own is not None and model is not None
            assert np.allclose(model.logits(fused_vectors), own.logits(use_vectors), atol=1e-3)
    finally:
        await fused.aclose()

"""The embedder wrappers the benchmarks time the reply path and the write path with."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.speed.embedders import PrecomputedQueryEmbedder, TimedEmbedder
from omoide.embed.hashing import HashingEmbedder


@pytest.mark.anyio
async def test_precomputed_queries_skip_the_model_unless_bypassed() -> None:
    inner = HashingEmbedder(64)
    planted = np.zeros(64, dtype=np.float32)
    planted[3] = 1.0
    embedder = PrecomputedQueryEmbedder(inner, {"what do I like?": planted})
    np.testing.assert_array_equal(await embedder.embed_query("what do I like?"), planted)
    assert (embedder.hits, embedder.misses) == (1, 0)
    with embedder.bypassed():
        bypassed = await embedder.embed_query("what do I like?")
    np.testing.assert_array_equal(bypassed, await inner.embed_query("what do I like?"))
    other = await embedder.embed_query("something else")
    np.testing.assert_array_equal(other, await inner.embed_query("something else"))
    assert (embedder.hits, embedder.misses) == (1, 2)
    assert (embedder.model_name, embedder.dimensions) == (inner.model_name, 64)


@pytest.mark.anyio
async def test_a_caller_cannot_corrupt_a_precomputed_vector() -> None:
    planted = np.ones(8, dtype=np.float32) / np.sqrt(8)
    embedder = PrecomputedQueryEmbedder(HashingEmbedder(8), {"q": planted})
    first = await embedder.embed_query("q")
    first[:] = 0.0
    np.testing.assert_array_equal(await embedder.embed_query("q"), planted)


@pytest.mark.anyio
async def test_the_timed_embedder_counts_calls_and_texts() -> None:
    timed = TimedEmbedder(HashingEmbedder(32))
    matrix = await timed.embed_documents(["one", "two", "three"])
    await timed.embed_query("four")
    assert matrix.shape == (3, 32)
    assert [(call.kind, call.texts) for call in timed.calls] == [("documents", 3), ("query", 1)]
    assert timed.texts == 4
    assert timed.seconds >= 0.0
    timed.reset()
    assert timed.calls == () and timed.texts == 0

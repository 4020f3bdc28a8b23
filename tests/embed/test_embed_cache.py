"""The query cache: hits, expiry by an injected clock, LRU eviction, pass-through."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.embed import CachedQueryEmbedder, HashingEmbedder, OllamaEmbedder, RetryPolicy
from omoide.errors import ConfigError
from tests.embed.scripted_http import ScriptedEmbeddingServer, expected_unit_vector

pytestmark = pytest.mark.anyio

START = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


def cached(
    inner: HashingEmbedder | OllamaEmbedder, clock: FixedClock, **options: float
) -> CachedQueryEmbedder:
    settings = {"max_entries": 4, "ttl_seconds": 60.0, **options}
    return CachedQueryEmbedder(
        inner,
        max_entries=int(settings["max_entries"]),
        ttl_seconds=settings["ttl_seconds"],
        clock=clock,
    )


async def test_identity_is_the_inner_embedders() -> None:
    inner = HashingEmbedder(48)
    cache = cached(inner, FixedClock(START))
    assert cache.model_name == inner.model_name
    assert cache.dimensions == inner.dimensions
    assert cache.inner is inner


async def test_repeated_query_is_served_from_cache(
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    retry = RetryPolicy(max_attempts=1)
    async with OllamaEmbedder(
        "m", dimensions=8, base_url=embedding_server.url, retry=retry
    ) as inner:
        cache = cached(inner, FixedClock(START))
        first = await cache.embed_query("hello")
        second = await cache.embed_query("hello")
    np.testing.assert_array_equal(first, second)
    np.testing.assert_allclose(first, expected_unit_vector("hello", 8), rtol=1e-5, atol=1e-6)
    assert len(embedding_server.requests) == 1
    assert cache.stats.hits == 1
    assert cache.stats.misses == 1


async def test_entries_expire_after_ttl(embedding_server: ScriptedEmbeddingServer) -> None:
    clock = FixedClock(START)
    retry = RetryPolicy(max_attempts=1)
    async with OllamaEmbedder(
        "m", dimensions=8, base_url=embedding_server.url, retry=retry
    ) as inner:
        cache = cached(inner, clock, ttl_seconds=60.0)
        await cache.embed_query("hello")
        clock.set(START + timedelta(seconds=59))
        await cache.embed_query("hello")
        assert len(embedding_server.requests) == 1
        clock.set(START + timedelta(seconds=60))
        await cache.embed_query("hello")
    assert len(embedding_server.requests) == 2
    assert cache.stats.misses == 2


async def test_a_clock_moving_backwards_does_not_keep_entries_forever() -> None:
    clock = FixedClock(START)
    cache = cached(HashingEmbedder(), clock)
    await cache.embed_query("hello")
    clock.set(START - timedelta(hours=1))
    await cache.embed_query("hello")
    assert cache.stats.misses == 2


async def test_least_recently_used_entry_is_evicted() -> None:
    cache = cached(HashingEmbedder(), FixedClock(START), max_entries=2)
    await cache.embed_query("a")
    await cache.embed_query("b")
    await cache.embed_query("a")  # a is now the most recently used
    await cache.embed_query("c")  # evicts b
    assert cache.stats.entries == 2
    await cache.embed_query("a")
    assert cache.stats.hits == 2
    await cache.embed_query("b")
    assert cache.stats.misses == 4


@pytest.mark.parametrize("options", [{"max_entries": 0}, {"ttl_seconds": 0.0}])
async def test_zero_size_or_ttl_turns_caching_off(options: dict[str, float]) -> None:
    cache = cached(HashingEmbedder(), FixedClock(START), **options)
    await cache.embed_query("hello")
    await cache.embed_query("hello")
    assert cache.stats == cache.stats.__class__(hits=0, misses=2, entries=0)


async def test_changing_a_returned_vector_does_not_change_the_cache() -> None:
    cache = cached(HashingEmbedder(), FixedClock(START))
    first = await cache.embed_query("hello")
    expected = first.copy()
    first[:] = 0.0
    second = await cache.embed_query("hello")
    np.testing.assert_array_equal(second, expected)
    second[:] = 0.0
    np.testing.assert_array_equal(await cache.embed_query("hello"), expected)


async def test_documents_pass_through_uncached(embedding_server: ScriptedEmbeddingServer) -> None:
    retry = RetryPolicy(max_attempts=1)
    async with OllamaEmbedder(
        "m", dimensions=8, base_url=embedding_server.url, retry=retry
    ) as inner:
        cache = cached(inner, FixedClock(START))
        await cache.embed_documents(["x", "y"])
        matrix = await cache.embed_documents(["x", "y"])
    assert matrix.shape == (2, 8)
    assert len(embedding_server.requests) == 2
    assert cache.stats.entries == 0


async def test_clear_empties_the_cache() -> None:
    cache = cached(HashingEmbedder(), FixedClock(START))
    await cache.embed_query("hello")
    cache.clear()
    await cache.embed_query("hello")
    assert cache.stats.misses == 2


@pytest.mark.parametrize(
    "options", [{"max_entries": -1}, {"ttl_seconds": -1.0}, {"ttl_seconds": float("nan")}]
)
def test_bad_settings_are_config_errors(options: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        cached(HashingEmbedder(), FixedClock(START), **options)

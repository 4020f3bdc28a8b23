"""Reply-path latency: ``MemoryManager.retrieve_context`` on stores of growing size.

Three measurements are interleaved query by query (their order rotating), so machine
noise hits them alike:

* ``with_embedding``: the whole reply path, the query embedded by the real model;
* ``precomputed_query``: the same path with the query vector computed beforehand;
* ``embed_query_alone``: the embedder's ``embed_query`` by itself.

The three take the same query (viewer and text) in each round, so the per-query
difference of the first two is what embedding the query adds; the query cache is off.
A breakdown then times each store call the reply path makes, alone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path

import anyio.to_thread

from benchmarks.speed.corpus import (
    BuiltStore,
    CorpusSpec,
    EmbeddedPool,
    build_corpus_store,
    store_directory,
    viewer_scope,
)
from benchmarks.speed.embedders import PrecomputedQueryEmbedder
from benchmarks.speed.stats import LatencySummary, Stopwatch, median, summarise_latencies
from benchmarks.speed.store_open import warm_page_cache
from benchmarks.speed.synthetic import ChatGenerator
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope, Vector
from omoide.embed.base import Embedder
from omoide.memory.config import RecallConfig
from omoide.memory.recall import Recollection
from omoide.store.base import EmbeddingInfo, EpisodeFilter, FactFilter, ReplyReads
from omoide.wiring import Omoide, build
from omoide.wiring.storage import MemoryBackend

logger = logging.getLogger(__name__)

MODES = ("with_embedding", "precomputed_query", "embed_query_alone")
QUERY_SEED_OFFSET = 99


Query = tuple[Scope, str]
"""A viewer and the message they sent."""


@dataclass(frozen=True, slots=True)
class ContextSize:
    """Reply-path latency at one store size."""

    episodes: int
    viewers: int
    store_reused: bool
    store_built_at: str
    build_write_seconds: float
    build_episodes_per_second: float
    build_fact_seconds: float
    store_bytes: int
    latency: dict[str, LatencySummary]
    store_calls: dict[str, LatencySummary]
    mean_context_tokens: float
    mean_context_episodes: float
    mean_context_facts: float
    precomputed_misses: int
    paired_embedding_ms: float
    """Median over queries of (with embedding - precomputed) for the same query."""


@dataclass(frozen=True, slots=True)
class ContextResult:
    pool_texts: int
    pool_facts: int
    pool_embed_seconds: float
    pool_texts_per_second: float
    pool_reused: bool
    noise: float
    sizes: tuple[ContextSize, ...]


def plan_queries(generator: ChatGenerator, count: int) -> tuple[Query, ...]:
    """``count`` messages from random viewers, each in the viewer's main language."""
    planned = []
    for _ in range(count):
        viewer = generator.random_viewer()
        planned.append((viewer_scope(viewer), generator.query(viewer)))
    return tuple(planned)


async def measure_context(
    *,
    sizes: Sequence[int],
    spec_for: Callable[[int], CorpusSpec],
    pool: EmbeddedPool,
    embedder: Embedder,
    work_dir: Path,
    queries: int,
    warmup: int,
    breakdown_queries: int,
    rebuild: bool,
) -> ContextResult:
    """Build (or reuse) a store per size and time the reply path on it."""
    info = EmbeddingInfo(embedder.model_name, embedder.dimensions)
    measured = []
    for size in sizes:
        spec = spec_for(size)
        directory = store_directory(work_dir, size)
        logger.info("context latency: preparing the store of %d episodes", size)
        built = await build_corpus_store(spec, pool, directory, embedding=info, rebuild=rebuild)
        logger.info("context latency: measuring %d episodes", size)
        await anyio.to_thread.run_sync(warm_page_cache, built.database_path)
        measured.append(await _measure_size(built, embedder, queries, warmup, breakdown_queries))
    return ContextResult(
        pool_texts=len(pool.turns),
        pool_facts=len(pool.facts),
        pool_embed_seconds=pool.embed_seconds,
        pool_texts_per_second=pool.texts_per_second,
        pool_reused=pool.reused,
        noise=spec_for(sizes[0]).noise if sizes else 0.0,
        sizes=tuple(measured),
    )


async def open_service(directory: Path, embedder: Embedder, now: datetime) -> Omoide:
    """omoide as configured by default (no LLM), on the store in ``directory``."""
    settings = Settings(data_dir=directory, llm="none", query_cache_size=0)
    return await build(settings, embedder=embedder, clock=FixedClock(now))


@dataclass(frozen=True, slots=True)
class ReplyTiming:
    """The reply path timed on one service: what the embedded and server sections share."""

    latency: dict[str, LatencySummary]
    store_calls: dict[str, LatencySummary]
    mean_context_tokens: float
    mean_context_episodes: float
    mean_context_facts: float
    precomputed_misses: int
    paired_embedding_ms: float
    """Median over queries of (with embedding - precomputed) for the same query."""


ServiceOpener = Callable[[Embedder, datetime], Awaitable[Omoide]]
"""Opens the service to time, with the embedder and clock it must use."""


async def time_reply_path(
    spec: CorpusSpec,
    embedder: Embedder,
    open_with: ServiceOpener,
    *,
    queries: int,
    warmup: int,
    breakdown_queries: int,
) -> ReplyTiming:
    """Time ``retrieve_context`` on the service ``open_with`` opens, with the queries
    planned from ``spec`` (the same viewers and texts for every service of one spec)."""
    now = spec.timeline.end
    generator = ChatGenerator(
        seed=spec.seed + QUERY_SEED_OFFSET, viewers=spec.viewers, timeline=spec.timeline
    )
    planned = plan_queries(generator, warmup + queries)
    vectors = {text: await embedder.embed_query(text) for _, text in planned}
    precomputed = PrecomputedQueryEmbedder(embedder, vectors)
    service = await open_with(precomputed, now)
    try:
        misses_before = precomputed.misses
        samples, contexts = await _interleaved(service, precomputed, planned, now, warmup)
        misses = precomputed.misses - misses_before - len(planned)
        calls = await _store_calls(service.store, planned, vectors, now, breakdown_queries)
    finally:
        await service.aclose()
    return ReplyTiming(
        latency={mode: summarise_latencies(values) for mode, values in samples.items()},
        store_calls=calls,
        mean_context_tokens=_mean([c.rendered.tokens for c in contexts]),
        mean_context_episodes=_mean([len(c.rendered.episode_ids) for c in contexts]),
        mean_context_facts=_mean([len(c.rendered.fact_ids) for c in contexts]),
        precomputed_misses=misses,
        paired_embedding_ms=_paired_difference_ms(
            samples["with_embedding"], samples["precomputed_query"]
        ),
    )


async def _measure_size(
    built: BuiltStore, embedder: Embedder, queries: int, warmup: int, breakdown_queries: int
) -> ContextSize:
    spec = built.spec

    async def embedded_service(inner: Embedder, now: datetime) -> Omoide:
        return await open_service(built.directory, inner, now)

    timing = await time_reply_path(
        spec,
        embedder,
        embedded_service,
        queries=queries,
        warmup=warmup,
        breakdown_queries=breakdown_queries,
    )
    return ContextSize(
        episodes=spec.episodes,
        viewers=spec.viewers,
        store_reused=built.reused,
        store_built_at=built.built_at,
        build_write_seconds=built.write_seconds,
        build_episodes_per_second=built.episodes_per_second,
        build_fact_seconds=built.fact_seconds,
        store_bytes=built.file_bytes,
        latency=timing.latency,
        store_calls=timing.store_calls,
        mean_context_tokens=timing.mean_context_tokens,
        mean_context_episodes=timing.mean_context_episodes,
        mean_context_facts=timing.mean_context_facts,
        precomputed_misses=timing.precomputed_misses,
        paired_embedding_ms=timing.paired_embedding_ms,
    )


def _paired_difference_ms(first: Sequence[float], second: Sequence[float]) -> float:
    """Median of the per-query differences, in milliseconds."""
    return 1000.0 * median([a - b for a, b in zip(first, second, strict=True)])


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


async def _interleaved(
    service: Omoide,
    embedder: PrecomputedQueryEmbedder,
    planned: Sequence[Query],
    now: datetime,
    warmup: int,
) -> tuple[dict[str, list[float]], list[Recollection]]:
    samples: dict[str, list[float]] = {mode: [] for mode in MODES}
    contexts: list[Recollection] = []
    memory = service.memory

    async def embedded(scope: Scope, text: str) -> Recollection:
        with embedder.bypassed():
            return await memory.retrieve_context(scope, text, now=now)

    for index, (scope, text) in enumerate(planned):
        steps: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("with_embedding", partial(embedded, scope, text)),
            ("precomputed_query", partial(memory.retrieve_context, scope, text, now=now)),
            ("embed_query_alone", partial(embedder.inner.embed_query, text)),
        ]
        rotation = index % len(steps)
        for mode, step in steps[rotation:] + steps[:rotation]:
            watch = Stopwatch()
            outcome = await step()
            elapsed = watch.elapsed()
            if index < warmup:
                continue
            samples[mode].append(elapsed)
            if mode == "precomputed_query" and isinstance(outcome, Recollection):
                contexts.append(outcome)
    return samples, contexts


async def _store_calls(
    store: MemoryBackend,
    planned: Sequence[Query],
    vectors: dict[str, Vector],
    now: datetime,
    count: int,
) -> dict[str, LatencySummary]:
    """Each store call of the reply path, timed alone, with the reply path's limits."""
    samples: dict[str, list[float]] = {}
    for scope, text in planned[:count]:
        for name, call in reply_store_calls(store, scope, text, vectors[text], now).items():
            watch = Stopwatch()
            await call()
            samples.setdefault(name, []).append(watch.elapsed())
    return {name: summarise_latencies(values) for name, values in samples.items()}


def reply_store_calls(
    store: MemoryBackend, scope: Scope, text: str, vector: Vector, now: datetime
) -> dict[str, Callable[[], Awaitable[object]]]:
    """The store calls ``Recaller`` makes for one message, with its default limits: the
    one ``read_for_reply`` call of the embedded store (after the query is embedded), the
    two a server store makes (one while the query is embedded, one by its vector), and
    each single-purpose read they are made of."""
    recall = RecallConfig()
    episodes_where = EpisodeFilter(min_importance=recall.min_importance, until=now)
    episodes = recall.episode_candidates
    facts = recall.fact_candidates
    since = now - timedelta(days=recall.emotion_days)
    besides = ReplyReads(
        episodes_where,
        episodes,
        facts,
        words=text,
        emotions_between=(since, now),
        facts_listed=FactFilter(include_inactive=True),
    )
    return {
        "episode_vectors": partial(
            store.search_episode_vectors, scope, vector, where=episodes_where, limit=episodes
        ),
        "episode_keywords": partial(
            store.search_episode_keywords, scope, text, where=episodes_where, limit=episodes
        ),
        "fact_vectors": partial(
            store.search_fact_vectors, scope, vector, where=FactFilter(), limit=facts
        ),
        "fact_keywords": partial(
            store.search_fact_keywords, scope, text, where=FactFilter(), limit=facts
        ),
        "emotions": partial(store.list_emotions, scope, since=since, until=now),
        "reply_reads_all": partial(store.read_for_reply, scope, replace(besides, vector=vector)),
        "reply_reads_words": partial(store.read_for_reply, scope, besides),
        "reply_reads_meaning": partial(
            store.read_for_reply, scope, ReplyReads(episodes_where, episodes, facts, vector=vector)
        ),
    }

"""Reply-path latency on the server profile (PostgreSQL + Qdrant), beside the embedded one.

The embedded benchmark stores are copied into a local PostgreSQL and Qdrant node
(``server_load``), then ``retrieve_context`` is timed exactly as in the embedded section
(``context_latency.time_reply_path``): the same planned queries and viewers, the three
interleaved modes, the same store-call breakdown. Every server number includes the
round trips: gRPC to Qdrant for the vector and keyword searches, and PostgreSQL queries
(over TCP on 127.0.0.1, through the store's connection pool) for the records.

Copying into Qdrant is slow on a small machine, so a size whose copy is projected to
take longer than the profile's bound (from the rate of a smaller size copied before) is
not loaded, and the report says so; a copy made by an earlier run is reused.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pydantic import SecretStr

from benchmarks.speed.context_latency import ReplyTiming, time_reply_path
from benchmarks.speed.corpus import CorpusSpec
from benchmarks.speed.server_load import (
    LocalEngines,
    ServerLoad,
    load_store,
    local_engines,
    namespace_for,
    recorded_load,
)
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.wiring import Omoide, build

logger = logging.getLogger(__name__)

TRANSPORT = "Qdrant over gRPC, PostgreSQL over TCP, both on 127.0.0.1"


@dataclass(frozen=True, slots=True)
class ServerSize:
    """Reply-path latency at one store size on the server profile."""

    episodes: int
    viewers: int
    load: ServerLoad
    timing: ReplyTiming


@dataclass(frozen=True, slots=True)
class ServerResult:
    postgres_version: str
    qdrant_version: str
    transport: str
    load_bound_seconds: float
    sizes: tuple[ServerSize, ...]
    not_measured: dict[str, str] = field(default_factory=dict)
    """Sizes (as text) left out, and why."""


def projected_load_seconds(episodes: int, earlier: Sequence[ServerLoad]) -> float | None:
    """How long copying ``episodes`` episodes should take, from the slowest rate seen
    (None before any size was copied)."""
    rates = [load.episodes_per_second for load in earlier if load.load_seconds > 0]
    if not rates:
        return None
    return episodes / min(rates)


def skip_reason(episodes: int, earlier: Sequence[ServerLoad], bound: float) -> str | None:
    """Why a size is not loaded (its projected copy exceeds ``bound``), or None."""
    projected = projected_load_seconds(episodes, earlier)
    if projected is None or projected <= bound:
        return None
    rate = min(load.episodes_per_second for load in earlier if load.load_seconds > 0)
    return (
        f"copying {episodes:,} episodes into PostgreSQL + Qdrant would take about "
        f"{projected / 60:,.0f} min at the {rate:,.0f} episodes/s measured on a smaller "
        f"store, above this profile's bound of {bound / 60:,.0f} min"
    )


async def measure_server(
    *,
    sizes: Sequence[int],
    spec_for: Callable[[int], CorpusSpec],
    ready_store: Callable[[int], Awaitable[Path]],
    embedder: Embedder,
    work_dir: Path,
    queries: int,
    warmup: int,
    breakdown_queries: int,
    load_bound_seconds: float,
) -> ServerResult:
    """Start the servers, copy each size in (or reuse the copy), time the reply path."""
    base_dir = work_dir / "server"
    measured: list[ServerSize] = []
    loads: list[ServerLoad] = []
    skipped: dict[str, str] = {}
    async with local_engines(base_dir) as engines:
        for episodes in sorted(sizes):
            directory = await ready_store(episodes)
            cached = recorded_load(base_dir, directory, episodes)
            reason = None if cached else skip_reason(episodes, loads, load_bound_seconds)
            if reason is not None:
                logger.warning("server profile: %s", reason)
                skipped[str(episodes)] = reason
                continue
            load = await load_store(
                engines, base_dir, directory, episodes, index_bound=load_bound_seconds
            )
            loads.append(load)
            logger.info("server profile: measuring %d episodes", episodes)
            timing = await time_reply_path(
                spec_for(episodes),
                embedder,
                _server_opener(engines, namespace_for(episodes), base_dir / "service"),
                queries=queries,
                warmup=warmup,
                breakdown_queries=breakdown_queries,
            )
            measured.append(ServerSize(episodes, spec_for(episodes).viewers, load, timing))
    return ServerResult(
        postgres_version=engines.postgres_version,
        qdrant_version=engines.qdrant_version,
        transport=TRANSPORT,
        load_bound_seconds=load_bound_seconds,
        sizes=tuple(measured),
        not_measured=skipped,
    )


def _server_opener(
    engines: LocalEngines, namespace: str, data_dir: Path
) -> Callable[[Embedder, datetime], Awaitable[Omoide]]:
    """Opens omoide as configured for the server profile (no LLM, no query cache)."""
    config = engines.config(namespace)

    async def open_with(embedder: Embedder, now: datetime) -> Omoide:
        settings = Settings(
            data_dir=data_dir,
            store="server",
            database_url=SecretStr(config.database_url),
            qdrant_url=config.qdrant_url,
            qdrant_grpc_port=config.qdrant_grpc_port,
            qdrant_collection_prefix=namespace,
            llm="none",
            query_cache_size=0,
        )
        return await build(settings, embedder=embedder, clock=FixedClock(now))

    return open_with

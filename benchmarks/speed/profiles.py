"""How much each speed profile measures: ``quick`` for a few minutes, ``full`` for the report."""

from __future__ import annotations

from dataclasses import dataclass

from omoide.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class SpeedProfile:
    """Sizes, sample counts and time bounds of one benchmark run."""

    name: str
    context_sizes: tuple[int, ...]
    context_queries: int
    warmup_queries: int
    breakdown_queries: int
    ingest_single_turns: int
    ingest_batch_turns: int
    ingest_rounds: int
    qdrant_sizes: tuple[int, ...]
    qdrant_ingest_seconds: float
    qdrant_queries: int
    qdrant_query_seconds: float
    llm_turns: int
    llm_reply_queries: int
    profiler_seconds: float
    server_sizes: tuple[int, ...] = (10_000,)
    server_load_seconds: float = 1800.0
    """A size is not copied into PostgreSQL + Qdrant when that is projected to take longer."""
    ingest_batch_sizes: tuple[int, ...] = (64, 256)
    viewers: int = 1000
    pool_size: int = 20_000


QUICK = SpeedProfile(
    name="quick",
    context_sizes=(10_000, 100_000),
    context_queries=200,
    warmup_queries=20,
    breakdown_queries=100,
    ingest_single_turns=128,
    ingest_batch_turns=1536,
    ingest_rounds=2,
    qdrant_sizes=(10_000,),
    qdrant_ingest_seconds=10.0,
    qdrant_queries=30,
    qdrant_query_seconds=20.0,
    llm_turns=400,
    llm_reply_queries=30,
    profiler_seconds=15.0,
)

FULL = SpeedProfile(
    name="full",
    context_sizes=(10_000, 100_000, 1_000_000),
    context_queries=500,
    warmup_queries=30,
    breakdown_queries=200,
    ingest_single_turns=512,
    ingest_batch_turns=3072,
    ingest_rounds=3,
    qdrant_sizes=(10_000, 100_000),
    qdrant_ingest_seconds=30.0,
    qdrant_queries=60,
    qdrant_query_seconds=90.0,
    llm_turns=1000,
    llm_reply_queries=100,
    profiler_seconds=30.0,
    server_sizes=(10_000, 100_000),
    server_load_seconds=2400.0,
)

PROFILES = {profile.name: profile for profile in (QUICK, FULL)}


def profile_named(name: str) -> SpeedProfile:
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise InvalidInput(f"unknown speed profile {name!r} (known: {known})") from None

"""The server profile's half of the composition root: PostgreSQL + Qdrant.

Everything here needs the ``server`` extra; :mod:`omoide.wiring.storage` imports this module
only inside :func:`omoide.wiring.storage.server_extra`, which names the extra when it is
missing. Every stateful part of a server instance (records, vectors, the turn queue,
character states, identity versions and stream logs, API keys) lives in the two engines,
so instances are interchangeable behind a load balancer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from omoide.clock import Clock
from omoide.config import Settings
from omoide.errors import ConfigError
from omoide.store.base import EmbeddingInfo
from omoide.store.server import ServerMemoryStore, open_server_store
from omoide.store.server.database import Database
from omoide.store.server.endpoints import ServerConfig
from omoide.store.server.growth import PostgresGrowthStore
from omoide.store.server.keys import PostgresKeyStore, open_postgres_key_store
from omoide.store.server.states import PostgresCharacterStateStore
from omoide.store.server.turn_queue import PostgresTurnQueue
from omoide.wiring.storage import MemoryBackend


def server_config(settings: Settings) -> ServerConfig:
    """The PostgreSQL + Qdrant endpoints named by the settings (OMOIDE_DATABASE_URL, ...)."""
    if settings.database_url is None or not settings.qdrant_url:
        raise ConfigError("OMOIDE_STORE=server needs OMOIDE_DATABASE_URL and OMOIDE_QDRANT_URL")
    key = settings.qdrant_api_key
    return ServerConfig(
        database_url=settings.database_url.get_secret_value(),
        qdrant_url=settings.qdrant_url,
        qdrant_api_key=key.get_secret_value() if key else None,
        qdrant_grpc_port=settings.qdrant_grpc_port,
        collection_prefix=settings.qdrant_collection_prefix,
        shard_number=settings.qdrant_shards,
        replication_factor=settings.qdrant_replication_factor,
        write_consistency_factor=settings.qdrant_write_consistency,
        pool_size=settings.database_pool_size,
    )


async def open_store(settings: Settings, embedding: EmbeddingInfo) -> ServerMemoryStore:
    return await open_server_store(server_config(settings), embedding=embedding)


def records_database(store: MemoryBackend) -> Database:
    """The PostgreSQL pool of the server store, which the other server parts share."""
    if not isinstance(store, ServerMemoryStore):
        raise ConfigError("OMOIDE_STORE=server needs the server store")
    return store.engines.database


def service_state(
    store: MemoryBackend, clock: Clock
) -> tuple[PostgresTurnQueue, PostgresCharacterStateStore]:
    database = records_database(store)
    return PostgresTurnQueue(database, clock=clock), PostgresCharacterStateStore(database)


def growth_store(store: MemoryBackend) -> PostgresGrowthStore:
    return PostgresGrowthStore(records_database(store))


def key_store(store: MemoryBackend) -> PostgresKeyStore:
    return PostgresKeyStore(records_database(store))


@asynccontextmanager
async def open_key_store(settings: Settings) -> AsyncIterator[PostgresKeyStore]:
    """Keys alone, on a small pool of their own (for ``omoide keys``)."""
    async with open_postgres_key_store(server_config(settings)) as store:
        yield store

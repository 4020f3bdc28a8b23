"""Opening a server store: connect, migrate, bind the model, prepare Qdrant, heal."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

from omoide.store.base import EmbeddingInfo
from omoide.store.server.database import Database, open_database
from omoide.store.server.embedding import (
    bind_embedding,
    check_embedding_info,
    recorded_embedding,
)
from omoide.store.server.endpoints import ServerConfig
from omoide.store.server.engines import Engines
from omoide.store.server.keyword_index import keyword_index_version, record_if_empty
from omoide.store.server.schema import apply_migrations
from omoide.store.server.store import ServerMemoryStore
from omoide.store.server.vector_index import connect_index

logger = logging.getLogger(__name__)


async def open_engines(config: ServerConfig, *, embedding: EmbeddingInfo) -> Engines:
    """Connect to both engines, migrate PostgreSQL, bind the model and prepare Qdrant.

    Raises :class:`~omoide.errors.Conflict` when the database holds vectors of another model,
    and :class:`~omoide.errors.BackendUnavailable` when an engine cannot be reached.
    """
    check_embedding_info(embedding)
    database = await open_database(
        config.database_url,
        location=config.database_location,
        size=config.pool_size,
        timeout=config.timeout_seconds,
    )
    index = connect_index(config)
    try:
        await apply_migrations(database)
        bound = await bind_embedding(database, embedding)
        await record_if_empty(database)
        await index.ensure_collections(bound.dimensions)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await index.close()
            await database.close()
        raise
    return Engines(database, index, bound)


async def open_server_store(config: ServerConfig, *, embedding: EmbeddingInfo) -> ServerMemoryStore:
    """Open the store and publish what a crash left in the outbox (the healing step).

    A keyword index built by an older analyzer is logged as a warning, not rebuilt: the
    rebuild (``omoide reindex``) can take minutes on a big collection.
    """
    engines = await open_engines(config, embedding=embedding)
    try:
        await engines.catch_up()
        keyword_index = await keyword_index_version(engines.database)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await engines.close()
        raise
    if keyword_index.stale:
        logger.warning(
            "PostgreSQL store at %s: %s", config.database_location, keyword_index.describe()
        )
    return ServerMemoryStore(engines)


@asynccontextmanager
async def open_migrated_database(config: ServerConfig) -> AsyncIterator[Database]:
    """PostgreSQL alone on a small pool of its own, schema migrated, closed after (for
    tools that need neither Qdrant nor an embedder)."""
    database = await open_database(
        config.database_url,
        location=config.database_location,
        size=2,
        timeout=config.timeout_seconds,
    )
    try:
        await apply_migrations(database)
        yield database
    finally:
        await database.close()


async def open_recorded(config: ServerConfig) -> Engines | None:
    """Both engines with the model the database records (None when nothing was ever stored).

    For maintenance (``omoide check``, ``omoide reindex``), which needs no embedder.
    """
    async with open_migrated_database(config) as database:
        recorded = await recorded_embedding(database)
    return None if recorded is None else await open_engines(config, embedding=recorded)

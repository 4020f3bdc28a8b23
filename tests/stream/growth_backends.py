"""The growth store backends the growth and identity tests run against, and how to open one.

``sqlite`` is a file in the test's directory; ``server`` is PostgreSQL, in a namespace
(schema) of its own from the session's pool in :mod:`tests.store.backends`, emptied and
handed back when the test ends. :func:`open_growth_database` opens one more connection
pool on a namespace: another instance of the service sharing the same database.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from omoide.store.base import EmbeddingInfo
from omoide.store.server.database import Database, open_database
from omoide.store.server.schema import apply_migrations
from omoide.wiring.server import server_growth
from omoide.wiring.storage import GrowthLogs, sqlite_growth
from tests.server.servers import LocalServers, session_servers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path
from tests.store.builders import EMBEDDING

GROWTH_BACKENDS = ("sqlite", "server")


@asynccontextmanager
async def server_namespace(
    request: pytest.FixtureRequest, directory: Path, *, embedding: EmbeddingInfo = EMBEDDING
) -> AsyncIterator[tuple[LocalServers, str]]:
    """A private, migrated PostgreSQL schema (skips when servers are unavailable), its
    memory store bound to ``embedding``."""
    servers = session_servers(request.config)
    backend = ServerBackend(namespace_pool(request.config, servers))
    await (await backend(directory, "growth", embedding)).close()
    try:
        yield servers, backend.namespace_of(directory, "growth")
    finally:
        await backend.give_back()


@asynccontextmanager
async def open_growth_database(servers: LocalServers, namespace: str) -> AsyncIterator[Database]:
    """A connection pool of its own on ``namespace``, as another instance would open."""
    database = await open_database(
        with_search_path(servers.database_url, namespace),
        location=f"test schema {namespace}",
        size=4,
        timeout=10.0,
    )
    try:
        await apply_migrations(database)
        yield database
    finally:
        await database.close()


@asynccontextmanager
async def open_growth(
    backend: str, request: pytest.FixtureRequest, directory: Path
) -> AsyncIterator[GrowthLogs]:
    """The growth logs of ``backend``, each built on its own as the composition root does."""
    if backend == "sqlite":
        logs = sqlite_growth(directory / "growth.sqlite3")
        try:
            yield logs
        finally:
            await logs.aclose()
        return
    async with (
        server_namespace(request, directory) as (servers, namespace),
        open_growth_database(servers, namespace) as database,
    ):
        yield server_growth(database)

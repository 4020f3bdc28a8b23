"""The store backends the contract tests run against, and how to open one.

A backend is an async function opening (or re-opening) the store called ``name`` under a
test's private directory. Adding a backend means adding an entry to :data:`BACKENDS` (or,
for one that needs servers, to :data:`SERVER_BACKENDS`); every contract test then runs
against it too.

The server backend (PostgreSQL + Qdrant) gives each store a namespace of its own: a
PostgreSQL schema (through the connection's ``search_path``) and a Qdrant collection
prefix. Creating Qdrant collections takes a noticeable fraction of a second, so a test's
namespaces are emptied when it ends (every table truncated, every point deleted) and
handed to later tests of the session; the first store of each namespace still creates
its collections through the store's own code.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from qdrant_client import AsyncQdrantClient, QdrantClient, models

from omoide.store.base import EmbeddingInfo
from omoide.store.server import ServerConfig, open_server_store
from omoide.store.sqlite import open_sqlite_store
from omoide.wiring.storage import MemoryBackend
from tests.server.servers import LocalServers

OpenBackend = Callable[[Path, str, EmbeddingInfo], Awaitable[MemoryBackend]]


async def open_sqlite(directory: Path, name: str, embedding: EmbeddingInfo) -> MemoryBackend:
    return await open_sqlite_store(directory / f"{name}.sqlite3", embedding=embedding)


BACKENDS: dict[str, OpenBackend] = {"sqlite": open_sqlite}
SERVER_BACKENDS = ("server",)
COLLECTION_KINDS = ("episodes", "facts")


def with_search_path(database_url: str, schema: str) -> str:
    """``database_url`` with every connection's search_path set to ``schema``."""
    separator = "&" if "?" in database_url else "?"
    return f"{database_url}{separator}options={quote(f'-csearch_path={schema}')}"


def server_config(servers: LocalServers, namespace: str) -> ServerConfig:
    return ServerConfig(
        database_url=with_search_path(servers.database_url, namespace),
        qdrant_url=servers.qdrant_url,
        qdrant_grpc_port=servers.qdrant_grpc_port,
        collection_prefix=namespace,
        pool_size=4,
    )


class NamespacePool:
    """Empty namespaces (schema + collections) of one session, by vector dimension."""

    def __init__(self, servers: LocalServers) -> None:
        self.servers = servers
        self.free: dict[int, list[str]] = {}
        self.every: list[str] = []
        self._numbers = itertools.count()

    def take(self, dimensions: int) -> str:
        free = self.free.get(dimensions)
        if free:
            return free.pop()
        namespace = f"omoide_test_{next(self._numbers)}"
        self.every.append(namespace)
        return namespace

    def give_back(self, namespace: str, dimensions: int) -> None:
        self.free.setdefault(dimensions, []).append(namespace)

    def drop_all(self) -> None:
        """Drop every namespace this session made (run once, when the session ends)."""
        client = QdrantClient(url=self.servers.qdrant_url, check_compatibility=False)
        try:
            with psycopg.connect(self.servers.database_url, autocommit=True) as connection:
                for namespace in self.every:
                    connection.execute(f'DROP SCHEMA IF EXISTS "{namespace}" CASCADE')
                    for kind in COLLECTION_KINDS:
                        client.delete_collection(f"{namespace}_{kind}")
        finally:
            client.close()


_POOL = pytest.StashKey[NamespacePool]()


def namespace_pool(config: pytest.Config, servers: LocalServers) -> NamespacePool:
    if _POOL not in config.stash:
        pool = NamespacePool(servers)
        config.stash[_POOL] = pool
        config.add_cleanup(pool.drop_all)
    return config.stash[_POOL]


class ServerBackend:
    """Opens server stores, each name of a test in a namespace of its own."""

    def __init__(self, pool: NamespacePool) -> None:
        self._pool = pool
        self._servers = pool.servers
        self._taken: dict[tuple[Path, str], tuple[str, int]] = {}

    async def __call__(self, directory: Path, name: str, embedding: EmbeddingInfo) -> MemoryBackend:
        key = (directory, name)
        if key not in self._taken:
            namespace = self._pool.take(embedding.dimensions)
            await self._execute(f'CREATE SCHEMA IF NOT EXISTS "{namespace}"')
            self._taken[key] = (namespace, embedding.dimensions)
        namespace, _ = self._taken[key]
        return await open_server_store(server_config(self._servers, namespace), embedding=embedding)

    def namespace_of(self, directory: Path, name: str) -> str:
        """The namespace of a store this backend opened."""
        return self._taken[(directory, name)][0]

    async def _execute(self, statement: str) -> None:
        url = self._servers.database_url
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
            await connection.execute(statement)

    async def give_back(self) -> None:
        """Empty this test's namespaces and return them to the pool."""
        client = AsyncQdrantClient(url=self._servers.qdrant_url, check_compatibility=False)
        try:
            for namespace, dimensions in self._taken.values():
                await self._empty(client, namespace)
                self._pool.give_back(namespace, dimensions)
        finally:
            await client.close()
        self._taken.clear()

    async def _empty(self, client: AsyncQdrantClient, namespace: str) -> None:
        await self._execute(
            "DO $$ DECLARE tables text; BEGIN "
            "SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO tables "
            f"FROM pg_tables WHERE schemaname = '{namespace}' "
            "AND tablename <> 'schema_migrations'; "
            "IF tables IS NOT NULL THEN "
            "EXECUTE 'TRUNCATE ' || tables || ' RESTART IDENTITY CASCADE'; END IF; END $$"
        )
        everything = models.FilterSelector(filter=models.Filter())
        for kind in COLLECTION_KINDS:
            name = f"{namespace}_{kind}"
            if await client.collection_exists(name):
                await client.delete(name, points_selector=everything, wait=True)

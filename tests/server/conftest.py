from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from omoide.store.server import Engines, ServerConfig, ServerMemoryStore, open_server_store
from tests.server.servers import LocalServers, session_servers
from tests.store.backends import ServerBackend, namespace_pool, server_config
from tests.store.builders import EMBEDDING


@pytest.fixture
def servers(request: pytest.FixtureRequest) -> LocalServers:
    return session_servers(request.config)


@pytest.fixture
async def namespace(
    request: pytest.FixtureRequest, servers: LocalServers, tmp_path: Path
) -> AsyncIterator[str]:
    """A private PostgreSQL schema + Qdrant collection prefix, emptied afterwards."""
    backend = ServerBackend(namespace_pool(request.config, servers))
    store = await backend(tmp_path, "main", EMBEDDING)
    await store.close()
    yield backend.namespace_of(tmp_path, "main")
    await backend.give_back()


@pytest.fixture
def config(servers: LocalServers, namespace: str) -> ServerConfig:
    return server_config(servers, namespace)


@pytest.fixture
async def server_store(config: ServerConfig) -> AsyncIterator[ServerMemoryStore]:
    store = await open_server_store(config, embedding=EMBEDDING)
    yield store
    await store.close()


@pytest.fixture
def engines(server_store: ServerMemoryStore) -> Engines:
    return server_store.engines

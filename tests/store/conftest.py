from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol

import pytest

from omoide.store.base import EmbeddingInfo
from omoide.wiring.storage import MemoryBackend
from tests.server.servers import session_servers
from tests.store.backends import (
    BACKENDS,
    SERVER_BACKENDS,
    OpenBackend,
    ServerBackend,
    namespace_pool,
)
from tests.store.builders import EMBEDDING


class StoreFactory(Protocol):
    """Opens the store ``name`` (the same name re-opens the same store)."""

    async def __call__(
        self, embedding: EmbeddingInfo = EMBEDDING, *, name: str = "main"
    ) -> MemoryBackend: ...


class _Opener:
    def __init__(self, open_backend: OpenBackend, directory: Path) -> None:
        self._open_backend = open_backend
        self._directory = directory
        self.opened: list[MemoryBackend] = []

    async def __call__(
        self, embedding: EmbeddingInfo = EMBEDDING, *, name: str = "main"
    ) -> MemoryBackend:
        store = await self._open_backend(self._directory, name, embedding)
        self.opened.append(store)
        return store


@pytest.fixture(params=sorted(BACKENDS) + list(SERVER_BACKENDS))
async def store_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[StoreFactory]:
    if request.param in BACKENDS:
        opener = _Opener(BACKENDS[request.param], tmp_path)
        yield opener
        for store in opener.opened:
            await store.close()
        return
    server = ServerBackend(namespace_pool(request.config, session_servers(request.config)))
    opener = _Opener(server, tmp_path)
    try:
        yield opener
    finally:
        for store in opener.opened:
            await store.close()
        await server.give_back()


@pytest.fixture
async def store(store_factory: StoreFactory) -> MemoryBackend:
    return await store_factory()

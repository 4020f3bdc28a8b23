"""A private, migrated PostgreSQL schema and the Qdrant beside it, for the server-profile
tests of this folder (skipped when the local servers are unavailable)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from omoide.store.base import EmbeddingInfo
from tests.hostile.forget_paths import EMBEDDER
from tests.server.servers import LocalServers
from tests.stream.growth_backends import server_namespace


@pytest.fixture
async def servers_and_namespace(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[LocalServers, str]]:
    info = EmbeddingInfo(EMBEDDER.model_name, EMBEDDER.dimensions)
    async with server_namespace(request, tmp_path, embedding=info) as found:
        yield found

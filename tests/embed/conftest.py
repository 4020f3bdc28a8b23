from __future__ import annotations

from collections.abc import Iterator

import pytest

from omoide.embed import E5Embedder, USEEmbedder
from tests.embed.scripted_http import ScriptedEmbeddingServer


@pytest.fixture
def embedding_server() -> Iterator[ScriptedEmbeddingServer]:
    server = ScriptedEmbeddingServer(dimensions=8)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def use_embedder() -> USEEmbedder:
    """One USE model per test session: loading it takes about a second."""
    return USEEmbedder(threads=1)


@pytest.fixture(scope="session")
def e5_embedder() -> E5Embedder:
    return E5Embedder(threads=1)

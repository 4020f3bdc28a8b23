"""``wiring.open_reader`` on the server profile: a view over a full build, reading what
another instance wrote to the shared servers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from omoide.config import Settings, load_settings
from omoide.domain import FactCategory, Scope
from omoide.embed.hashing import HashingEmbedder
from omoide.store.base import EmbeddingInfo
from omoide.wiring import build, open_reader
from tests.server.servers import LocalServers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
EMBEDDER = HashingEmbedder(64)


@pytest.fixture
async def reader_namespace(
    request: pytest.FixtureRequest, servers: LocalServers, tmp_path: Path
) -> AsyncIterator[str]:
    backend = ServerBackend(namespace_pool(request.config, servers))
    info = EmbeddingInfo(EMBEDDER.model_name, EMBEDDER.dimensions)
    await (await backend(tmp_path, "reader", info)).close()
    yield backend.namespace_of(tmp_path, "reader")
    await backend.give_back()


def instance_settings(servers: LocalServers, namespace: str, data_dir: Path) -> Settings:
    return load_settings(
        data_dir=data_dir,
        store="server",
        database_url=SecretStr(with_search_path(servers.database_url, namespace)),
        qdrant_url=servers.qdrant_url,
        qdrant_collection_prefix=namespace,
        embedder="hashing",
        embedder_dimensions=64,
        llm="none",
    )


async def test_the_reader_reads_what_another_instance_wrote(
    servers: LocalServers, reader_namespace: str, tmp_path: Path
) -> None:
    writer = await build(instance_settings(servers, reader_namespace, tmp_path / "writer"))
    try:
        await writer.memory.add_fact(VIEWER, "간호사로 일해요", FactCategory.PERSONAL)
        likes = (await writer.characters.load("haru")).profile.likes
        await writer.identity.propose("haru", {"likes": [*likes, "비 오는 날 로파이"]})
        facts = await writer.memory.list_facts(VIEWER)
        profile = await writer.memory.profile(VIEWER)
        pending = await writer.identity.changes("haru")
    finally:
        await writer.aclose()

    settings = instance_settings(servers, reader_namespace, tmp_path / "reader")
    async with open_reader(settings) as reader:
        memory = await reader.memory()
        identity = await reader.identity()
        assert await memory.list_facts(VIEWER) == facts
        assert await memory.profile(VIEWER) == profile
        assert await identity.changes("haru") == pending
    assert [fact.text for fact in facts] == ["간호사로 일해요"] and len(pending) == 1

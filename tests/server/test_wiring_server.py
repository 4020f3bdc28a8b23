"""``OMOIDE_STORE=server`` by configuration alone: stateless instances sharing two engines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from omoide.config import Settings, load_settings
from omoide.domain import Scope
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import ConfigError
from omoide.memory.turns import TurnInput
from omoide.store.base import EmbeddingInfo, EpisodeFilter
from omoide.store.server import ServerMemoryStore
from omoide.store.server.states import PostgresCharacterStateStore
from omoide.store.server.turn_queue import PostgresTurnQueue
from omoide.wiring import build
from tests.server.servers import LocalServers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
EMBEDDER = HashingEmbedder(64)


@pytest.fixture
async def hashing_namespace(
    request: pytest.FixtureRequest, servers: LocalServers, tmp_path: Path
) -> AsyncIterator[str]:
    backend = ServerBackend(namespace_pool(request.config, servers))
    info = EmbeddingInfo(EMBEDDER.model_name, EMBEDDER.dimensions)
    await (await backend(tmp_path, "wiring", info)).close()
    yield backend.namespace_of(tmp_path, "wiring")
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


async def test_two_instances_share_queue_memories_and_states_through_the_servers(
    servers: LocalServers, hashing_namespace: str, tmp_path: Path
) -> None:
    first = await build(instance_settings(servers, hashing_namespace, tmp_path / "one"))
    second = await build(instance_settings(servers, hashing_namespace, tmp_path / "two"))
    try:
        assert isinstance(first.store, ServerMemoryStore)
        assert isinstance(first.queue, PostgresTurnQueue)
        assert isinstance(first.states, PostgresCharacterStateStore)
        await first.queue.put([TurnInput(VIEWER, "나 롤 게임 엄청 좋아해요!", force_store=True)])
        drained = await second.drainer.drain_all()
        remembered = await first.store.list_episodes(VIEWER, where=EpisodeFilter(), limit=5)
        found = await second.store.search_episode_keywords(
            VIEWER, "롤 게임", where=EpisodeFilter(), limit=5
        )
    finally:
        await first.aclose()
        await second.aclose()

    assert drained == 1
    assert [item.user_message for item in remembered] == ["나 롤 게임 엄청 좋아해요!"]
    assert [hit.item.id for hit in found] == [remembered[0].id]
    left_on_disk = sorted(path.name for path in tmp_path.rglob("*.sqlite3"))
    assert left_on_disk == []


async def test_the_server_profile_names_the_settings_it_misses(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, store="server", embedder="hashing", llm="none")
    with pytest.raises(ConfigError, match="OMOIDE_DATABASE_URL"):
        await build(settings, embedder=EMBEDDER)

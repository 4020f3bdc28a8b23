"""``OMOIDE_STORE=server`` by configuration alone: stateless instances sharing two engines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from omoide.character.identity import OutcomeStatus
from omoide.config import Settings, load_settings
from omoide.domain import Scope, TurnInput
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import ConfigError
from omoide.llm.scripted import ScriptedChatModel
from omoide.store.base import EmbeddingInfo, EpisodeFilter
from omoide.store.server import ServerMemoryStore
from omoide.store.server.growth import PostgresStreamLog
from omoide.store.server.states import PostgresCharacterStateStore
from omoide.store.server.turn_queue import PostgresTurnQueue
from omoide.wiring import build
from tests.server.servers import LocalServers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path
from tests.stream.harness import StreamScript, comments

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
EMBEDDER = HashingEmbedder(64)
SERVER_PROFILE_FILES = ["calibration.json", "relevance.json"]
"""What an instance writes under data_dir (recomputable caches), before and after identity
versions and stream logs moved to PostgreSQL."""


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


async def test_the_server_profile_evolves_identities_in_postgresql_and_writes_no_file(
    servers: LocalServers, hashing_namespace: str, tmp_path: Path
) -> None:
    """A stream on one instance, its diary and the identity change it proposes, approved
    and rolled back on another: all of it in PostgreSQL, none of it in data_dir."""
    script = StreamScript()
    model = ScriptedChatModel(responder=script)
    data_dir = tmp_path / "one"
    first_settings = instance_settings(servers, hashing_namespace, data_dir)
    first = await build(first_settings.model_copy(update={"stream_llm": "on"}), chat_model=model)
    second = await build(instance_settings(servers, hashing_namespace, tmp_path / "two"))
    try:
        original = (await first.characters.load("haru")).profile
        script.identity_diff = {"likes": [*original.likes, "rainy-day streams"]}
        service = first.streams
        await service.ingest("haru", "s1", comments(["비 오는 날 좋아!", "rain is cozy"]))
        end = await service.end_stream("haru", "s1")
        (proposed,) = end.identity
        logged = await second.growth.stream.status("haru", "s1")
        approved = await second.identity.approve("haru", proposed.change_id or "")
        evolved = await first.identity.current_profile("haru")
        rolled_back = await first.identity.rollback("haru", 0)
        versions = await second.identity.versions("haru")
    finally:
        await first.aclose()
        await second.aclose()

    assert isinstance(first.growth.stream, PostgresStreamLog) and first.growth.file is None
    assert proposed.status is OutcomeStatus.PENDING
    assert (logged.comment_count, logged.ended_at is not None) == (2, True)
    assert approved.number == 1 and evolved.likes[-1] == "rainy-day streams"
    assert rolled_back.profile == original
    assert [(v.number, v.profile == original) for v in versions] == [
        (0, True),
        (1, False),
        (2, True),
    ]
    written = sorted(str(path.relative_to(data_dir)) for path in data_dir.rglob("*"))
    assert written == SERVER_PROFILE_FILES, "only the caches the server profile always wrote"

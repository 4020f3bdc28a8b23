"""Engines that cannot be reached, and settings that cannot work, fail with our errors."""

from __future__ import annotations

from dataclasses import replace

import psycopg
import psycopg.errors
import pytest
from psycopg_pool import PoolTimeout

from omoide.domain import Scope
from omoide.errors import BackendError, BackendUnavailable, ConfigError, InvalidInput
from omoide.store.base import EpisodeFilter
from omoide.store.server import ServerConfig, ServerMemoryStore, open_server_store
from omoide.store.server.database import translate_error
from scripts.local_servers import free_port
from tests.server.servers import LocalServers
from tests.store.backends import with_search_path
from tests.store.builders import EMBEDDING, episode, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")


async def test_an_unreachable_postgresql_is_unavailable() -> None:
    config = ServerConfig(
        database_url=f"postgresql://nobody@127.0.0.1:{free_port()}/omoide?connect_timeout=2",
        qdrant_url="http://127.0.0.1:9",
        timeout_seconds=3,
    )
    with pytest.raises(BackendUnavailable, match="PostgreSQL"):
        await open_server_store(config, embedding=EMBEDDING)


async def test_an_unreachable_qdrant_is_unavailable(config: ServerConfig) -> None:
    for dead in (
        replace(config, qdrant_url=f"http://127.0.0.1:{free_port()}", qdrant_grpc_port=None),
        replace(config, qdrant_grpc_port=free_port()),
    ):
        with pytest.raises(BackendUnavailable, match="Qdrant"):
            await open_server_store(dead, embedding=EMBEDDING)


async def test_a_connection_killed_by_the_server_is_replaced(
    server_store: ServerMemoryStore, servers: LocalServers, namespace: str
) -> None:
    await server_store.write_turns("haru", [turn(episode(VIEWER, "e1", "still here"))])
    url = with_search_path(servers.database_url, namespace)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )

    listed = await server_store.list_episodes(VIEWER, where=EpisodeFilter(), limit=5)

    assert [item.id for item in listed] == ["e1"]


async def test_text_postgresql_cannot_hold_is_invalid_input(
    server_store: ServerMemoryStore,
) -> None:
    with pytest.raises(InvalidInput):
        await server_store.write_turns("haru", [turn(episode(VIEWER, "e1", "nul \x00 byte"))])
    assert await server_store.count_episodes(VIEWER, where=EpisodeFilter()) == 0


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (PoolTimeout("no connection"), BackendUnavailable),
        (psycopg.OperationalError("server closed the connection"), BackendUnavailable),
        (psycopg.errors.DeadlockDetected("deadlock"), BackendUnavailable),
        (psycopg.errors.SerializationFailure("retry"), BackendUnavailable),
        (psycopg.DataError("bad value"), InvalidInput),
        (psycopg.ProgrammingError("bad query"), BackendError),
    ],
)
def test_psycopg_errors_map_to_ours(error: psycopg.Error, expected: type[Exception]) -> None:
    translated = translate_error(error, "postgresql://db:5432/omoide")
    assert type(translated) is expected
    assert "postgresql://db:5432/omoide" in str(translated) or expected is InvalidInput


@pytest.mark.parametrize(
    "fields",
    [
        {"database_url": "mysql://x/y"},
        {"qdrant_url": "qdrant:6333"},
        {"collection_prefix": "has space"},
        {"collection_prefix": ""},
        {"replication_factor": 0},
        {"qdrant_grpc_port": 70000},
        {"timeout_seconds": 0},
    ],
)
def test_impossible_settings_are_config_errors(fields: dict[str, object]) -> None:
    base: dict[str, object] = {
        "database_url": "postgresql://u:secret@db/omoide",
        "qdrant_url": "http://qdrant:6333",
    }
    with pytest.raises(ConfigError):
        ServerConfig(**{**base, **fields})  # type: ignore[arg-type]


def test_the_database_password_never_shows_in_a_config_repr() -> None:
    config = ServerConfig(
        database_url="postgresql://u:hunter2@db:5432/omoide",
        qdrant_url="http://qdrant:6333",
        qdrant_api_key="qdrant-secret",
    )
    assert "hunter2" not in repr(config) and "qdrant-secret" not in repr(config)
    assert config.database_location == "postgresql://db:5432/omoide"

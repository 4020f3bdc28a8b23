"""API keys in the server profile: kept in PostgreSQL, so every instance knows them.

Two instances of the service (two apps, each with its own data directory and connection
pool) share one database; requests come from a non-loopback address, as through a load
balancer. ``omoide keys`` reaches the same database with the same settings.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
import typer
from pydantic import SecretStr
from typer.testing import CliRunner

from omoide.cli.keys import keys_app
from omoide.config import Settings
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import ConfigError
from omoide.keys import KeyStore
from omoide.store.base import EmbeddingInfo
from omoide.store.records.keys import DATABASE_SOURCE
from omoide.store.server.keys import PostgresKeyStore
from omoide.wiring import open_key_store
from tests.api.harness import make_settings, running_api, viewer_path
from tests.server.servers import LocalServers
from tests.store.backends import ServerBackend, namespace_pool, with_search_path

pytestmark = pytest.mark.anyio

EMBEDDER = HashingEmbedder(256)
REMOTE_CLIENT = ("203.0.113.9", 40000)
NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
FACTS = viewer_path("haru", "minjun") + "/facts"


@pytest.fixture
async def keys_namespace(
    request: pytest.FixtureRequest, servers: LocalServers, tmp_path: Path
) -> AsyncIterator[str]:
    backend = ServerBackend(namespace_pool(request.config, servers))
    info = EmbeddingInfo(EMBEDDER.model_name, EMBEDDER.dimensions)
    await (await backend(tmp_path, "keys", info)).close()
    yield backend.namespace_of(tmp_path, "keys")
    await backend.give_back()


def server_settings(
    servers: LocalServers, namespace: str, data_dir: Path, **overrides: Any
) -> Settings:
    return make_settings(
        data_dir,
        store="server",
        database_url=SecretStr(with_search_path(servers.database_url, namespace)),
        qdrant_url=servers.qdrant_url,
        qdrant_collection_prefix=namespace,
        **overrides,
    )


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


async def test_a_key_made_on_one_instance_works_on_another_until_revoked_there(
    servers: LocalServers, keys_namespace: str, tmp_path: Path
) -> None:
    one = server_settings(servers, keys_namespace, tmp_path / "one")
    two = server_settings(servers, keys_namespace, tmp_path / "two")
    async with (
        running_api(one, client_address=REMOTE_CLIENT) as first,
        running_api(two, client_address=REMOTE_CLIENT) as second,
    ):
        first_keys, second_keys = first.service.built.keys, second.service.built.keys
        assert isinstance(first_keys, PostgresKeyStore)
        assert (await second.client.get(FACTS)).status_code == 401
        created = await first_keys.create(["haru"], now=NOW)
        assert (await second.client.get(FACTS, headers=bearer(created.secret))).status_code == 200
        assert (await first.client.get(FACTS, headers=bearer(created.secret))).status_code == 200
        elsewhere = viewer_path("ash", "minjun") + "/facts"
        refused = await second.client.get(elsewhere, headers=bearer(created.secret))
        assert refused.status_code == 403
        await second_keys.revoke(created.key.key_id)
        assert (await first.client.get(FACTS, headers=bearer(created.secret))).status_code == 401
        assert (await second.client.get(FACTS, headers=bearer(created.secret))).status_code == 401
    assert not (tmp_path / "one" / "keys.json").exists()
    assert not (tmp_path / "two" / "keys.json").exists()


async def test_a_public_instance_starts_only_once_the_database_holds_a_key(
    servers: LocalServers, keys_namespace: str, tmp_path: Path
) -> None:
    public = server_settings(servers, keys_namespace, tmp_path / "one", host="0.0.0.0")
    with pytest.raises(ConfigError, match="without API keys"):
        async with running_api(public, client_address=REMOTE_CLIENT):
            pass
    async with open_key_store(public) as store:
        created = await _create(store)
    async with running_api(public, client_address=REMOTE_CLIENT) as running:
        assert (await running.client.get(FACTS, headers=bearer(created))).status_code == 200
        assert (await running.client.get(FACTS)).status_code == 401


async def test_environment_keys_still_open_a_public_instance(
    servers: LocalServers, keys_namespace: str, tmp_path: Path
) -> None:
    public = server_settings(
        servers, keys_namespace, tmp_path, host="0.0.0.0", api_keys=SecretStr("s3cret:*")
    )
    async with running_api(public, client_address=REMOTE_CLIENT) as running:
        assert (await running.client.get(FACTS, headers=bearer("s3cret"))).status_code == 200


async def _create(store: KeyStore) -> str:
    return (await store.create(["haru"], now=NOW)).secret


# --- omoide keys, in the server profile -------------------------------------------------
@pytest.fixture
def fresh_schema(servers: LocalServers) -> Iterator[str]:
    """An empty schema of its own (the CLI migrates it), dropped afterwards."""
    schema = f"omoide_keys_cli_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(servers.database_url, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    yield schema
    with psycopg.connect(servers.database_url, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def server_environment(
    servers: LocalServers, fresh_schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OMOIDE_API_KEYS", raising=False)
    monkeypatch.setenv("OMOIDE_STORE", "server")
    monkeypatch.setenv("OMOIDE_DATABASE_URL", with_search_path(servers.database_url, fresh_schema))
    monkeypatch.setenv("OMOIDE_QDRANT_URL", servers.qdrant_url)


def shell() -> typer.Typer:
    app = typer.Typer()
    app.add_typer(keys_app, name="keys")
    return app


@pytest.mark.usefixtures("server_environment")
def test_the_cli_manages_the_keys_every_instance_shares(tmp_path: Path) -> None:
    runner = CliRunner()
    one, two = ["--data-dir", str(tmp_path / "one")], ["--data-dir", str(tmp_path / "two")]
    created = runner.invoke(shell(), ["keys", "create", "-c", "haru", *one, "--json"])
    assert created.exit_code == 0, created.output
    payload = json.loads(created.stdout)
    listed = runner.invoke(shell(), ["keys", "list", *two, "--json"])
    assert json.loads(listed.stdout) == [{k: v for k, v in payload.items() if k != "secret"}]
    assert payload["source"] == DATABASE_SOURCE
    assert payload["secret"] not in listed.stdout
    revoked = runner.invoke(shell(), ["keys", "revoke", payload["key_id"], *two])
    assert revoked.exit_code == 0, revoked.output
    again = runner.invoke(shell(), ["keys", "revoke", payload["key_id"], *one])
    assert again.exit_code == 1
    assert "api_keys" in again.output
    empty = runner.invoke(shell(), ["keys", "list", *one])
    assert "no API keys" in empty.stdout
    assert not list(tmp_path.rglob("keys.json"))

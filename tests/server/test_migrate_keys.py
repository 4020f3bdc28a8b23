"""``omoide migrate`` also moves the API keys of ``keys.json``: every client secret keeps
working on the server profile, with the same characters, and nothing is overwritten."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import anyio
import pytest

from omoide.keys import KeyRing
from omoide.store.base import EmbeddingInfo
from omoide.store.records.keys import DATABASE_SOURCE, ApiKey, hash_secret
from omoide.store.server import ServerConfig
from omoide.store.server.keys import PostgresKeyStore, open_postgres_key_store
from omoide.store.server.migrate import migrate_sqlite
from omoide.store.sqlite import open_sqlite_store
from omoide.store.sqlite.key_file import KeyFile
from tests.api.harness import running_api, viewer_path
from tests.server.servers import LocalServers
from tests.server.test_keys_server import (
    EMBEDDER,
    FACTS,
    NOW,
    REMOTE_CLIENT,
    bearer,
    server_settings,
)
from tests.server.test_migrate import run_command
from tests.store.backends import ServerBackend, namespace_pool, server_config

pytestmark = pytest.mark.anyio

EMBEDDING = EmbeddingInfo(EMBEDDER.model_name, EMBEDDER.dimensions)


@pytest.fixture
async def namespace(
    request: pytest.FixtureRequest, servers: LocalServers, tmp_path: Path
) -> AsyncIterator[str]:
    """A namespace bound to the embedder the app runs with, emptied afterwards."""
    backend = ServerBackend(namespace_pool(request.config, servers))
    await (await backend(tmp_path, "keys", EMBEDDING)).close()
    yield backend.namespace_of(tmp_path, "keys")
    await backend.give_back()


@pytest.fixture
def config(servers: LocalServers, namespace: str) -> ServerConfig:
    return server_config(servers, namespace)


@dataclass(frozen=True)
class Made:
    """A data directory's store and key file, and the secrets of its keys by key id."""

    store: Path
    keys: tuple[ApiKey, ...]
    secrets: dict[str, str]


async def embedded_data_dir(data_dir: Path) -> Made:
    """An embedded store with three keys beside it: one character, two, and every one."""
    store = await open_sqlite_store(data_dir / "omoide.sqlite3", embedding=EMBEDDING)
    await store.close()
    key_file = KeyFile(data_dir / "keys.json")
    created = [
        await key_file.create(characters, now=NOW)
        for characters in (["haru"], ["aoi", "haru"], ["*"])
    ]
    return Made(
        data_dir / "omoide.sqlite3",
        await key_file.load(),
        {made.key.key_id: made.secret for made in created},
    )


async def server_keys(config: ServerConfig) -> tuple[tuple[ApiKey, ...], object]:
    async with open_postgres_key_store(config) as store:
        return await store.load(), await store.fingerprint()


def migrate(config: ServerConfig, store: Path) -> dict[str, object]:
    result = run_command(config, "migrate", "--from", f"sqlite:///{store}", "--json")
    assert result.exit_code in (0, 1), result.output
    report: dict[str, object] = json.loads(result.output)
    return report


async def test_migrate_copies_the_keys_so_every_secret_works_with_the_same_characters(
    config: ServerConfig, tmp_path: Path
) -> None:
    made = await embedded_data_dir(tmp_path / "data")
    _, before = await server_keys(config)

    first = await migrate_sqlite(made.store, config)
    moved, after = await server_keys(config)
    again = await migrate_sqlite(made.store, config)
    unchanged, last = await server_keys(config)

    ids = tuple(key.key_id for key in made.keys)
    assert first.verified and first.keys.verified
    assert first.keys.source == tmp_path / "data" / "keys.json"
    assert (first.keys.total, first.keys.copied, first.keys.kept) == (3, ids, ())
    assert moved == tuple(replace(key, source=DATABASE_SOURCE) for key in made.keys)
    ring = KeyRing(moved)
    for key in made.keys:
        found = ring.authenticate(made.secrets[key.key_id])
        assert (found.key_id, found.characters) == (key.key_id, key.characters)
        assert found.created_at == key.created_at
    assert after != before, "running instances see the change counter move"
    assert again.verified and again.keys.copied == () and again.keys.kept == ids
    assert unchanged == moved and last == after, "nothing copied twice, no reload"


async def test_migrate_leaves_a_conflicting_key_on_the_server_and_says_so(
    config: ServerConfig, tmp_path: Path
) -> None:
    made = await embedded_data_dir(tmp_path / "data")
    one, two, every = made.keys
    theirs = (
        replace(one, secret_sha256=hash_secret("the server's own secret")),
        replace(two, characters=frozenset({"aoi"})),
        replace(every, key_id="k_server_own"),
    )
    async with open_postgres_key_store(config) as store:
        await store.adopt(theirs)
        held = await store.load()

    report = await anyio.to_thread.run_sync(lambda: migrate(config, made.store))

    keys = report["keys"]
    assert isinstance(keys, dict)
    assert report["verified"] is False and keys["verified"] is False
    assert keys["copied"] == [] and keys["kept"] == [one.key_id, two.key_id, every.key_id]
    reasons = {entry["key_id"]: entry["reason"] for entry in keys["mismatched"]}
    assert reasons == {
        one.key_id: "the server's key with this id has another secret",
        two.key_id: "the server's key may use ['aoi'], the file's ['aoi', 'haru']",
        every.key_id: "not on the server; its secret is key 'k_server_own' there",
    }
    assert (await server_keys(config))[0] == held, "never overwritten"
    shown = await anyio.to_thread.run_sync(
        lambda: run_command(config, "migrate", "--from", f"sqlite:///{made.store}")
    )
    assert shown.exit_code == 1
    assert f"API key differs {one.key_id}" in shown.output and "NOT verified" in shown.output


async def test_a_store_without_a_key_file_has_nothing_to_move(
    config: ServerConfig, tmp_path: Path
) -> None:
    made = await embedded_data_dir(tmp_path / "data")
    (tmp_path / "data" / "keys.json").unlink()

    report = await anyio.to_thread.run_sync(lambda: migrate(config, made.store))

    assert report["verified"] is True
    assert report["keys"] == {
        "source": None,
        "total": 0,
        "copied": [],
        "kept": [],
        "mismatched": [],
        "verified": True,
    }
    assert (await server_keys(config))[0] == ()


async def test_a_running_server_instance_accepts_the_migrated_secrets(
    servers: LocalServers, namespace: str, config: ServerConfig, tmp_path: Path
) -> None:
    made = await embedded_data_dir(tmp_path / "data")
    one, two, _ = made.keys
    settings = server_settings(servers, namespace, tmp_path / "instance")
    elsewhere = viewer_path("ash", "minjun") + "/facts"
    async with running_api(settings, client_address=REMOTE_CLIENT) as running:
        assert isinstance(running.service.built.keys, PostgresKeyStore)
        secret = bearer(made.secrets[one.key_id])
        assert (await running.client.get(FACTS, headers=secret)).status_code == 401

        await migrate_sqlite(made.store, config)

        assert (await running.client.get(FACTS, headers=secret)).status_code == 200
        assert (await running.client.get(elsewhere, headers=secret)).status_code == 403
        other = bearer(made.secrets[two.key_id])
        assert (await running.client.get(FACTS, headers=other)).status_code == 200
    assert not (tmp_path / "instance" / "keys.json").exists()

"""The key-store contract, run against the key file and PostgreSQL by the same tests.

Each backend is opened twice (two processes on one file, two instances on one database):
what one handle creates or revokes, the other sees, and its change marker moves.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest

from omoide.errors import InvalidInput, NotFound
from omoide.keys import KeyRing
from omoide.store.records.keys import ALL_CHARACTERS, hash_secret
from tests.server.key_backends import KEY_BACKENDS, KeyStores, open_key_stores

pytestmark = pytest.mark.anyio
NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


@pytest.fixture(params=KEY_BACKENDS)
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[KeyStores]:
    async with open_key_stores(request.param, request, tmp_path) as opened:
        yield opened


async def test_a_created_key_is_stored_as_its_hash_only(stores: KeyStores) -> None:
    created = await stores.first.create(["haru", "ash"], now=NOW)
    stored = await stores.stored()
    assert hash_secret(created.secret) in stored
    assert created.secret not in stored
    assert await stores.first.load() == (created.key,)
    assert await stores.second.load() == (created.key,)
    assert created.key.characters == frozenset({"haru", "ash"})
    assert created.key.created_at == NOW
    assert KeyRing(await stores.second.load()).authenticate(created.secret) == created.key


async def test_keys_load_oldest_first_each_with_its_own_id_and_secret(stores: KeyStores) -> None:
    first = await stores.first.create(["haru"], now=NOW)
    second = await stores.second.create([ALL_CHARACTERS], now=NOW)
    assert first.key.key_id != second.key.key_id
    assert first.secret != second.secret
    for store in (stores.first, stores.second):
        assert await store.load() == (first.key, second.key)


async def test_revoking_through_one_handle_removes_the_key_for_both(stores: KeyStores) -> None:
    kept = await stores.first.create(["haru"], now=NOW)
    gone = await stores.first.create(["ash"], now=NOW)
    assert await stores.second.revoke(gone.key.key_id) == gone.key
    assert await stores.first.load() == (kept.key,)
    with pytest.raises(NotFound, match="no API key"):
        await stores.first.revoke(gone.key.key_id)
    with pytest.raises(NotFound, match="OMOIDE_API_KEYS"):
        await stores.first.revoke("env-1")
    assert await stores.second.load() == (kept.key,)


async def test_the_change_marker_moves_on_every_change_from_either_handle(
    stores: KeyStores,
) -> None:
    seen = [await stores.second.fingerprint()]
    assert await stores.second.fingerprint() == seen[-1]
    created = await stores.first.create(["haru"], now=NOW)
    seen.append(await stores.second.fingerprint())
    other = await stores.second.create(["ash"], now=NOW)
    seen.append(await stores.first.fingerprint())
    await stores.second.revoke(created.key.key_id)
    seen.append(await stores.first.fingerprint())
    await stores.first.revoke(other.key.key_id)
    seen.append(await stores.second.fingerprint())
    assert seen[-1] == await stores.first.fingerprint()
    assert all(before != after for before, after in itertools.pairwise(seen))


async def test_a_refused_key_changes_nothing(stores: KeyStores) -> None:
    marker = await stores.first.fingerprint()
    for characters in ([], ["*", "haru"], ["../x"]):
        with pytest.raises(InvalidInput):
            await stores.first.create(characters, now=NOW)
    assert await stores.second.load() == ()
    assert await stores.second.fingerprint() == marker


async def test_concurrent_creates_from_both_handles_all_survive(stores: KeyStores) -> None:
    created: list[str] = []

    async def create_five(index: int) -> None:
        store = stores.first if index % 2 else stores.second
        for _ in range(5):
            created.append((await store.create(["haru"], now=NOW)).key.key_id)

    async with anyio.create_task_group() as group:
        for index in range(4):
            group.start_soon(create_five, index)
    loaded = await stores.first.load()
    assert sorted(key.key_id for key in loaded) == sorted(created)
    assert len(created) == 20


async def test_keys_name_where_they_are_kept(stores: KeyStores) -> None:
    location = stores.first.location
    assert "keys.json" in location or "api_keys" in location
    with pytest.raises(NotFound) as caught:
        await stores.first.revoke("k_unknown")
    assert location in str(caught.value)

"""The key store backends the key-store tests run against, two instances of each.

``file`` is the key file of a test directory, opened twice as two processes would;
``server`` is PostgreSQL in a private namespace (schema), reached through two connection
pools as two instances of the service would. :attr:`KeyStores.stored` reads back
everything the backend keeps, for checks that a secret is stored nowhere.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

from omoide.keys import KeyStore
from omoide.store.server.database import Database
from omoide.store.server.keys import PostgresKeyStore
from omoide.store.sqlite.key_file import KeyFile
from tests.stream.growth_backends import open_growth_database, server_namespace

KEY_BACKENDS = ("file", "server")


@dataclass(frozen=True)
class KeyStores:
    """Two handles on the same keys, and what the backend stores, as text."""

    first: KeyStore
    second: KeyStore
    stored: Callable[[], Awaitable[str]]


async def _table_text(database: Database) -> str:
    rows = await database.fetch_all("SELECT t::text FROM api_keys AS t")
    return "\n".join(str(row[0]) for row in rows)


@asynccontextmanager
async def open_key_stores(
    backend: str, request: pytest.FixtureRequest, directory: Path
) -> AsyncIterator[KeyStores]:
    if backend == "file":
        path = directory / "data" / "keys.json"

        async def file_text() -> str:
            return await anyio.Path(path).read_text(encoding="utf-8")

        yield KeyStores(KeyFile(path), KeyFile(path), file_text)
        return
    async with (
        server_namespace(request, directory) as (servers, namespace),
        open_growth_database(servers, namespace) as first,
        open_growth_database(servers, namespace) as second,
    ):
        yield KeyStores(
            PostgresKeyStore(first), PostgresKeyStore(second), lambda: _table_text(first)
        )

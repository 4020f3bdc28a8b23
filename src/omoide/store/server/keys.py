"""API keys in PostgreSQL: every instance of the server profile sees the same keys.

Implements :class:`~omoide.keys.KeyStore` like the embedded profile's key file: one row
per key with the SHA-256 hash of its secret (never the secret), its characters and its
creation time. Every create and revoke, and every adoption of keys from a key file
(:meth:`PostgresKeyStore.adopt`, for ``omoide migrate``), also bumps a one-row change
counter in the same transaction, so a running instance notices a change
(:meth:`PostgresKeyStore.fingerprint`) with one primary-key read, and reloads the keys only
then.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime

from omoide.domain import as_utc
from omoide.errors import BackendError, InvalidInput
from omoide.store.records.keys import (
    DATABASE_SOURCE,
    ApiKey,
    NewKey,
    check_characters,
    missing_key,
    new_key,
)
from omoide.store.server.connect import open_migrated_database
from omoide.store.server.database import (
    Connection,
    Database,
    Row,
    execute,
    fetch_all,
    fetch_one,
)
from omoide.store.server.endpoints import ServerConfig

_BUMP_VERSION = (
    "INSERT INTO api_key_changes (only_row, version) VALUES (true, 1) "
    "ON CONFLICT (only_row) DO UPDATE SET version = api_key_changes.version + 1"
)

_INSERT = "INSERT INTO api_keys (id, secret_sha256, characters, created_at) VALUES (%s, %s, %s, %s)"


def _values(key: ApiKey) -> tuple[object, ...]:
    return (key.key_id, key.secret_sha256, sorted(key.characters), key.created_at)


def _key_from_row(row: Row) -> ApiKey:
    key_id, digest, characters, created_at = row
    try:
        chosen = check_characters(characters)
    except InvalidInput as exc:
        raise BackendError(f"stored API key {key_id!r} is damaged: {exc}") from exc
    return ApiKey(
        key_id=key_id,
        secret_sha256=digest,
        characters=chosen,
        created_at=as_utc(created_at) if created_at is not None else None,
        source=DATABASE_SOURCE,
    )


class PostgresKeyStore:
    """Implements :class:`~omoide.keys.KeyStore` on the server store's database."""

    def __init__(self, database: Database) -> None:
        self._database = database

    @property
    def location(self) -> str:
        return f"the api_keys table of PostgreSQL at {self._database.location}"

    async def load(self) -> tuple[ApiKey, ...]:
        rows = await self._database.fetch_all(
            "SELECT id, secret_sha256, characters, created_at FROM api_keys ORDER BY position"
        )
        return tuple(_key_from_row(row) for row in rows)

    async def fingerprint(self) -> int:
        """The change counter: bumped by every create and revoke, on any instance."""
        rows = await self._database.fetch_all("SELECT version FROM api_key_changes")
        return int(rows[0][0]) if rows else 0

    async def create(self, characters: Iterable[str], *, now: datetime) -> NewKey:
        """Add a key for ``characters`` (``["*"]`` for all); the secret is returned once."""
        created = new_key(characters, now=now, source=DATABASE_SOURCE)
        key = created.key
        async with self._database.transaction() as connection:
            await execute(connection, _INSERT, _values(key))
            await execute(connection, _BUMP_VERSION)
        return created

    async def adopt(self, keys: Sequence[ApiKey]) -> tuple[str, ...]:
        """Add keys made elsewhere (a key file) as they are: same ids, hashes, characters
        and creation times, so their secrets keep working. A key whose id or hash is
        already here is left alone; returns the ids added (the change counter moves if any).
        """
        async with self._database.transaction() as connection:
            await execute(connection, "LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE")
            rows = await fetch_all(connection, "SELECT id, secret_sha256 FROM api_keys")
            ids, hashes = {str(row[0]) for row in rows}, {str(row[1]) for row in rows}
            added: list[str] = []
            for key in keys:
                if key.key_id in ids or key.secret_sha256 in hashes:
                    continue
                await execute(connection, _INSERT, _values(key))
                ids.add(key.key_id)
                hashes.add(key.secret_sha256)
                added.append(key.key_id)
            if added:
                await execute(connection, _BUMP_VERSION)
        return tuple(added)

    async def revoke(self, key_id: str) -> ApiKey:
        """Remove a key; NotFound if no instance created a key with that id."""
        async with self._database.transaction() as connection:
            row = await _delete(connection, key_id)
            if row is None:
                raise missing_key(key_id, self.location)
            await execute(connection, _BUMP_VERSION)
        return _key_from_row(row)


async def _delete(connection: Connection, key_id: str) -> Row | None:
    return await fetch_one(
        connection,
        "DELETE FROM api_keys WHERE id = %s RETURNING id, secret_sha256, characters, created_at",
        (key_id,),
    )


@asynccontextmanager
async def open_postgres_key_store(config: ServerConfig) -> AsyncIterator[PostgresKeyStore]:
    """The key store on its own small pool, schema migrated (for ``omoide keys``)."""
    async with open_migrated_database(config) as database:
        yield PostgresKeyStore(database)

"""Moving the embedded profile's API keys (``keys.json``) into PostgreSQL, then checking them.

The key file holds, per key, its id, the SHA-256 hash of its secret (never the secret), its
characters and when it was created; :meth:`PostgresKeyStore.adopt` copies those as they
are, so every client secret keeps working after the move, and moves the change counter so
running instances reload. A key whose id (or secret) the server already holds is left as
it is (reported as ``kept``); :func:`compare_keys` then tells whether each key of the file
is on the server with the same secret and characters. It is after an earlier run; a key id
the server gave another secret or other characters is a mismatch, never overwritten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio.to_thread

from omoide.store.records.keys import ApiKey
from omoide.store.server.keys import PostgresKeyStore
from omoide.store.sqlite.key_file import read_key_file


@dataclass(frozen=True, slots=True)
class KeyMismatch:
    """A key of the file the server does not hold as the file does."""

    key_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class KeyMigration:
    """What was copied from the key file, what was left, and what the check found."""

    source: Path | None
    total: int = 0
    copied: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    """Keys whose id or secret the server already held, left as they were."""
    mismatched: tuple[KeyMismatch, ...] = ()

    @property
    def verified(self) -> bool:
        return not self.mismatched


def _difference(wanted: ApiKey, held: ApiKey | None, owner: ApiKey | None) -> str | None:
    """Why the server's key ``held`` (same id) is not the file's ``wanted``, if it is not."""
    if held is None:
        elsewhere = f"; its secret is key {owner.key_id!r} there" if owner else ""
        return f"not on the server{elsewhere}"
    if held.secret_sha256 != wanted.secret_sha256:
        return "the server's key with this id has another secret"
    if held.characters != wanted.characters:
        theirs, ours = sorted(held.characters), sorted(wanted.characters)
        return f"the server's key may use {theirs}, the file's {ours}"
    return None


def compare_keys(wanted: Sequence[ApiKey], held: Sequence[ApiKey]) -> tuple[KeyMismatch, ...]:
    """Every key of ``wanted`` not held with the same id, secret and characters."""
    by_id = {key.key_id: key for key in held}
    by_hash = {key.secret_sha256: key for key in held}
    found = (
        (key, _difference(key, by_id.get(key.key_id), by_hash.get(key.secret_sha256)))
        for key in wanted
    )
    return tuple(KeyMismatch(key.key_id, reason) for key, reason in found if reason)


async def migrate_keys(path: Path, store: PostgresKeyStore) -> KeyMigration:
    """Copy the key file at ``path`` (if there is one) into ``store``, then compare."""
    if not path.is_file():
        return KeyMigration(None)
    keys = await anyio.to_thread.run_sync(read_key_file, path)
    copied = await store.adopt(keys)
    kept = tuple(key.key_id for key in keys if key.key_id not in copied)
    mismatched = compare_keys(keys, await store.load())
    return KeyMigration(path, len(keys), copied, kept, mismatched)

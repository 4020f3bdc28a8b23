"""Identity versions and pending changes, as tables in the server store's PostgreSQL.

:class:`PostgresIdentityTables` implements the identity seams
(:mod:`omoide.character.identity_store`) beside the server's stream logs
(:mod:`omoide.store.server.growth`), as :class:`~omoide.store.sqlite.identity.IdentityTables`
does in the growth file. Profiles and
diffs are stored as the same JSON text (``json`` keeps it as written) and read back with
the same decoders, so a rollback restores a profile exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omoide.errors import Conflict, NotFound
from omoide.store.records.identity import (
    ChangeStatus,
    IdentityVersion,
    PendingChange,
    change_row,
    change_texts,
    changes_from_json,
    profile_from_json,
    refused_from_json,
    version_row,
    version_texts,
)
from omoide.store.server.database import Connection, Database, execute
from omoide.store.server.growth_rows import record, records, utc, with_utc

_VERSION_COLUMNS = (
    "character_id, number, profile, changes, reason, created_at, diary_entry_id, change_id"
)
_SELECT_VERSIONS = (
    "SELECT character_id, number, profile::text AS profile, changes::text AS changes, reason, "
    "created_at, diary_entry_id, change_id FROM identity_versions WHERE character_id = %s"
)
_INSERT_VERSION = (
    f"INSERT INTO identity_versions ({_VERSION_COLUMNS}) "
    "VALUES (%s, %s, %s::json, %s::json, %s, %s, %s, %s)"
)
_CHANGE_COLUMNS = (
    "id, character_id, base_version, changes, refused, created_at, status, diary_entry_id, "
    "decided_at, version"
)
_SELECT_CHANGES = (
    "SELECT id, character_id, base_version, changes::text AS changes, refused::text AS refused, "
    "created_at, status, diary_entry_id, decided_at, version FROM identity_changes "
    "WHERE character_id = %(character)s"
)
_INSERT_CHANGE = (
    f"INSERT INTO identity_changes ({_CHANGE_COLUMNS}) "
    "VALUES (%s, %s, %s, %s::json, %s::json, %s, %s, %s, %s, %s)"
)
_LIST_CHANGES = (
    f"{_SELECT_CHANGES} AND (%(status)s::text IS NULL OR status = %(status)s) "
    "ORDER BY created_at, internal_id"
)
_DECIDE = (
    "UPDATE identity_changes SET status = %s, decided_at = %s, version = %s "
    "WHERE id = %s AND character_id = %s"
)

_REWRITE_VERSION = (
    "UPDATE identity_versions SET profile = %s::json, changes = %s::json, reason = %s "
    "WHERE character_id = %s AND number = %s"
)
_REWRITE_CHANGE = (
    "UPDATE identity_changes SET changes = %s::json, refused = %s::json "
    "WHERE character_id = %s AND id = %s"
)


def _version(row: dict[str, Any]) -> IdentityVersion:
    decoded: dict[str, Any] = {"profile": profile_from_json(row["profile"])}
    decoded["changes"] = changes_from_json(row["changes"])
    return IdentityVersion(**with_utc(row, "created_at") | decoded)


def _change(row: dict[str, Any]) -> PendingChange:
    decoded: dict[str, Any] = {"status": ChangeStatus(row["status"])}
    decoded["changes"] = changes_from_json(row["changes"])
    decoded["refused"] = refused_from_json(row["refused"])
    return PendingChange(**with_utc(row, "created_at", "decided_at") | decoded)


async def _decide(connection: Connection, change: PendingChange) -> None:
    decided = None if change.decided_at is None else utc(change.decided_at)
    await execute(
        connection,
        _DECIDE,
        (change.status.value, decided, change.version, change.id, change.character_id),
    )


class PostgresIdentityTables:
    """Implements the identity seams (:mod:`omoide.character.identity_store`) on ``database``."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def list_versions(self, character_id: str) -> list[IdentityVersion]:
        async with self._database.transaction() as connection:
            rows = await records(connection, f"{_SELECT_VERSIONS} ORDER BY number", (character_id,))
        return [_version(row) for row in rows]

    async def latest_version(self, character_id: str) -> IdentityVersion | None:
        query = f"{_SELECT_VERSIONS} ORDER BY number DESC LIMIT 1"
        async with self._database.transaction() as connection:
            row = await record(connection, query, (character_id,))
        return None if row is None else _version(row)

    async def add_version(
        self, version: IdentityVersion, *, decided: PendingChange | None = None
    ) -> None:
        v = version
        row = version_row(v, utc)
        try:
            async with self._database.transaction() as connection:
                await execute(connection, _INSERT_VERSION, row)
                if decided is not None:
                    await _decide(connection, decided)
        except Conflict as exc:  # the primary key: another writer took this number
            taken = f"version {v.number} of character {v.character_id!r} already exists"
            raise Conflict(taken) from exc

    async def add_change(self, change: PendingChange) -> None:
        row = change_row(change, utc)
        async with self._database.transaction() as connection:
            await execute(connection, _INSERT_CHANGE, row)

    async def get_change(self, character_id: str, change_id: str) -> PendingChange:
        query = f"{_SELECT_CHANGES} AND id = %(change)s"
        wanted: dict[str, object] = {"character": character_id, "change": change_id}
        async with self._database.transaction() as connection:
            row = await record(connection, query, wanted)
        if row is None:
            raise NotFound(f"character {character_id!r} has no identity change {change_id!r}")
        return _change(row)

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]:
        wanted: dict[str, object] = {
            "character": character_id,
            "status": None if status is None else status.value,
        }
        async with self._database.transaction() as connection:
            rows = await records(connection, _LIST_CHANGES, wanted)
        return [_change(row) for row in rows]

    async def save_decision(self, change: PendingChange) -> None:
        async with self._database.transaction() as connection:
            await _decide(connection, change)

    async def rewrite_identity(
        self, versions: Sequence[IdentityVersion], changes: Sequence[PendingChange]
    ) -> None:
        async with self._database.transaction() as connection:
            for v in versions:
                row = (*version_texts(v), v.character_id, v.number)
                await execute(connection, _REWRITE_VERSION, row)
            for h in changes:
                await execute(connection, _REWRITE_CHANGE, (*change_texts(h), h.character_id, h.id))

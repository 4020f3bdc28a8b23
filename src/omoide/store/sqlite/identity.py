"""Identity versions and pending changes, as tables in the growth file (``growth.sqlite3``).

:class:`IdentityTables` implements the identity seams
(:mod:`omoide.character.identity_store`) on the growth file's
:class:`~omoide.store.sqlite.connection.Database`, beside the stream logs
(:mod:`omoide.store.sqlite.growth`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import apsw

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
from omoide.store.sqlite import growth_rows as db
from omoide.store.sqlite.connection import Database


def create_identity_tables(connection: apsw.Connection) -> None:
    connection.execute("""
        CREATE TABLE identity_versions (
            character_id TEXT NOT NULL, number INTEGER NOT NULL, profile TEXT NOT NULL,
            changes TEXT NOT NULL, reason TEXT NOT NULL, created_at TEXT NOT NULL,
            diary_entry_id TEXT, change_id TEXT, PRIMARY KEY (character_id, number));
        CREATE TABLE identity_changes (
            id TEXT PRIMARY KEY, character_id TEXT NOT NULL, base_version INTEGER,
            changes TEXT NOT NULL, refused TEXT NOT NULL, created_at TEXT NOT NULL,
            status TEXT NOT NULL, diary_entry_id TEXT, decided_at TEXT, version INTEGER);
        CREATE INDEX identity_changes_by_character ON identity_changes (character_id, created_at);
    """)


def _version(row: dict[str, Any]) -> IdentityVersion:
    decoded: dict[str, Any] = {"profile": profile_from_json(row["profile"])}
    decoded["changes"] = changes_from_json(row["changes"])
    return IdentityVersion(**db.with_times(row, "created_at") | decoded)


def _change(row: dict[str, Any]) -> PendingChange:
    decoded: dict[str, Any] = {"status": ChangeStatus(row["status"])}
    decoded["changes"] = changes_from_json(row["changes"])
    decoded["refused"] = refused_from_json(row["refused"])
    return PendingChange(**db.with_times(row, "created_at", "decided_at") | decoded)


class IdentityTables:
    """Implements the identity seams (:mod:`omoide.character.identity_store`) on ``database``."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def list_versions(self, character_id: str) -> list[IdentityVersion]:
        sql = f"{_SELECT_VERSIONS} ORDER BY number"
        rows = await self._database.write(lambda c: db.rows(c, sql, (character_id,)))
        return [_version(row) for row in rows]

    async def latest_version(self, character_id: str) -> IdentityVersion | None:
        sql = f"{_SELECT_VERSIONS} ORDER BY number DESC LIMIT 1"
        row = await self._database.write(lambda c: db.one(c, sql, (character_id,)))
        return None if row is None else _version(row)

    async def add_version(
        self, version: IdentityVersion, *, decided: PendingChange | None = None
    ) -> None:
        v = version
        row = version_row(v, db.time_text)

        def write(c: apsw.Connection) -> None:
            try:
                c.execute(_INSERT_VERSION, row)
            except apsw.ConstraintError as exc:
                taken = f"version {v.number} of character {v.character_id!r} already exists"
                raise Conflict(taken) from exc
            if decided is not None:
                _decide(c, decided)

        await self._database.write(write)

    async def add_change(self, change: PendingChange) -> None:
        row = change_row(change, db.time_text)
        await self._database.write(lambda c: c.execute(_INSERT_CHANGE, row))

    async def get_change(self, character_id: str, change_id: str) -> PendingChange:
        sql = f"SELECT {_CHANGE_COLUMNS} FROM identity_changes WHERE character_id = ? AND id = ?"
        row = await self._database.write(lambda c: db.one(c, sql, (character_id, change_id)))
        if row is None:
            raise NotFound(f"character {character_id!r} has no identity change {change_id!r}")
        return _change(row)

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]:
        wanted = (character_id, None if status is None else status.value)
        rows = await self._database.write(lambda c: db.rows(c, _LIST_CHANGES, wanted))
        return [_change(row) for row in rows]

    async def save_decision(self, change: PendingChange) -> None:
        await self._database.write(lambda c: _decide(c, change))

    async def rewrite_identity(
        self, versions: Sequence[IdentityVersion], changes: Sequence[PendingChange]
    ) -> None:
        version_rows = [(*version_texts(v), v.character_id, v.number) for v in versions]
        change_rows = [(*change_texts(h), h.character_id, h.id) for h in changes]

        def write(c: apsw.Connection) -> None:
            c.executemany(_REWRITE_VERSION, version_rows)
            c.executemany(_REWRITE_CHANGE, change_rows)

        await self._database.write(write)


def _decide(c: apsw.Connection, change: PendingChange) -> None:
    decided = None if change.decided_at is None else db.time_text(change.decided_at)
    c.execute(
        "UPDATE identity_changes SET status = ?, decided_at = ?, version = ? "
        "WHERE id = ? AND character_id = ?",
        (change.status.value, decided, change.version, change.id, change.character_id),
    )


_REWRITE_VERSION = (
    "UPDATE identity_versions SET profile = ?, changes = ?, reason = ? "
    "WHERE character_id = ? AND number = ?"
)
_REWRITE_CHANGE = (
    "UPDATE identity_changes SET changes = ?, refused = ? WHERE character_id = ? AND id = ?"
)
_VERSION_COLUMNS = (
    "character_id, number, profile, changes, reason, created_at, diary_entry_id, change_id"
)
_SELECT_VERSIONS = f"SELECT {_VERSION_COLUMNS} FROM identity_versions WHERE character_id = ?"
_INSERT_VERSION = (
    f"INSERT INTO identity_versions ({_VERSION_COLUMNS}) VALUES ({', '.join('?' * 8)})"
)
_CHANGE_COLUMNS = (
    "id, character_id, base_version, changes, refused, created_at, status, diary_entry_id, "
    "decided_at, version"
)
_INSERT_CHANGE = f"INSERT INTO identity_changes ({_CHANGE_COLUMNS}) VALUES ({', '.join('?' * 10)})"
_LIST_CHANGES = (
    f"SELECT {_CHANGE_COLUMNS} FROM identity_changes WHERE character_id = ?1 "
    "AND (?2 IS NULL OR status = ?2) ORDER BY created_at, rowid"
)

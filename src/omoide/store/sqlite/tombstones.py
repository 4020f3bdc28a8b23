"""Tombstones: what remains of a deleted memory (id, kind, scope, time, reason), never content.

A person's deletion of a fact also leaves keyed digests of what it said (see
``omoide.memory.facts.digests``), so a viewer repeating it does not bring it back; they
cannot be read back as text, are never exported, and go when the scope is forgotten.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from omoide.domain import MemoryKind, Scope, Tombstone, as_utc
from omoide.store.rows import TOMBSTONE_COLUMNS
from omoide.store.sqlite.codec import to_micros, tombstone_from_row
from omoide.store.sqlite.connection import fetch_all

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    import apsw


def write_tombstones(
    connection: apsw.Connection,
    scope_id: int,
    kind: MemoryKind,
    memory_ids: Sequence[str],
    *,
    reason: str,
    at: datetime,
) -> None:
    deleted_at = to_micros(at, name="at")
    connection.executemany(
        "INSERT INTO tombstones (memory_id, kind, scope_id, deleted_at, reason) "
        "VALUES (?, ?, ?, ?, ?)",
        [(memory_id, kind.value, scope_id, deleted_at, reason) for memory_id in memory_ids],
    )


def tombstone_for(
    scope: Scope, kind: MemoryKind, memory_id: str, *, reason: str, at: datetime
) -> Tombstone:
    """The value :func:`write_tombstones` stores for one memory, as returned to callers."""
    return Tombstone(
        memory_id=memory_id,
        kind=kind,
        scope=scope,
        deleted_at=as_utc(at, name="at"),
        reason=reason,
    )


def list_tombstones(connection: apsw.Connection, scope_id: int) -> list[Tombstone]:
    rows = fetch_all(
        connection,
        f"SELECT {TOMBSTONE_COLUMNS} FROM tombstones t JOIN scopes s ON s.id = t.scope_id "
        "WHERE t.scope_id = ? ORDER BY t.deleted_at, t.internal_id",
        (scope_id,),
    )
    return [tombstone_from_row(row) for row in rows]


def write_fact_digests(
    connection: apsw.Connection, scope_id: int, fact_id: str, digests: Sequence[str]
) -> None:
    """Keep the keyed digests a deleted fact left with its tombstone (never its text)."""
    connection.executemany(
        "INSERT OR IGNORE INTO deleted_fact_digests (scope_id, digest, memory_id) VALUES (?, ?, ?)",
        [(scope_id, digest, fact_id) for digest in digests],
    )


def deleted_fact_digests(
    connection: apsw.Connection, scope_id: int, digests: Sequence[str]
) -> set[str]:
    """Those of ``digests`` that facts deleted in the scope left."""
    rows = fetch_all(
        connection,
        "SELECT DISTINCT digest FROM deleted_fact_digests "
        "WHERE scope_id = ? AND digest IN (SELECT value FROM json_each(?))",
        (scope_id, json.dumps(list(digests))),
    )
    return {str(row[0]) for row in rows}


def forget_fact_digests(connection: apsw.Connection, scope_id: int) -> None:
    """Remove every digest the scope's deleted facts left (forget means gone)."""
    connection.execute("DELETE FROM deleted_fact_digests WHERE scope_id = ?", (scope_id,))

"""Tombstones: what remains of a deleted memory (id, kind, scope, time, reason), never content.

A person's deletion of a fact also leaves keyed digests of what it said (see
``omoide.memory.facts.digests``), so a viewer repeating it does not bring it back; they
cannot be read back as text, are never exported, and go when the scope is forgotten.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from omoide.domain import MemoryKind, Scope, Tombstone, as_utc
from omoide.store.rows import TOMBSTONE_COLUMNS
from omoide.store.server.codec import tombstone_from_row
from omoide.store.server.database import Connection, execute, fetch_all


async def write_tombstones(
    connection: Connection,
    scope_id: int,
    kind: MemoryKind,
    memory_ids: Sequence[str],
    *,
    reason: str,
    at: datetime,
) -> None:
    if not memory_ids:
        return
    await execute(
        connection,
        "INSERT INTO tombstones (memory_id, kind, scope_id, deleted_at, reason) "
        "SELECT memory_id, %s, %s, %s, %s FROM unnest(%s::text[]) WITH ORDINALITY "
        "AS deleted(memory_id, position) ORDER BY position",
        (kind.value, scope_id, as_utc(at, name="at"), reason, list(memory_ids)),
    )


def tombstone_for(
    scope: Scope, kind: MemoryKind, memory_id: str, *, reason: str, at: datetime
) -> Tombstone:
    """The value :func:`write_tombstones` stores for one memory, as returned to callers."""
    return Tombstone(
        memory_id=memory_id, kind=kind, scope=scope, deleted_at=as_utc(at, name="at"), reason=reason
    )


async def list_tombstones(connection: Connection, scope_id: int) -> list[Tombstone]:
    rows = await fetch_all(
        connection,
        f"SELECT {TOMBSTONE_COLUMNS} FROM tombstones t JOIN scopes s ON s.id = t.scope_id "
        "WHERE t.scope_id = %s ORDER BY t.deleted_at, t.internal_id",
        (scope_id,),
    )
    return [tombstone_from_row(row) for row in rows]


async def write_fact_digests(
    connection: Connection, scope_id: int, fact_id: str, digests: Sequence[str]
) -> None:
    """Keep the keyed digests a deleted fact left with its tombstone (never its text)."""
    if not digests:
        return
    await execute(
        connection,
        "INSERT INTO deleted_fact_digests (scope_id, digest, memory_id) "
        "SELECT %s, digest, %s FROM unnest(%s::text[]) AS kept(digest) ON CONFLICT DO NOTHING",
        (scope_id, fact_id, list(digests)),
    )


async def deleted_fact_digests(
    connection: Connection, scope_id: int, digests: Sequence[str]
) -> set[str]:
    """Those of ``digests`` that facts deleted in the scope left."""
    rows = await fetch_all(
        connection,
        "SELECT DISTINCT digest FROM deleted_fact_digests "
        "WHERE scope_id = %s AND digest = ANY(%s::text[])",
        (scope_id, list(digests)),
    )
    return {str(row[0]) for row in rows}


async def forget_fact_digests(connection: Connection, scope_id: int) -> None:
    """Remove every digest the scope's deleted facts left (forget means gone)."""
    await execute(connection, "DELETE FROM deleted_fact_digests WHERE scope_id = %s", (scope_id,))

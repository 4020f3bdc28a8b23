"""Tombstones: what remains of a deleted memory (id, kind, scope, time, reason), never content."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from omoide.domain import MemoryKind, Scope, Tombstone, as_utc
from omoide.store.server.codec import TOMBSTONE_COLUMNS, tombstone_from_row
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

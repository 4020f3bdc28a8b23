"""The vector outbox: how PostgreSQL (the truth) and Qdrant (derived) are kept in step.

Every write that changes what a Qdrant point should be records ``(kind, internal_id)`` in
``vector_outbox`` *in the same PostgreSQL transaction* as the records. After the commit the
writer publishes those entries: it locks them, reads the records' current state, upserts
(or, for records that no longer exist, deletes) the points, deletes the entries and
commits. A crash, or Qdrant being down, between the commit and the publish leaves the
entries behind; :meth:`Outbox.replay` publishes them on the next start (and whenever a
store notices it fell behind), so the two engines converge.

Ordering: a publisher holds the entries' row locks (``FOR UPDATE``) while it reads the
records and writes to Qdrant, and a writer touching the same record must take the same
row lock to record its entry (``ON CONFLICT DO UPDATE``), so a later change always
publishes after an earlier one and the index never ends on a stale version. Entries are
locked and queued in ``(kind, internal_id)`` order, so publishers and writers do not
deadlock. ``SKIP LOCKED`` lets a publisher leave an entry another one is publishing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence

from qdrant_client import models

from omoide.store.server.database import Connection, Database, execute, fetch_all
from omoide.store.server.points import (
    PointKind,
    build_point,
    point_alias,
    point_columns,
    point_source,
)
from omoide.store.server.vector_index import VectorIndex

logger = logging.getLogger(__name__)

REPLAY_BATCH = 500


async def queue_points(
    connection: Connection, kind: PointKind, internal_ids: Iterable[int]
) -> None:
    """Record, inside the caller's transaction, that these points must be re-published."""
    ordered = sorted(set(internal_ids))
    if ordered:
        await execute(
            connection,
            "INSERT INTO vector_outbox (kind, internal_id) "
            "SELECT %s, id FROM unnest(%s::bigint[]) AS queued(id) ORDER BY id "
            "ON CONFLICT (kind, internal_id) DO UPDATE SET queued_at = now()",
            (kind, ordered),
        )


class Outbox:
    """Publishes outbox entries of one store to its vector index."""

    def __init__(self, database: Database, index: VectorIndex, dimensions: int) -> None:
        self._database = database
        self._index = index
        self._dimensions = dimensions

    async def publish(self, entries: Mapping[PointKind, Sequence[int]]) -> None:
        """Publish these entries (those another publisher holds are left to it)."""
        for kind in sorted(entries):
            ids = sorted(set(entries[kind]))
            if not ids:
                continue
            async with self._database.transaction() as connection:
                rows = await fetch_all(
                    connection,
                    "SELECT internal_id FROM vector_outbox WHERE kind = %s "
                    "AND internal_id = ANY(%s) ORDER BY internal_id FOR UPDATE SKIP LOCKED",
                    (kind, ids),
                )
                await self._publish_locked(connection, kind, [int(row[0]) for row in rows])

    async def replay(self, *, batch: int = REPLAY_BATCH) -> int:
        """Publish every pending entry; returns how many were published."""
        total = 0
        while True:
            async with self._database.transaction() as connection:
                rows = await fetch_all(
                    connection,
                    "SELECT kind, internal_id FROM vector_outbox ORDER BY kind, internal_id "
                    "LIMIT %s FOR UPDATE SKIP LOCKED",
                    (batch,),
                )
                for kind in ("episode", "fact"):
                    ids = [int(row[1]) for row in rows if row[0] == kind]
                    await self._publish_locked(connection, kind, ids)
            total += len(rows)
            if len(rows) < batch:
                if total:
                    logger.info("published %d pending vector index entries", total)
                return total

    async def pending(self) -> int:
        rows = await self._database.fetch_all("SELECT count(*) FROM vector_outbox")
        return int(rows[0][0])

    async def _publish_locked(
        self, connection: Connection, kind: PointKind, ids: list[int]
    ) -> None:
        if not ids:
            return
        await self.sync_points(connection, kind, ids)
        await execute(
            connection,
            "DELETE FROM vector_outbox WHERE kind = %s AND internal_id = ANY(%s)",
            (kind, ids),
        )

    async def sync_points(
        self, connection: Connection, kind: PointKind, ids: Sequence[int]
    ) -> None:
        """Make the points of ``ids`` match their records (deleting those without one)."""
        points = await current_points(connection, kind, ids, self._dimensions)
        absent = sorted(set(ids) - set(points))
        if points:
            await self._index.upsert(kind, [points[key] for key in sorted(points)])
        if absent:
            await self._index.delete(kind, absent)


async def current_points(
    connection: Connection, kind: PointKind, ids: Sequence[int], dimensions: int
) -> dict[int, models.PointStruct]:
    """The points the records of ``ids`` call for now (records without one are left out)."""
    alias = point_alias(kind)
    rows = await fetch_all(
        connection,
        f"SELECT {point_columns(kind)} FROM {point_source(kind)} "
        f"WHERE {alias}.internal_id = ANY(%s)",
        (list(ids),),
    )
    points = (build_point(kind, row, dimensions) for row in rows)
    return {int(point.id): point for point in points if point is not None}

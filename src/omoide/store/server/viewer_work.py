"""The per-viewer queue of comments waiting for the model, and the viewers' rolling
summaries, in the server store's PostgreSQL: implements
:class:`~omoide.stream.logs.ViewerWorkLog` (a viewer's work row is filled by
:class:`~omoide.store.server.growth.PostgresStreamLog` as comments arrive).

A viewer's batch is *claimed* under the work row's lock by the instance that takes it,
until its clock reads the lease later (:class:`~omoide.store.claims.Claimant`), so two
instances asking at once never take the same batch, and work whose instance died is taken
again once the lease is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from omoide.store.claims import Claimant
from omoide.store.records.stream import LearnedFact, ViewerBatch, ViewerSummaryRecord
from omoide.store.server import growth_sql as sql
from omoide.store.server.database import Connection, Database, execute
from omoide.store.server.growth_rows import (
    claim_parameters,
    comment_from_row,
    record,
    records,
    utc,
    with_utc,
)


class PostgresViewerWork:
    """Viewers' work in ``database``, claimed under ``claimant``'s name."""

    def __init__(self, database: Database, claimant: Claimant) -> None:
        self._database = database
        self._claimant = claimant

    async def due_viewers(
        self, *, batch_size: int, idle_before: datetime | None, limit: int
    ) -> list[tuple[str, str]]:
        idle = None if idle_before is None else utc(idle_before)
        wanted = claim_parameters(self._claimant)
        wanted |= {"size": batch_size, "idle": idle, "limit": limit}
        async with self._database.transaction() as connection:
            rows = await records(connection, sql.DUE, wanted)
        return [(str(row["character_id"]), str(row["viewer_id"])) for row in rows]

    async def claim_viewer_batch(
        self, character_id: str, viewer_id: str, *, limit: int
    ) -> ViewerBatch | None:
        key = (character_id, viewer_id)
        claim = claim_parameters(self._claimant)
        claim |= {"character": character_id, "viewer": viewer_id}
        async with self._database.transaction() as connection:
            work = await record(connection, sql.LOCK_CLAIMABLE_WORK, claim)
            if work is None or not work["free"]:
                return None
            through = work["processed_through"]
            rows = await records(connection, sql.BATCH, (*key, through, limit))
            if not rows:
                return None
            await connection.execute(sql.CLAIM_WORK, claim)
            comments = tuple(comment_from_row(row) for row in rows)
            previous = await _summary(connection, key)
            return ViewerBatch(*key, comments, previous, int(work["messages_seen"]))

    async def finish_viewer_batch(
        self,
        batch: ViewerBatch,
        *,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
    ) -> bool:
        async with self._database.transaction() as connection:
            kept = await _finish_batch(connection, batch, summary, learned)
            key = (batch.character_id, batch.viewer_id)
            await execute(connection, sql.RELEASE_WORK, (*key, self._claimant.id))
            return kept

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord | None:
        async with self._database.transaction() as connection:
            return await _summary(connection, (character_id, viewer_id))


async def _summary(connection: Connection, key: tuple[str, str]) -> ViewerSummaryRecord | None:
    row = await record(connection, sql.SELECT_SUMMARY, key)
    return None if row is None else ViewerSummaryRecord(**with_utc(row, "updated_at"))


async def _finish_batch(
    connection: Connection,
    batch: ViewerBatch,
    summary: ViewerSummaryRecord | None,
    learned: Sequence[LearnedFact],
) -> bool:
    key, through = (batch.character_id, batch.viewer_id), batch.through_log_id
    # Lock first, count after: an append holding the row commits before the lock is ours,
    # and the count, a statement of its own (a new snapshot), sees that append's comments.
    if await record(connection, sql.LOCK_WORK, key) is None:
        return False  # the viewer was forgotten while the batch was out: keep nothing
    await execute(connection, sql.FINISH_WORK, (through, *key, through, *key, through, *key))
    last = batch.comments[-1]
    place = (batch.character_id, last.stream_id, last.seq)
    rows = [(*place, f.viewer_id, f.display_name, f.action, f.fact_id, f.text) for f in learned]
    async with connection.cursor() as cursor:
        await cursor.executemany(sql.INSERT_FACT, rows)
    if summary is not None:
        s = summary
        values = (s.character_id, s.viewer_id, s.display_name, s.text, s.method)
        await execute(connection, sql.UPSERT_SUMMARY, (*values, s.message_count, utc(s.updated_at)))
    return True

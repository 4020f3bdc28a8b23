"""The per-viewer queue of comments waiting for the model, and the viewers' rolling
summaries, in the growth file: implements :class:`~omoide.stream.logs.ViewerWorkLog`.

A viewer's work row is filled by :class:`~omoide.store.sqlite.growth.SqliteStreamLog` as
comments arrive; here batches are claimed (as in the server store: one process holds the
file, so a claim only ever meets its own holder), finished and released.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import apsw

from omoide.store.claims import Claimant
from omoide.store.records.stream import LearnedFact, ViewerBatch, ViewerSummaryRecord
from omoide.store.sqlite import growth_rows as db
from omoide.store.sqlite.connection import Database
from omoide.store.sqlite.growth_viewers import comment_from_row, summary_of
from omoide.store.sqlite.stream_sql import (
    BATCH,
    CLAIM_WORK,
    DUE,
    FINISH_WORK,
    INSERT_FACT,
    RELEASE_WORK,
    SELECT_CLAIMABLE_WORK,
    SUMMARY_FIELDS,
    UPSERT_SUMMARY,
    VIEWER_KEY,
)


class SqliteViewerWork:
    """Viewers' work on the growth file, claimed under ``claimant``'s name."""

    def __init__(self, database: Database, claimant: Claimant) -> None:
        self._database = database
        self._claimant = claimant

    async def due_viewers(
        self, *, batch_size: int, idle_before: datetime | None, limit: int
    ) -> list[tuple[str, str]]:
        idle = None if idle_before is None else db.time_text(idle_before)
        wanted = db.claim_parameters(self._claimant)
        wanted |= {"size": batch_size, "idle": idle, "limit": limit}
        rows = await self._database.write(lambda c: c.execute(DUE, wanted).fetchall())
        return [(str(row[0]), str(row[1])) for row in rows]

    async def claim_viewer_batch(
        self, character_id: str, viewer_id: str, *, limit: int
    ) -> ViewerBatch | None:
        claim = db.claim_parameters(self._claimant)
        claim |= {"character": character_id, "viewer": viewer_id}
        return await self._database.write(lambda c: _batch(c, claim, limit))

    async def finish_viewer_batch(
        self,
        batch: ViewerBatch,
        *,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
    ) -> bool:
        holder = self._claimant.id
        return await self._database.write(
            lambda c: _finish_batch(c, batch, summary, learned, holder)
        )

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord | None:
        return await self._database.write(lambda c: summary_of(c, (character_id, viewer_id)))


def _batch(c: apsw.Connection, claim: dict[str, Any], limit: int) -> ViewerBatch | None:
    key = (str(claim["character"]), str(claim["viewer"]))
    work = db.one(c, SELECT_CLAIMABLE_WORK, claim)
    if work is None or not work["free"]:
        return None
    rows = db.rows(c, BATCH, (*key, work["processed_through"], limit))
    if not rows:
        return None
    c.execute(CLAIM_WORK, claim)
    comments = tuple(comment_from_row(row) for row in rows)
    return ViewerBatch(*key, comments, summary_of(c, key), int(work["messages_seen"]))


def _finish_batch(
    c: apsw.Connection,
    batch: ViewerBatch,
    summary: ViewerSummaryRecord | None,
    learned: Sequence[LearnedFact],
    holder: str,
) -> bool:
    key, through = (batch.character_id, batch.viewer_id), batch.through_log_id
    if db.one(c, f"SELECT 1 AS found FROM viewer_work WHERE {VIEWER_KEY}", key) is None:
        return False  # the viewer was forgotten while the batch was out: keep nothing
    c.execute(FINISH_WORK, (through, *key, through, *key, through, *key))
    last = batch.comments[-1]
    place = (batch.character_id, last.stream_id, last.seq)
    rows = [(*place, f.viewer_id, f.display_name, f.action, f.fact_id, f.text) for f in learned]
    c.executemany(INSERT_FACT, rows)
    if summary is not None:
        values = [getattr(summary, name) for name in SUMMARY_FIELDS]
        c.execute(UPSERT_SUMMARY, (*values, db.time_text(summary.updated_at)))
    c.execute(RELEASE_WORK, (*key, holder))
    return True

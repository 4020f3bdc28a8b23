"""Stream logs and identity history in PostgreSQL, shared by every instance of the service.

Implements what :class:`~omoide.store.sqlite.growth.SqliteGrowthStore` does for the
embedded profile (:class:`~omoide.stream.logs.StreamLog`, ``DiaryJobLog``,
``ViewerWorkLog`` and :class:`~omoide.character.identity_store.IdentityStore`), with the
same tables (:mod:`omoide.store.server.growth_sql`) in the server store's database.

Several instances may write at once, so each operation is one transaction that takes its
row locks in a fixed order: a stream's row first (``FOR UPDATE``: comment numbers and diary
jobs are counted under it), then the viewers' work rows in viewer order. Because a
viewer's work row is locked before that viewer's comments are inserted, the comments of
one viewer commit in log-id order, and a batch read "after log id N" never skips one.
Identity version numbers are a primary key: of two writers racing for the same number,
one gets :class:`~omoide.errors.Conflict`. The connection pool belongs to the server
store; :meth:`PostgresGrowthStore.close` leaves it to the store.

Diary jobs and viewers' batches are *claimed* by the store object that takes them (one per
instance) until its clock reads ``claim_seconds`` later: jobs with ``FOR UPDATE SKIP
LOCKED``, a viewer's work row under its row lock, so two instances asking at once never
take the same work, and work whose instance died is taken again once the lease is over.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from omoide.clock import Clock, SystemClock
from omoide.errors import Conflict, NotFound
from omoide.store.records.stream import (
    CLAIM_SECONDS,
    Appended,
    CommentEntry,
    DiaryJob,
    DiaryReason,
    DiaryWindow,
    LearnedFact,
    StreamStatus,
    ViewerBatch,
    ViewerStreamData,
    ViewerSummaryRecord,
    WindowStats,
)
from omoide.store.server import growth_sql as sql
from omoide.store.server.database import Connection, Database, execute, fetch_all
from omoide.store.server.growth_identity import PostgresIdentityTables
from omoide.store.server.growth_rows import (
    comment_from_row,
    comment_values,
    job_from_row,
    record,
    records,
    utc,
    viewer_counts,
    with_utc,
)
from omoide.store.server.growth_viewers import delete_viewer, read_viewer


async def _stream(connection: Connection, key: tuple[str, str], *, lock: bool) -> StreamStatus:
    row = await record(connection, sql.LOCK_STREAM if lock else sql.SELECT_STREAM, key)
    if row is None:
        raise NotFound(f"stream {key[1]!r} of character {key[0]!r} has no comments")
    return StreamStatus(**with_utc(row, "started_at", "last_comment_at", "ended_at"))


async def _add_job(
    connection: Connection,
    key: tuple[str, str],
    reason: DiaryReason,
    through: int,
    size: int,
    at: datetime,
) -> DiaryJob:
    """A job for comments ``through+1 .. through+size``; advances ``diary_through``."""
    await execute(connection, sql.ADVANCE_DIARY, (through + size, *key))
    row = await record(
        connection, sql.INSERT_JOB, (reason.value, through + 1, through + size, at, *key)
    )
    assert row is not None  # the stream's row is locked by this transaction
    return job_from_row(row)


async def _log_comments(
    connection: Connection, key: tuple[str, str], comments: Sequence[CommentEntry], at: datetime
) -> None:
    """Queue the viewers' work (locking their rows), then number and insert the comments."""
    times = [utc(entry.time) for entry in comments]
    await execute(connection, sql.INSERT_STREAM, (*key, min(times, default=at)))
    count = (await _stream(connection, key, lock=True)).comment_count
    async with connection.cursor() as cursor:
        await cursor.executemany(sql.UPSERT_WORK, viewer_counts(key[0], comments, at))
        numbered = list(enumerate(comments, start=count + 1))
        await cursor.executemany(
            sql.INSERT_COMMENT, [comment_values(key, seq, e, at) for seq, e in numbered]
        )
        facts = [
            (*key, seq, f.viewer_id, f.display_name, f.action, f.fact_id, f.text)
            for seq, entry in numbered
            for f in entry.learned
        ]
        await cursor.executemany(sql.INSERT_FACT, facts)
    last = max(times, default=None)
    await execute(connection, sql.UPDATE_COUNTS, (len(comments), last, bool(comments), *key))


async def _window(
    connection: Connection, job: DiaryJob, sample: int, facts: int, top: int
) -> DiaryWindow:
    window = (job.character_id, job.stream_id, job.from_seq, job.to_seq)
    row = await record(connection, sql.WINDOW_TOTALS, window)
    assert row is not None  # an aggregate always has one row
    totals = with_utc(row, "first_time", "last_time")
    counted = {
        name: tuple(
            (str(label), int(count))
            for label, count in await fetch_all(connection, query, (*window, top))
        )
        for name, query in sql.RANKINGS.items()
    }
    stats = WindowStats(
        **{name: int(totals[name]) for name in ("comments", "viewers", "low_signal", "stored")},
        replied=int(totals["replied"]),
        first_time=totals["first_time"],
        last_time=totals["last_time"],
        top_viewers=counted["top_viewers"],
        topics=counted["topics"],
        signals=counted["signals"],
    )
    step = max(1, (job.to_seq - job.from_seq + 1) // max(1, sample))
    picked = await records(
        connection, sql.SAMPLE, (*window, job.from_seq, step, sample, *window, sample)
    )
    learned = await fetch_all(connection, sql.LEARNED, (*window, facts))
    return DiaryWindow(
        job,
        stats,
        tuple(comment_from_row(row) for row in picked),
        tuple(LearnedFact(*(str(value) for value in row)) for row in learned),
    )


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


class PostgresGrowthStore:
    """The growth store of the server profile, in the server store's database; its
    identity history is :attr:`identity`."""

    def __init__(
        self,
        database: Database,
        *,
        clock: Clock | None = None,
        claim_seconds: float = CLAIM_SECONDS,
    ) -> None:
        self._database = database
        self.identity = PostgresIdentityTables(database)
        self._clock = clock or SystemClock()
        self._lease = timedelta(seconds=claim_seconds)
        self._claimant = uuid.uuid4().hex

    def _claim(self) -> dict[str, object]:
        """The parameters a claim is checked and taken with: who, now, and until when."""
        now = utc(self._clock.now())
        return {"claimant": self._claimant, "now": now, "until": now + self._lease}

    async def close(self) -> None:
        """Nothing to do: the pool is the server store's and closes with it."""

    # --- StreamLog ------------------------------------------------------------------
    async def append(
        self,
        character_id: str,
        stream_id: str,
        comments: Sequence[CommentEntry],
        *,
        diary_every: int,
        at: datetime,
    ) -> Appended:
        key, arrived = (character_id, stream_id), utc(at)
        async with self._database.transaction() as connection:
            await _log_comments(connection, key, comments, arrived)
            status = await _stream(connection, key, lock=False)
            jobs = []
            through = status.diary_through
            while status.comment_count - through >= diary_every:
                reason = DiaryReason.THRESHOLD
                jobs.append(await _add_job(connection, key, reason, through, diary_every, arrived))
                through += diary_every
            return Appended(await _stream(connection, key, lock=False), tuple(jobs))

    async def status(self, character_id: str, stream_id: str) -> StreamStatus:
        async with self._database.transaction() as connection:
            return await _stream(connection, (character_id, stream_id), lock=False)

    async def end(self, character_id: str, stream_id: str, *, at: datetime) -> DiaryJob:
        key, ended = (character_id, stream_id), utc(at)
        async with self._database.transaction() as connection:
            status = await _stream(connection, key, lock=True)
            if status.ended_at is not None:
                raise Conflict(
                    f"stream {stream_id!r} of character {character_id!r} has already ended"
                )
            through = status.diary_through
            size = status.comment_count - through
            job = await _add_job(connection, key, DiaryReason.END, through, size, ended)
            await execute(connection, sql.END_STREAM, (ended, *key))
            return job

    # --- DiaryJobLog ----------------------------------------------------------------
    async def claim_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        wanted = self._claim() | {"character": character_id, "stream": stream_id, "limit": limit}
        async with self._database.transaction() as connection:
            rows = await records(connection, sql.CLAIM_JOBS, wanted)
        return sorted((job_from_row(row) for row in rows), key=lambda job: job.id)

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        async with self._database.transaction() as connection:
            await execute(connection, sql.FINISH_JOB, (episode_id, job.id))

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        async with self._database.transaction() as connection:
            return await _window(connection, job, sample, facts, top)

    # --- ViewerWorkLog --------------------------------------------------------------
    async def due_viewers(
        self, *, batch_size: int, idle_before: datetime | None, limit: int
    ) -> list[tuple[str, str]]:
        idle = None if idle_before is None else utc(idle_before)
        wanted = self._claim() | {"size": batch_size, "idle": idle, "limit": limit}
        async with self._database.transaction() as connection:
            rows = await records(connection, sql.DUE, wanted)
        return [(str(row["character_id"]), str(row["viewer_id"])) for row in rows]

    async def claim_viewer_batch(
        self, character_id: str, viewer_id: str, *, limit: int
    ) -> ViewerBatch | None:
        key = (character_id, viewer_id)
        claim = self._claim() | {"character": character_id, "viewer": viewer_id}
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
            await execute(connection, sql.RELEASE_WORK, (*key, self._claimant))
            return kept

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord | None:
        async with self._database.transaction() as connection:
            return await _summary(connection, (character_id, viewer_id))

    # --- one viewer's rows ----------------------------------------------------------
    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Everything the log keeps about the viewer (what :meth:`forget_viewer` removes)."""
        async with self._database.transaction() as connection:
            return await read_viewer(connection, (character_id, viewer_id))

    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Delete the viewer's comments, noted facts, summary and work; what was removed."""
        async with self._database.transaction() as connection:
            return await delete_viewer(connection, (character_id, viewer_id))

"""Stream logs and identity history in PostgreSQL, shared by every instance of the service.

The server profile's growth logs, each built on its own over the server store's database
(as the embedded ones are over the growth file, :mod:`omoide.store.sqlite.growth`), with
the same tables (:mod:`omoide.store.server.growth_sql`):

* :class:`PostgresStreamLog` (here): comments and per-stream counters;
* :class:`~omoide.store.server.diary_jobs.PostgresDiaryJobs`: diary jobs;
* :class:`~omoide.store.server.viewer_work.PostgresViewerWork`: viewers' work and summaries;
* :class:`~omoide.store.server.growth_identity.PostgresIdentityTables`: identity history;
* :class:`~omoide.store.server.growth_viewers.PostgresViewerRows`: one viewer's rows.

Several instances may write at once, so each operation is one transaction that takes its
row locks in a fixed order: a stream's row first (``FOR UPDATE``: comment numbers and diary
jobs are counted under it), then the viewers' work rows in viewer order. Because a
viewer's work row is locked before that viewer's comments are inserted, the comments of
one viewer commit in log-id order, and a batch read "after log id N" never skips one.
Identity version numbers are a primary key: of two writers racing for the same number,
one gets :class:`~omoide.errors.Conflict`. The connection pool belongs to the server
store, which closes it; no log closes anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from omoide.errors import Conflict, NotFound
from omoide.store.records.stream import (
    Appended,
    CommentEntry,
    DiaryJob,
    DiaryReason,
    StreamStatus,
)
from omoide.store.server import growth_sql as sql
from omoide.store.server.database import Connection, Database, execute
from omoide.store.server.growth_rows import (
    comment_values,
    job_from_row,
    record,
    utc,
    viewer_counts,
    with_utc,
)


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


class PostgresStreamLog:
    """Comments and per-stream counters in the server store's database; appending one
    batch also queues its viewers' work and its diary jobs, in the same transaction."""

    def __init__(self, database: Database) -> None:
        self._database = database

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
            reason = DiaryReason.THRESHOLD
            jobs = [
                await _add_job(connection, key, reason, through, diary_every, arrived)
                for through in status.threshold_windows(diary_every)
            ]
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

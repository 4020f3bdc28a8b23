"""Stream logs and identity history in their own SQLite file (``data_dir/growth.sqlite3``).

Implements :class:`~omoide.stream.logs.StreamLog`, ``DiaryJobLog`` and ``ViewerWorkLog``;
its ``identity`` (:class:`~omoide.store.sqlite.identity.IdentityTables`) implements
:class:`~omoide.character.identity_store.IdentityStore`. Kept apart from the memory
store, like character states, so a server profile can keep the same data in PostgreSQL.
The file is opened with :func:`~omoide.store.sqlite.files.open_sqlite_file`, its rows
read with :mod:`omoide.store.sqlite.growth_rows`; the identity tables are
:mod:`omoide.store.sqlite.identity`.

Diary jobs and viewers' batches are claimed as in the server store (one process holds the
file, so a claim only ever meets its own holder; the Protocol is the same for both).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import apsw

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
from omoide.store.sqlite import growth_rows as db
from omoide.store.sqlite.files import Migration, open_sqlite_file
from omoide.store.sqlite.growth_viewers import (
    comment_from_row,
    delete_viewer,
    read_viewer,
    summary_of,
)
from omoide.store.sqlite.identity import IdentityTables, create_identity_tables
from omoide.store.sqlite.stream_sql import (
    ADVANCE_DIARY,
    BATCH,
    CLAIM_JOBS,
    CLAIM_WORK,
    DUE,
    FINISH_JOB,
    FINISH_WORK,
    INSERT_COMMENT,
    INSERT_FACT,
    INSERT_JOB,
    INSERT_STREAM,
    LEARNED,
    RANKINGS,
    RELEASE_WORK,
    SAMPLE,
    SELECT_CLAIMABLE_WORK,
    SELECT_COUNT,
    STREAM_COLUMNS,
    STREAM_KEY,
    SUMMARY_FIELDS,
    TOTAL_COUNTS,
    UPDATE_COUNTS,
    UPSERT_SUMMARY,
    UPSERT_WORK,
    VIEWER_KEY,
    WINDOW_TOTALS,
    add_claims,
    create_stream_tables,
)

GROWTH_FILE = "growth.sqlite3"
"""The growth file's name in the data directory."""

MIGRATIONS = (
    Migration(1, "create_stream_tables", create_stream_tables),
    Migration(2, "create_identity_tables", create_identity_tables),
    Migration(3, "add_claims", add_claims),
)
"""Counted with ``PRAGMA user_version`` before ``schema_migrations``; a file of then is
adopted by :func:`~omoide.store.sqlite.files.apply_migrations`."""


def _comment_row(key: tuple[str, str], seq: int, entry: CommentEntry, at: str) -> tuple[Any, ...]:
    e = entry
    signals, topics = json.dumps(list(e.signals)), json.dumps(list(e.topics), ensure_ascii=False)
    return (
        *key,
        seq,
        e.viewer_id,
        e.display_name,
        e.text,
        db.time_text(e.time),
        e.platform,
        e.reply,
        int(e.signal),
        int(e.stored),
        e.importance,
        signals,
        topics,
        e.episode_id,
        at,
    )


def _job(row: dict[str, Any]) -> DiaryJob:
    return DiaryJob(**db.with_times(row, "created_at") | {"reason": DiaryReason(row["reason"])})


def _viewer_counts(comments: Sequence[CommentEntry], at: str) -> list[tuple[Any, ...]]:
    """Per viewer: (viewer, comments with signal, arrival time if any, comments)."""
    counts: dict[str, list[int]] = {}
    for entry in comments:
        seen = counts.setdefault(entry.viewer_id, [0, 0])
        seen[0] += int(entry.signal)
        seen[1] += 1
    return [(viewer, s, at if s else None, n) for viewer, (s, n) in counts.items()]


class SqliteGrowthStore:
    """The growth file, one operation at a time (each one transaction); its identity
    history is :attr:`identity`, on the same file."""

    def __init__(
        self, path: Path, *, clock: Clock | None = None, claim_seconds: float = CLAIM_SECONDS
    ) -> None:
        self._database = open_sqlite_file(Path(path), MIGRATIONS, durable=True)
        self.identity = IdentityTables(self._database)
        self._clock = clock or SystemClock()
        self._lease = timedelta(seconds=claim_seconds)
        self._claimant = uuid.uuid4().hex

    def _claim(self) -> dict[str, Any]:
        """The parameters a claim is checked and taken with: who, now, and until when."""
        now = self._clock.now()
        until = db.time_text(now + self._lease)
        return {"claimant": self._claimant, "now": db.time_text(now), "until": until}

    async def close(self) -> None:
        await self._database.close()

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
        key = (character_id, stream_id)
        return await self._database.write(
            lambda c: self._append(c, key, comments, diary_every, db.time_text(at))
        )

    def _append(
        self,
        c: apsw.Connection,
        key: tuple[str, str],
        comments: Sequence[CommentEntry],
        diary_every: int,
        at: str,
    ) -> Appended:
        times = [db.time_text(entry.time) for entry in comments]
        c.execute(INSERT_STREAM, (*key, min(times, default=at)))
        count = int(db.scalar(c, SELECT_COUNT, key))
        rows = [_comment_row(key, seq, e, at) for seq, e in enumerate(comments, start=count + 1)]
        c.executemany(INSERT_COMMENT, rows)
        facts = [
            (*key, seq, f.viewer_id, f.display_name, f.action, f.fact_id, f.text)
            for seq, entry in enumerate(comments, start=count + 1)
            for f in entry.learned
        ]
        c.executemany(INSERT_FACT, facts)
        c.executemany(UPSERT_WORK, [(key[0], *row) for row in _viewer_counts(comments, at)])
        last = max(times, default=None)
        c.execute(UPDATE_COUNTS, (len(comments), last, last, bool(comments), *key))
        status = self._stream(c, key)
        jobs = []
        through = status.diary_through
        while status.comment_count - through >= diary_every:
            jobs.append(self._add_job(c, key, DiaryReason.THRESHOLD, through, diary_every, at))
            through += diary_every
        return Appended(self._stream(c, key), tuple(jobs))

    @staticmethod
    def _add_job(
        c: apsw.Connection,
        key: tuple[str, str],
        reason: DiaryReason,
        through: int,
        size: int,
        at: str,
    ) -> DiaryJob:
        """A job for comments ``through+1 .. through+size``; advances ``diary_through``."""
        c.execute(ADVANCE_DIARY, (through + size, *key))
        row = db.one(c, INSERT_JOB, (*key, reason.value, through + 1, through + size, at, *key))
        assert row is not None
        return _job(row)

    @staticmethod
    def _stream(c: apsw.Connection, key: tuple[str, str]) -> StreamStatus:
        row = db.one(c, f"SELECT {STREAM_COLUMNS} FROM streams WHERE {STREAM_KEY}", key)
        if row is None:
            raise NotFound(f"stream {key[1]!r} of character {key[0]!r} has no comments")
        return StreamStatus(**db.with_times(row, "started_at", "last_comment_at", "ended_at"))

    async def status(self, character_id: str, stream_id: str) -> StreamStatus:
        return await self._database.write(lambda c: self._stream(c, (character_id, stream_id)))

    async def end(self, character_id: str, stream_id: str, *, at: datetime) -> DiaryJob:
        return await self._database.write(
            lambda c: self._end(c, (character_id, stream_id), db.time_text(at))
        )

    def _end(self, c: apsw.Connection, key: tuple[str, str], at: str) -> DiaryJob:
        status = self._stream(c, key)
        if status.ended_at is not None:
            raise Conflict(f"stream {key[1]!r} of character {key[0]!r} has already ended")
        through = status.diary_through
        job = self._add_job(c, key, DiaryReason.END, through, status.comment_count - through, at)
        c.execute(f"UPDATE streams SET ended_at = ? WHERE {STREAM_KEY}", (at, *key))
        return job

    # --- DiaryJobLog ----------------------------------------------------------------
    async def claim_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        wanted = self._claim() | {"character": character_id, "stream": stream_id, "limit": limit}
        rows = await self._database.write(lambda c: db.rows(c, CLAIM_JOBS, wanted))
        return sorted((_job(row) for row in rows), key=lambda job: job.id)

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        await self._database.write(lambda c: c.execute(FINISH_JOB, (episode_id, job.id)))

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        return await self._database.write(lambda c: self._window(c, job, sample, facts, top))

    @staticmethod
    def _window(
        c: apsw.Connection, job: DiaryJob, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        window = (job.character_id, job.stream_id, job.from_seq, job.to_seq)
        row = db.one(c, WINDOW_TOTALS, window)
        assert row is not None  # an aggregate always has one row
        totals = db.with_times(row, "first_time", "last_time")
        counted = {
            name: tuple((str(row[0]), int(row[1])) for row in c.execute(sql, (*window, top)))
            for name, sql in RANKINGS.items()
        }
        count = {name: int(totals[name] or 0) for name in TOTAL_COUNTS}
        stats = WindowStats(
            comments=count["comments"],
            viewers=count["viewers"],
            low_signal=count["low_signal"],
            stored=count["stored"],
            replied=count["replied"],
            first_time=totals["first_time"],
            last_time=totals["last_time"],
            top_viewers=counted["top_viewers"],
            topics=counted["topics"],
            signals=counted["signals"],
        )
        step = max(1, (job.to_seq - job.from_seq + 1) // max(1, sample))
        picked = db.rows(c, SAMPLE, (*window, job.from_seq, step, sample, *window, sample))
        learned = c.execute(LEARNED, (*window, facts)).fetchall()
        return DiaryWindow(
            job,
            stats,
            tuple(comment_from_row(row) for row in picked),
            tuple(LearnedFact(*(str(value) for value in row)) for row in learned),
        )

    # --- ViewerWorkLog --------------------------------------------------------------
    async def due_viewers(
        self, *, batch_size: int, idle_before: datetime | None, limit: int
    ) -> list[tuple[str, str]]:
        idle = None if idle_before is None else db.time_text(idle_before)
        wanted = self._claim() | {"size": batch_size, "idle": idle, "limit": limit}
        rows = await self._database.write(lambda c: c.execute(DUE, wanted).fetchall())
        return [(str(row[0]), str(row[1])) for row in rows]

    async def claim_viewer_batch(
        self, character_id: str, viewer_id: str, *, limit: int
    ) -> ViewerBatch | None:
        claim = self._claim() | {"character": character_id, "viewer": viewer_id}
        return await self._database.write(lambda c: self._batch(c, claim, limit))

    def _batch(self, c: apsw.Connection, claim: dict[str, Any], limit: int) -> ViewerBatch | None:
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

    async def finish_viewer_batch(
        self,
        batch: ViewerBatch,
        *,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
    ) -> bool:
        return await self._database.write(lambda c: self._finish_batch(c, batch, summary, learned))

    def _finish_batch(
        self,
        c: apsw.Connection,
        batch: ViewerBatch,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
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
        c.execute(RELEASE_WORK, (*key, self._claimant))
        return True

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord | None:
        return await self._database.write(lambda c: summary_of(c, (character_id, viewer_id)))

    # --- one viewer's rows ----------------------------------------------------------
    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Everything the log keeps about the viewer (what :meth:`forget_viewer` removes)."""
        return await self._database.write(lambda c: read_viewer(c, (character_id, viewer_id)))

    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Delete the viewer's comments, noted facts, summary and work; what was removed."""
        return await self._database.write(lambda c: delete_viewer(c, (character_id, viewer_id)))

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file, so deleted words leave it too."""
        await self._database.scrub()

"""The growth file (``data_dir/growth.sqlite3``): stream logs and identity history, kept
apart from the memory store, like character states, so a server profile can keep the
same data in PostgreSQL.

:func:`open_growth_file` opens it (through :func:`~omoide.store.sqlite.files.open_sqlite_file`,
which owns the file: its migrations and error mapping); each log is then built over it on
its own, as :mod:`omoide.wiring.storage` does:

* :class:`SqliteStreamLog` (here): comments and per-stream counters
  (:class:`~omoide.stream.logs.StreamLog`);
* :class:`~omoide.store.sqlite.diary_jobs.SqliteDiaryJobs`: diary jobs
  (:class:`~omoide.stream.logs.DiaryJobLog`);
* :class:`~omoide.store.sqlite.viewer_work.SqliteViewerWork`: viewers' work and summaries
  (:class:`~omoide.stream.logs.ViewerWorkLog`);
* :class:`~omoide.store.sqlite.identity.IdentityTables`: identity versions and changes;
* :class:`~omoide.store.sqlite.growth_viewers.SqliteViewerRows`: one viewer's rows, for
  export and forgetting.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import apsw

from omoide.errors import Conflict, NotFound
from omoide.store.records.stream import (
    Appended,
    CommentEntry,
    DiaryJob,
    DiaryReason,
    StreamStatus,
)
from omoide.store.sqlite import growth_rows as db
from omoide.store.sqlite.connection import Database
from omoide.store.sqlite.files import Migration, open_sqlite_file
from omoide.store.sqlite.identity import create_identity_tables
from omoide.store.sqlite.stream_sql import (
    ADVANCE_DIARY,
    INSERT_COMMENT,
    INSERT_FACT,
    INSERT_JOB,
    INSERT_STREAM,
    SELECT_COUNT,
    STREAM_COLUMNS,
    STREAM_KEY,
    UPDATE_COUNTS,
    UPSERT_WORK,
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


def _viewer_counts(comments: Sequence[CommentEntry], at: str) -> list[tuple[Any, ...]]:
    """Per viewer: (viewer, comments with signal, arrival time if any, comments)."""
    counts: dict[str, list[int]] = {}
    for entry in comments:
        seen = counts.setdefault(entry.viewer_id, [0, 0])
        seen[0] += int(entry.signal)
        seen[1] += 1
    return [(viewer, s, at if s else None, n) for viewer, (s, n) in counts.items()]


def open_growth_file(path: Path) -> Database:
    """The growth file at ``path``, created or migrated; every growth log of an instance
    is built over it (and it is closed once, by its owner)."""
    return open_sqlite_file(Path(path), MIGRATIONS, durable=True)


class SqliteStreamLog:
    """Comments and per-stream counters in the growth file; appending one batch also
    queues its viewers' work and its diary jobs, in the same transaction."""

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
        jobs = [
            self._add_job(c, key, DiaryReason.THRESHOLD, through, diary_every, at)
            for through in status.threshold_windows(diary_every)
        ]
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
        return db.job_from_row(row)

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

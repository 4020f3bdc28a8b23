"""Stream logs and identity history in their own SQLite file (``data_dir/growth.sqlite3``).

Implements :class:`~omoide.stream.records.StreamLog`, ``DiaryJobLog``, ``ViewerWorkLog``
and :class:`~omoide.character.identity_store.IdentityStore`. Kept apart from the memory
store, like character states, so a server profile can keep the same data in PostgreSQL.
Schema changes are named, ordered migrations run in one transaction each
(``PRAGMA user_version`` counts the ones applied). Times are stored as fixed-width UTC
ISO 8601 text, so text order is time order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import anyio
import apsw

from omoide.character.identity_store import (
    ChangeStatus,
    IdentityVersion,
    PendingChange,
    changes_from_json,
    changes_to_json,
    profile_from_json,
    profile_to_json,
    refused_from_json,
    refused_to_json,
)
from omoide.domain import as_utc
from omoide.errors import BackendError, BackendUnavailable, Conflict, NotFound
from omoide.stream.records import (
    Appended,
    CommentEntry,
    DiaryJob,
    DiaryReason,
    DiaryWindow,
    LearnedFact,
    LoggedComment,
    StreamStatus,
    ViewerBatch,
    ViewerSummaryRecord,
    WindowStats,
)

Result = TypeVar("Result")


def _create_stream_tables(connection: apsw.Connection) -> None:
    connection.execute("""
        CREATE TABLE streams (
            character_id TEXT NOT NULL, stream_id TEXT NOT NULL,
            comment_count INTEGER NOT NULL, diary_through INTEGER NOT NULL,
            diary_jobs INTEGER NOT NULL, started_at TEXT NOT NULL,
            last_comment_at TEXT, ended_at TEXT,
            PRIMARY KEY (character_id, stream_id));
        CREATE TABLE stream_comments (
            id INTEGER PRIMARY KEY, character_id TEXT NOT NULL, stream_id TEXT NOT NULL,
            seq INTEGER NOT NULL, viewer_id TEXT NOT NULL, display_name TEXT NOT NULL,
            text TEXT NOT NULL, time TEXT NOT NULL, platform TEXT NOT NULL, reply TEXT,
            signal INTEGER NOT NULL, stored INTEGER NOT NULL, importance REAL NOT NULL,
            signals TEXT NOT NULL, topics TEXT NOT NULL, episode_id TEXT,
            received_at TEXT NOT NULL,
            UNIQUE (character_id, stream_id, seq));
        CREATE INDEX stream_comments_by_viewer
            ON stream_comments (character_id, viewer_id, signal, id);
        CREATE TABLE stream_facts (
            id INTEGER PRIMARY KEY, character_id TEXT NOT NULL, stream_id TEXT NOT NULL,
            seq INTEGER NOT NULL, viewer_id TEXT NOT NULL, display_name TEXT NOT NULL,
            action TEXT NOT NULL, fact_id TEXT NOT NULL, text TEXT NOT NULL);
        CREATE INDEX stream_facts_by_window ON stream_facts (character_id, stream_id, seq);
        CREATE TABLE viewer_work (
            character_id TEXT NOT NULL, viewer_id TEXT NOT NULL,
            processed_through INTEGER NOT NULL DEFAULT 0,
            pending_count INTEGER NOT NULL DEFAULT 0, oldest_pending_at TEXT,
            messages_seen INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (character_id, viewer_id));
        CREATE INDEX viewer_work_due ON viewer_work (oldest_pending_at) WHERE pending_count > 0;
        CREATE TABLE viewer_summaries (
            character_id TEXT NOT NULL, viewer_id TEXT NOT NULL, display_name TEXT NOT NULL,
            text TEXT NOT NULL, method TEXT NOT NULL, message_count INTEGER NOT NULL,
            updated_at TEXT NOT NULL, PRIMARY KEY (character_id, viewer_id));
        CREATE TABLE diary_jobs (
            id INTEGER PRIMARY KEY, character_id TEXT NOT NULL, stream_id TEXT NOT NULL,
            number INTEGER NOT NULL, reason TEXT NOT NULL, from_seq INTEGER NOT NULL,
            to_seq INTEGER NOT NULL, created_at TEXT NOT NULL, episode_id TEXT);
        CREATE INDEX diary_jobs_pending ON diary_jobs (id) WHERE episode_id IS NULL;
    """)


def _create_identity_tables(connection: apsw.Connection) -> None:
    connection.execute("""
        CREATE TABLE identity_versions (
            character_id TEXT NOT NULL, number INTEGER NOT NULL, profile TEXT NOT NULL,
            changes TEXT NOT NULL, reason TEXT NOT NULL, created_at TEXT NOT NULL,
            diary_entry_id TEXT, change_id TEXT, PRIMARY KEY (character_id, number));
        CREATE TABLE identity_changes (
            id TEXT PRIMARY KEY, character_id TEXT NOT NULL, base_version INTEGER,
            changes TEXT NOT NULL, refused TEXT NOT NULL, created_at TEXT NOT NULL,
            status TEXT NOT NULL, diary_entry_id TEXT, decided_at TEXT, version INTEGER);
        CREATE INDEX identity_changes_by_character ON identity_changes (character_id, created_at);
    """)


MIGRATIONS: tuple[Callable[[apsw.Connection], None], ...] = (
    _create_stream_tables,
    _create_identity_tables,
)

_COMMENT_COLUMNS = (
    "stream_id, seq, id AS log_id, viewer_id, display_name, text, time, platform, reply, "
    "signal, stored, importance, signals, topics, episode_id"
)
_STREAM_COLUMNS = (
    "character_id, stream_id, comment_count, diary_through, started_at, last_comment_at, ended_at"
)
_JOB_COLUMNS = (
    "id, character_id, stream_id, number, reason, from_seq, to_seq, created_at, episode_id"
)
_WINDOW = "character_id = ? AND stream_id = ? AND seq BETWEEN ? AND ?"


def _text(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def _times(row: dict[str, Any], *names: str) -> dict[str, Any]:
    """``row`` with the named columns read back as aware datetimes (NULL stays None)."""
    return row | {
        name: None if row[name] is None else datetime.fromisoformat(row[name]).astimezone(UTC)
        for name in names
    }


def _rows(c: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> list[dict[str, Any]]:
    cursor = c.execute(sql, parameters)
    try:
        names = [column[0] for column in cursor.getdescription()]
    except apsw.ExecutionCompleteError:  # no rows at all
        return []
    return [dict(zip(names, row, strict=True)) for row in cursor]


def _scalar(c: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> Any:
    row = c.execute(sql, parameters).fetchone()
    assert row is not None
    return row[0]


def _one(c: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> dict[str, Any] | None:
    rows = _rows(c, sql, parameters)
    return rows[0] if rows else None


def _comment(row: dict[str, Any]) -> LoggedComment:
    fields = _times(row, "time")
    place = {name: fields.pop(name) for name in ("stream_id", "seq", "log_id")}
    fields |= {"signal": bool(row["signal"]), "stored": bool(row["stored"])}
    fields |= {name: tuple(json.loads(row[name])) for name in ("signals", "topics")}
    return LoggedComment(**place, entry=CommentEntry(**fields))


def _comment_row(key: tuple[str, str], seq: int, entry: CommentEntry, at: str) -> tuple[Any, ...]:
    e = entry
    signals, topics = json.dumps(list(e.signals)), json.dumps(list(e.topics), ensure_ascii=False)
    return (
        *key,
        seq,
        e.viewer_id,
        e.display_name,
        e.text,
        _text(e.time),
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
    return DiaryJob(**_times(row, "created_at") | {"reason": DiaryReason(row["reason"])})


def _version(row: dict[str, Any]) -> IdentityVersion:
    decoded: dict[str, Any] = {"profile": profile_from_json(row["profile"])}
    decoded["changes"] = changes_from_json(row["changes"])
    return IdentityVersion(**_times(row, "created_at") | decoded)


def _change(row: dict[str, Any]) -> PendingChange:
    decoded: dict[str, Any] = {"status": ChangeStatus(row["status"])}
    decoded["changes"] = changes_from_json(row["changes"])
    decoded["refused"] = refused_from_json(row["refused"])
    return PendingChange(**_times(row, "created_at", "decided_at") | decoded)


def _viewer_counts(comments: Sequence[CommentEntry], at: str) -> list[tuple[Any, ...]]:
    """Per viewer: (viewer, comments with signal, arrival time if any, comments)."""
    counts: dict[str, list[int]] = {}
    for entry in comments:
        seen = counts.setdefault(entry.viewer_id, [0, 0])
        seen[0] += int(entry.signal)
        seen[1] += 1
    return [(viewer, s, at if s else None, n) for viewer, (s, n) in counts.items()]


class SqliteGrowthStore:
    """One apsw connection, used from worker threads one operation at a time."""

    def __init__(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        try:
            self._connection = apsw.Connection(str(path))
            self._connection.setbusytimeout(5000)
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._migrate()
        except apsw.Error as exc:
            raise BackendError(f"cannot open the growth store {path}: {exc}") from exc
        self._lock = anyio.Lock()

    def _migrate(self) -> None:
        applied = int(_scalar(self._connection, "PRAGMA user_version"))
        for number, migration in enumerate(MIGRATIONS[applied:], start=applied + 1):
            with self._connection:
                migration(self._connection)
                self._connection.execute(f"PRAGMA user_version = {int(number)}")

    async def _run(self, work: Callable[[apsw.Connection], Result]) -> Result:
        """``work`` in one transaction on a worker thread; apsw errors become ours."""
        async with self._lock:
            try:
                return await anyio.to_thread.run_sync(self._transaction, work)
            except (apsw.BusyError, apsw.LockedError) as exc:
                raise BackendUnavailable(f"the growth store {self._path} is busy") from exc
            except apsw.Error as exc:
                raise BackendError(f"the growth store {self._path} failed: {exc}") from exc

    def _transaction(self, work: Callable[[apsw.Connection], Result]) -> Result:
        with self._connection:
            result = work(self._connection)
        return result

    def close(self) -> None:
        self._connection.close()

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
        return await self._run(lambda c: self._append(c, key, comments, diary_every, _text(at)))

    def _append(
        self,
        c: apsw.Connection,
        key: tuple[str, str],
        comments: Sequence[CommentEntry],
        diary_every: int,
        at: str,
    ) -> Appended:
        times = [_text(entry.time) for entry in comments]
        c.execute(_INSERT_STREAM, (*key, min(times, default=at)))
        count = int(_scalar(c, _SELECT_COUNT, key))
        rows = [_comment_row(key, seq, e, at) for seq, e in enumerate(comments, start=count + 1)]
        c.executemany(_INSERT_COMMENT, rows)
        facts = [
            (*key, seq, f.viewer_id, f.display_name, f.action, f.fact_id, f.text)
            for seq, entry in enumerate(comments, start=count + 1)
            for f in entry.learned
        ]
        c.executemany(_INSERT_FACT, facts)
        c.executemany(_UPSERT_WORK, [(key[0], *row) for row in _viewer_counts(comments, at)])
        last = max(times, default=None)
        c.execute(_UPDATE_COUNTS, (len(comments), last, last, bool(comments), *key))
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
        c.execute(_ADVANCE_DIARY, (through + size, *key))
        row = _one(c, _INSERT_JOB, (*key, reason.value, through + 1, through + size, at, *key))
        assert row is not None
        return _job(row)

    @staticmethod
    def _stream(c: apsw.Connection, key: tuple[str, str]) -> StreamStatus:
        row = _one(c, f"SELECT {_STREAM_COLUMNS} FROM streams WHERE {_STREAM_KEY}", key)
        if row is None:
            raise NotFound(f"stream {key[1]!r} of character {key[0]!r} has no comments")
        return StreamStatus(**_times(row, "started_at", "last_comment_at", "ended_at"))

    async def status(self, character_id: str, stream_id: str) -> StreamStatus:
        return await self._run(lambda c: self._stream(c, (character_id, stream_id)))

    async def end(self, character_id: str, stream_id: str, *, at: datetime) -> DiaryJob:
        return await self._run(lambda c: self._end(c, (character_id, stream_id), _text(at)))

    def _end(self, c: apsw.Connection, key: tuple[str, str], at: str) -> DiaryJob:
        status = self._stream(c, key)
        if status.ended_at is not None:
            raise Conflict(f"stream {key[1]!r} of character {key[0]!r} has already ended")
        through = status.diary_through
        job = self._add_job(c, key, DiaryReason.END, through, status.comment_count - through, at)
        c.execute(f"UPDATE streams SET ended_at = ? WHERE {_STREAM_KEY}", (at, *key))
        return job

    # --- DiaryJobLog ----------------------------------------------------------------
    async def pending_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        wanted = (character_id, stream_id, limit)
        return [_job(row) for row in await self._run(lambda c: _rows(c, _PENDING_JOBS, wanted))]

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        sql = "UPDATE diary_jobs SET episode_id = ? WHERE id = ?"
        await self._run(lambda c: c.execute(sql, (episode_id, job.id)))

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        return await self._run(lambda c: self._window(c, job, sample, facts, top))

    @staticmethod
    def _window(
        c: apsw.Connection, job: DiaryJob, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        window = (job.character_id, job.stream_id, job.from_seq, job.to_seq)
        row = _one(c, _WINDOW_TOTALS, window)
        assert row is not None  # an aggregate always has one row
        totals = _times(row, "first_time", "last_time")
        counted = {
            name: tuple((str(row[0]), int(row[1])) for row in c.execute(sql, (*window, top)))
            for name, sql in _RANKINGS.items()
        }
        count = {name: int(totals[name] or 0) for name in _TOTAL_COUNTS}
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
        picked = _rows(c, _SAMPLE, (*window, job.from_seq, step, sample, *window, sample))
        learned = c.execute(_LEARNED, (*window, facts)).fetchall()
        return DiaryWindow(
            job,
            stats,
            tuple(_comment(row) for row in picked),
            tuple(LearnedFact(*(str(value) for value in row)) for row in learned),
        )

    # --- ViewerWorkLog --------------------------------------------------------------
    async def due_viewers(
        self, *, batch_size: int, idle_before: datetime | None, limit: int
    ) -> list[tuple[str, str]]:
        idle = None if idle_before is None else _text(idle_before)
        rows = await self._run(lambda c: c.execute(_DUE, (batch_size, idle, limit)).fetchall())
        return [(str(row[0]), str(row[1])) for row in rows]

    async def viewer_batch(
        self, character_id: str, viewer_id: str, *, limit: int
    ) -> ViewerBatch | None:
        return await self._run(lambda c: self._batch(c, (character_id, viewer_id), limit))

    def _batch(self, c: apsw.Connection, key: tuple[str, str], limit: int) -> ViewerBatch | None:
        work = c.execute(
            f"SELECT processed_through, messages_seen FROM viewer_work WHERE {_VIEWER_KEY}", key
        ).fetchone()
        rows = [] if work is None else _rows(c, _BATCH, (*key, work[0], limit))
        if work is None or not rows:
            return None
        comments = tuple(_comment(row) for row in rows)
        return ViewerBatch(*key, comments, self._summary(c, key), int(work[1]))

    async def finish_viewer_batch(
        self,
        batch: ViewerBatch,
        *,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
    ) -> None:
        await self._run(lambda c: self._finish_batch(c, batch, summary, learned))

    @staticmethod
    def _finish_batch(
        c: apsw.Connection,
        batch: ViewerBatch,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
    ) -> None:
        key, through = (batch.character_id, batch.viewer_id), batch.through_log_id
        c.execute(_FINISH_WORK, (through, *key, through, *key, through, *key))
        last = batch.comments[-1]
        place = (batch.character_id, last.stream_id, last.seq)
        rows = [(*place, f.viewer_id, f.display_name, f.action, f.fact_id, f.text) for f in learned]
        c.executemany(_INSERT_FACT, rows)
        if summary is not None:
            values = [getattr(summary, name) for name in _SUMMARY_FIELDS]
            c.execute(_UPSERT_SUMMARY, (*values, _text(summary.updated_at)))

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord | None:
        return await self._run(lambda c: self._summary(c, (character_id, viewer_id)))

    @staticmethod
    def _summary(c: apsw.Connection, key: tuple[str, str]) -> ViewerSummaryRecord | None:
        columns = ", ".join((*_SUMMARY_FIELDS, "updated_at"))
        sql = f"SELECT {columns} FROM viewer_summaries WHERE {_VIEWER_KEY}"
        row = _one(c, sql, key)
        return None if row is None else ViewerSummaryRecord(**_times(row, "updated_at"))

    # --- IdentityStore --------------------------------------------------------------
    async def list_versions(self, character_id: str) -> list[IdentityVersion]:
        sql = f"{_SELECT_VERSIONS} ORDER BY number"
        rows = await self._run(lambda c: _rows(c, sql, (character_id,)))
        return [_version(row) for row in rows]

    async def latest_version(self, character_id: str) -> IdentityVersion | None:
        sql = f"{_SELECT_VERSIONS} ORDER BY number DESC LIMIT 1"
        row = await self._run(lambda c: _one(c, sql, (character_id,)))
        return None if row is None else _version(row)

    async def add_version(
        self, version: IdentityVersion, *, decided: PendingChange | None = None
    ) -> None:
        v = version
        row = (
            v.character_id,
            v.number,
            profile_to_json(v.profile),
            changes_to_json(v.changes),
            v.reason,
            _text(v.created_at),
            v.diary_entry_id,
            v.change_id,
        )

        def write(c: apsw.Connection) -> None:
            try:
                c.execute(_INSERT_VERSION, row)
            except apsw.ConstraintError as exc:
                taken = f"version {v.number} of character {v.character_id!r} already exists"
                raise Conflict(taken) from exc
            if decided is not None:
                self._decide(c, decided)

        await self._run(write)

    async def add_change(self, change: PendingChange) -> None:
        h = change
        row = (
            h.id,
            h.character_id,
            h.base_version,
            changes_to_json(h.changes),
            refused_to_json(h.refused),
            _text(h.created_at),
            h.status.value,
            h.diary_entry_id,
            None if h.decided_at is None else _text(h.decided_at),
            h.version,
        )
        await self._run(lambda c: c.execute(_INSERT_CHANGE, row))

    async def get_change(self, character_id: str, change_id: str) -> PendingChange:
        sql = f"SELECT {_CHANGE_COLUMNS} FROM identity_changes WHERE character_id = ? AND id = ?"
        row = await self._run(lambda c: _one(c, sql, (character_id, change_id)))
        if row is None:
            raise NotFound(f"character {character_id!r} has no identity change {change_id!r}")
        return _change(row)

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]:
        wanted = (character_id, None if status is None else status.value)
        rows = await self._run(lambda c: _rows(c, _LIST_CHANGES, wanted))
        return [_change(row) for row in rows]

    async def save_decision(self, change: PendingChange) -> None:
        await self._run(lambda c: self._decide(c, change))

    @staticmethod
    def _decide(c: apsw.Connection, change: PendingChange) -> None:
        decided = None if change.decided_at is None else _text(change.decided_at)
        c.execute(
            "UPDATE identity_changes SET status = ?, decided_at = ?, version = ? "
            "WHERE id = ? AND character_id = ?",
            (change.status.value, decided, change.version, change.id, change.character_id),
        )


_STREAM_KEY = "character_id = ? AND stream_id = ?"
_VIEWER_KEY = "character_id = ? AND viewer_id = ?"
_SELECT_COUNT = f"SELECT comment_count FROM streams WHERE {_STREAM_KEY}"
_INSERT_STREAM = (
    "INSERT INTO streams VALUES (?, ?, 0, 0, 0, ?, NULL, NULL) "
    "ON CONFLICT (character_id, stream_id) DO NOTHING"
)
_ADVANCE_DIARY = (
    f"UPDATE streams SET diary_jobs = diary_jobs + 1, diary_through = ? WHERE {_STREAM_KEY}"
)
_INSERT_JOB = (
    "INSERT INTO diary_jobs (character_id, stream_id, number, reason, from_seq, to_seq, "
    f"created_at) SELECT ?, ?, diary_jobs, ?, ?, ?, ? FROM streams WHERE {_STREAM_KEY} "
    f"RETURNING {_JOB_COLUMNS}"
)
_PENDING_JOBS = (
    f"SELECT {_JOB_COLUMNS} FROM diary_jobs WHERE episode_id IS NULL "
    "AND (?1 IS NULL OR character_id = ?1) AND (?2 IS NULL OR stream_id = ?2) "
    "ORDER BY id LIMIT ?3"
)
_BATCH = (
    f"SELECT {_COMMENT_COLUMNS} FROM stream_comments WHERE character_id = ? "
    "AND viewer_id = ? AND signal = 1 AND id > ? ORDER BY id LIMIT ?"
)
_SUMMARY_FIELDS = (
    "character_id",
    "viewer_id",
    "display_name",
    "text",
    "method",
    "message_count",
)
_TOTAL_COUNTS = ("comments", "viewers", "low_signal", "stored", "replied")
_INSERT_COMMENT = (
    "INSERT INTO stream_comments (character_id, stream_id, seq, viewer_id, display_name, text, "
    "time, platform, reply, signal, stored, importance, signals, topics, episode_id, "
    "received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_FACT = (
    "INSERT INTO stream_facts (character_id, stream_id, seq, viewer_id, display_name, action, "
    "fact_id, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_UPSERT_WORK = """
    INSERT INTO viewer_work (character_id, viewer_id, pending_count, oldest_pending_at,
        messages_seen) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (character_id, viewer_id) DO UPDATE SET
        pending_count = pending_count + excluded.pending_count,
        oldest_pending_at = COALESCE(oldest_pending_at, excluded.oldest_pending_at),
        messages_seen = messages_seen + excluded.messages_seen
"""
_UPDATE_COUNTS = """
    UPDATE streams SET comment_count = comment_count + ?,
        last_comment_at = CASE WHEN ? IS NULL THEN last_comment_at
            ELSE MAX(COALESCE(last_comment_at, ''), ?) END,
        ended_at = CASE WHEN ? THEN NULL ELSE ended_at END
    WHERE character_id = ? AND stream_id = ?
"""
_WINDOW_TOTALS = (
    "SELECT COUNT(*) AS comments, COUNT(DISTINCT viewer_id) AS viewers, "
    "SUM(signal = 0 AND stored = 0) AS low_signal, SUM(stored) AS stored, "
    "SUM(reply IS NOT NULL) AS replied, MIN(time) AS first_time, MAX(time) AS last_time "
    f"FROM stream_comments WHERE {_WINDOW}"
)
_TOP_VIEWERS = (
    "SELECT MAX(display_name), COUNT(*) AS n FROM stream_comments "
    f"WHERE {_WINDOW} GROUP BY viewer_id ORDER BY n DESC, viewer_id LIMIT ?"
)
_TOP_JSON = (
    "SELECT j.value, COUNT(*) AS n FROM stream_comments AS c, json_each(c.%s) AS j "
    f"WHERE {_WINDOW.replace('character_id', 'c.character_id')} "
    "GROUP BY j.value ORDER BY n DESC, j.value LIMIT ?"
)
_SAMPLE = f"""
    SELECT {_COMMENT_COLUMNS} FROM (
        SELECT * FROM stream_comments WHERE {_WINDOW} AND signal = 1 AND (seq - ?) % ? = 0
        ORDER BY seq LIMIT ?)
    UNION
    SELECT {_COMMENT_COLUMNS} FROM (
        SELECT * FROM stream_comments WHERE {_WINDOW} AND reply IS NOT NULL
        ORDER BY seq DESC LIMIT ?)
    ORDER BY seq
"""
_RANKINGS = {
    "top_viewers": _TOP_VIEWERS,
    "topics": _TOP_JSON % "topics",
    "signals": _TOP_JSON % "signals",
}
_LEARNED = (
    "SELECT viewer_id, display_name, action, fact_id, text FROM stream_facts "
    f"WHERE {_WINDOW} AND action IN ('add', 'update') ORDER BY seq, id LIMIT ?"
)
_DUE = """
    SELECT character_id, viewer_id FROM viewer_work WHERE pending_count > 0
        AND (pending_count >= ?1 OR ?2 IS NULL OR oldest_pending_at <= ?2)
    ORDER BY oldest_pending_at, character_id, viewer_id LIMIT ?3
"""
_FINISH_WORK = """
    UPDATE viewer_work SET
        processed_through = MAX(processed_through, ?),
        pending_count = (SELECT COUNT(*) FROM stream_comments WHERE character_id = ?
            AND viewer_id = ? AND signal = 1 AND id > ?),
        oldest_pending_at = (SELECT MIN(received_at) FROM stream_comments WHERE character_id = ?
            AND viewer_id = ? AND signal = 1 AND id > ?)
    WHERE character_id = ? AND viewer_id = ?
"""
_UPSERT_SUMMARY = """
    INSERT INTO viewer_summaries VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (character_id, viewer_id) DO UPDATE SET display_name = excluded.display_name,
        text = excluded.text, method = excluded.method, message_count = excluded.message_count,
        updated_at = excluded.updated_at
"""
_VERSION_COLUMNS = (
    "character_id, number, profile, changes, reason, created_at, diary_entry_id, change_id"
)
_SELECT_VERSIONS = f"SELECT {_VERSION_COLUMNS} FROM identity_versions WHERE character_id = ?"
_INSERT_VERSION = (
    f"INSERT INTO identity_versions ({_VERSION_COLUMNS}) VALUES ({', '.join('?' * 8)})"
)
_CHANGE_COLUMNS = (
    "id, character_id, base_version, changes, refused, created_at, status, diary_entry_id, "
    "decided_at, version"
)
_INSERT_CHANGE = f"INSERT INTO identity_changes ({_CHANGE_COLUMNS}) VALUES ({', '.join('?' * 10)})"
_LIST_CHANGES = (
    f"SELECT {_CHANGE_COLUMNS} FROM identity_changes WHERE character_id = ?1 "
    "AND (?2 IS NULL OR status = ?2) ORDER BY created_at, rowid"
)

"""The stream tables of the growth file: their schema and the SQL statements that use them.

Only text lives here; :mod:`omoide.store.sqlite.growth` and its sibling logs run it.
Parameters are always bound (``?``); the ``{...}`` pieces are constant column lists.
"""

from __future__ import annotations

import apsw


def create_stream_tables(connection: apsw.Connection) -> None:
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


def add_claims(connection: apsw.Connection) -> None:
    """Diary jobs and viewers' work rows get a claim: who holds them, and until when."""
    connection.execute("""
        ALTER TABLE viewer_work ADD COLUMN claimed_by TEXT;
        ALTER TABLE viewer_work ADD COLUMN claimed_until TEXT;
        ALTER TABLE diary_jobs ADD COLUMN claimed_by TEXT;
        ALTER TABLE diary_jobs ADD COLUMN claimed_until TEXT;
    """)


COMMENT_COLUMNS = (
    "stream_id, seq, id AS log_id, viewer_id, display_name, text, time, platform, reply, "
    "signal, stored, importance, signals, topics, episode_id"
)
STREAM_COLUMNS = (
    "character_id, stream_id, comment_count, diary_through, started_at, last_comment_at, ended_at"
)
JOB_COLUMNS = (
    "id, character_id, stream_id, number, reason, from_seq, to_seq, created_at, episode_id"
)
WINDOW = "character_id = ? AND stream_id = ? AND seq BETWEEN ? AND ?"
STREAM_KEY = "character_id = ? AND stream_id = ?"
VIEWER_KEY = "character_id = ? AND viewer_id = ?"
SELECT_COUNT = f"SELECT comment_count FROM streams WHERE {STREAM_KEY}"
INSERT_STREAM = (
    "INSERT INTO streams VALUES (?, ?, 0, 0, 0, ?, NULL, NULL) "
    "ON CONFLICT (character_id, stream_id) DO NOTHING"
)
ADVANCE_DIARY = (
    f"UPDATE streams SET diary_jobs = diary_jobs + 1, diary_through = ? WHERE {STREAM_KEY}"
)
INSERT_JOB = (
    "INSERT INTO diary_jobs (character_id, stream_id, number, reason, from_seq, to_seq, "
    f"created_at) SELECT ?, ?, diary_jobs, ?, ?, ?, ? FROM streams WHERE {STREAM_KEY} "
    f"RETURNING {JOB_COLUMNS}"
)
UNCLAIMED = "(claimed_until IS NULL OR claimed_until <= :now OR claimed_by = :claimant)"
CLAIM_JOBS = f"""
    UPDATE diary_jobs SET claimed_by = :claimant, claimed_until = :until
    WHERE id IN (SELECT id FROM diary_jobs WHERE episode_id IS NULL
        AND (:character IS NULL OR character_id = :character)
        AND (:stream IS NULL OR stream_id = :stream) AND {UNCLAIMED}
        ORDER BY id LIMIT :limit)
    RETURNING {JOB_COLUMNS}
"""
FINISH_JOB = (
    "UPDATE diary_jobs SET episode_id = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?"
)
SELECT_CLAIMABLE_WORK = (
    f"SELECT processed_through, messages_seen, {UNCLAIMED} AS free FROM viewer_work "
    "WHERE character_id = :character AND viewer_id = :viewer"
)
CLAIM_WORK = (
    "UPDATE viewer_work SET claimed_by = :claimant, claimed_until = :until "
    "WHERE character_id = :character AND viewer_id = :viewer"
)
RELEASE_WORK = (
    f"UPDATE viewer_work SET claimed_by = NULL, claimed_until = NULL WHERE {VIEWER_KEY} "
    "AND claimed_by = ?"
)
BATCH = (
    f"SELECT {COMMENT_COLUMNS} FROM stream_comments WHERE character_id = ? "
    "AND viewer_id = ? AND signal = 1 AND id > ? ORDER BY id LIMIT ?"
)
SUMMARY_FIELDS = (
    "character_id",
    "viewer_id",
    "display_name",
    "text",
    "method",
    "message_count",
)
TOTAL_COUNTS = ("comments", "viewers", "low_signal", "stored", "replied")
INSERT_COMMENT = (
    "INSERT INTO stream_comments (character_id, stream_id, seq, viewer_id, display_name, text, "
    "time, platform, reply, signal, stored, importance, signals, topics, episode_id, "
    "received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_FACT = (
    "INSERT INTO stream_facts (character_id, stream_id, seq, viewer_id, display_name, action, "
    "fact_id, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
UPSERT_WORK = """
    INSERT INTO viewer_work (character_id, viewer_id, pending_count, oldest_pending_at,
        messages_seen) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (character_id, viewer_id) DO UPDATE SET
        pending_count = pending_count + excluded.pending_count,
        oldest_pending_at = COALESCE(oldest_pending_at, excluded.oldest_pending_at),
        messages_seen = messages_seen + excluded.messages_seen
"""
UPDATE_COUNTS = """
    UPDATE streams SET comment_count = comment_count + ?,
        last_comment_at = CASE WHEN ? IS NULL THEN last_comment_at
            ELSE MAX(COALESCE(last_comment_at, ''), ?) END,
        ended_at = CASE WHEN ? THEN NULL ELSE ended_at END
    WHERE character_id = ? AND stream_id = ?
"""
WINDOW_TOTALS = (
    "SELECT COUNT(*) AS comments, COUNT(DISTINCT viewer_id) AS viewers, "
    "SUM(signal = 0 AND stored = 0) AS low_signal, SUM(stored) AS stored, "
    "SUM(reply IS NOT NULL) AS replied, MIN(time) AS first_time, MAX(time) AS last_time "
    f"FROM stream_comments WHERE {WINDOW}"
)
TOP_VIEWERS = (
    "SELECT MAX(display_name), COUNT(*) AS n FROM stream_comments "
    f"WHERE {WINDOW} GROUP BY viewer_id ORDER BY n DESC, viewer_id LIMIT ?"
)
TOP_JSON = (
    "SELECT j.value, COUNT(*) AS n FROM stream_comments AS c, json_each(c.%s) AS j "
    f"WHERE {WINDOW.replace('character_id', 'c.character_id')} "
    "GROUP BY j.value ORDER BY n DESC, j.value LIMIT ?"
)
SAMPLE = f"""
    SELECT {COMMENT_COLUMNS} FROM (
        SELECT * FROM stream_comments WHERE {WINDOW} AND signal = 1 AND (seq - ?) % ? = 0
        ORDER BY seq LIMIT ?)
    UNION
    SELECT {COMMENT_COLUMNS} FROM (
        SELECT * FROM stream_comments WHERE {WINDOW} AND reply IS NOT NULL
        ORDER BY seq DESC LIMIT ?)
    ORDER BY seq
"""
RANKINGS = {
    "top_viewers": TOP_VIEWERS,
    "topics": TOP_JSON % "topics",
    "signals": TOP_JSON % "signals",
}
LEARNED = (
    "SELECT viewer_id, display_name, action, fact_id, text FROM stream_facts "
    f"WHERE {WINDOW} AND action IN ('add', 'update') ORDER BY seq, id LIMIT ?"
)
DUE = f"""
    SELECT character_id, viewer_id FROM viewer_work WHERE pending_count > 0
        AND (pending_count >= :size OR :idle IS NULL OR oldest_pending_at <= :idle)
        AND {UNCLAIMED}
    ORDER BY oldest_pending_at, character_id, viewer_id LIMIT :limit
"""
FINISH_WORK = """
    UPDATE viewer_work SET
        processed_through = MAX(processed_through, ?),
        pending_count = (SELECT COUNT(*) FROM stream_comments WHERE character_id = ?
            AND viewer_id = ? AND signal = 1 AND id > ?),
        oldest_pending_at = (SELECT MIN(received_at) FROM stream_comments WHERE character_id = ?
            AND viewer_id = ? AND signal = 1 AND id > ?)
    WHERE character_id = ? AND viewer_id = ?
"""
UPSERT_SUMMARY = """
    INSERT INTO viewer_summaries VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (character_id, viewer_id) DO UPDATE SET display_name = excluded.display_name,
        text = excluded.text, method = excluded.method, message_count = excluded.message_count,
        updated_at = excluded.updated_at
"""

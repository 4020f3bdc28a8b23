"""The growth logs' PostgreSQL tables: their migration and the statements that use them.

Only text lives here; :mod:`omoide.store.server.growth` and its sibling logs run it.
The tables are those of the embedded file (:mod:`omoide.store.sqlite.stream_sql`,
:mod:`omoide.store.sqlite.identity`) with PostgreSQL types: ``timestamptz`` times,
``boolean`` flags, ``text[]`` lists and ``json`` profiles (kept as written, so a rollback
restores a profile exactly). Identifiers are ``COLLATE "C"``, so rankings break ties in
code-point order, as in SQLite. Values are always bound (``%s`` / ``%(name)s``).

Diary jobs and viewers' work rows carry a claim (``claimed_by``, ``claimed_until``,
migration 4): work held by another instance whose lease has not run out is passed over.
"""

from __future__ import annotations

GROWTH_TABLES = (
    """CREATE TABLE streams (
        character_id text COLLATE "C" NOT NULL,
        stream_id text COLLATE "C" NOT NULL,
        comment_count integer NOT NULL DEFAULT 0,
        diary_through integer NOT NULL DEFAULT 0,
        diary_jobs integer NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL,
        last_comment_at timestamptz,
        ended_at timestamptz,
        PRIMARY KEY (character_id, stream_id))""",
    """CREATE TABLE stream_comments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        character_id text COLLATE "C" NOT NULL,
        stream_id text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        viewer_id text COLLATE "C" NOT NULL,
        display_name text COLLATE "C" NOT NULL,
        text text NOT NULL,
        time timestamptz NOT NULL,
        platform text NOT NULL,
        reply text,
        signal boolean NOT NULL,
        stored boolean NOT NULL,
        importance double precision NOT NULL,
        signals text[] NOT NULL,
        topics text[] NOT NULL,
        episode_id text,
        received_at timestamptz NOT NULL,
        UNIQUE (character_id, stream_id, seq))""",
    "CREATE INDEX stream_comments_by_viewer "
    "ON stream_comments (character_id, viewer_id, signal, id)",
    """CREATE TABLE stream_facts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        character_id text COLLATE "C" NOT NULL,
        stream_id text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        viewer_id text COLLATE "C" NOT NULL,
        display_name text COLLATE "C" NOT NULL,
        action text NOT NULL,
        fact_id text NOT NULL,
        text text NOT NULL)""",
    "CREATE INDEX stream_facts_by_window ON stream_facts (character_id, stream_id, seq)",
    """CREATE TABLE viewer_work (
        character_id text COLLATE "C" NOT NULL,
        viewer_id text COLLATE "C" NOT NULL,
        processed_through bigint NOT NULL DEFAULT 0,
        pending_count integer NOT NULL DEFAULT 0,
        oldest_pending_at timestamptz,
        messages_seen integer NOT NULL DEFAULT 0,
        PRIMARY KEY (character_id, viewer_id))""",
    "CREATE INDEX viewer_work_due ON viewer_work (oldest_pending_at) WHERE pending_count > 0",
    """CREATE TABLE viewer_summaries (
        character_id text COLLATE "C" NOT NULL,
        viewer_id text COLLATE "C" NOT NULL,
        display_name text NOT NULL,
        text text NOT NULL,
        method text NOT NULL,
        message_count integer NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (character_id, viewer_id))""",
    """CREATE TABLE diary_jobs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        character_id text COLLATE "C" NOT NULL,
        stream_id text COLLATE "C" NOT NULL,
        number integer NOT NULL,
        reason text NOT NULL,
        from_seq integer NOT NULL,
        to_seq integer NOT NULL,
        created_at timestamptz NOT NULL,
        episode_id text,
        UNIQUE (character_id, stream_id, number))""",
    "CREATE INDEX diary_jobs_pending ON diary_jobs (id) WHERE episode_id IS NULL",
    """CREATE TABLE identity_versions (
        character_id text COLLATE "C" NOT NULL,
        number integer NOT NULL,
        profile json NOT NULL,
        changes json NOT NULL,
        reason text NOT NULL,
        created_at timestamptz NOT NULL,
        diary_entry_id text,
        change_id text,
        PRIMARY KEY (character_id, number))""",
    """CREATE TABLE identity_changes (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        character_id text COLLATE "C" NOT NULL,
        base_version integer,
        changes json NOT NULL,
        refused json NOT NULL,
        created_at timestamptz NOT NULL,
        status text NOT NULL,
        diary_entry_id text,
        decided_at timestamptz,
        version integer)""",
    "CREATE INDEX identity_changes_by_character "
    "ON identity_changes (character_id, created_at, internal_id)",
)

GROWTH_CLAIMS = (
    "ALTER TABLE viewer_work ADD COLUMN claimed_by text, ADD COLUMN claimed_until timestamptz",
    "ALTER TABLE diary_jobs ADD COLUMN claimed_by text, ADD COLUMN claimed_until timestamptz",
)

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
SUMMARY_COLUMNS = "character_id, viewer_id, display_name, text, method, message_count, updated_at"
STREAM_KEY = "character_id = %s AND stream_id = %s"
VIEWER_KEY = "character_id = %s AND viewer_id = %s"
WINDOW = "character_id = %s AND stream_id = %s AND seq BETWEEN %s AND %s"
UNCLAIMED = "(claimed_until IS NULL OR claimed_until <= %(now)s OR claimed_by = %(claimant)s)"

INSERT_STREAM = (
    "INSERT INTO streams (character_id, stream_id, started_at) VALUES (%s, %s, %s) "
    "ON CONFLICT (character_id, stream_id) DO NOTHING"
)
SELECT_STREAM = f"SELECT {STREAM_COLUMNS} FROM streams WHERE {STREAM_KEY}"
LOCK_STREAM = f"{SELECT_STREAM} FOR UPDATE"
INSERT_COMMENT = (
    "INSERT INTO stream_comments (character_id, stream_id, seq, viewer_id, display_name, text, "
    "time, platform, reply, signal, stored, importance, signals, topics, episode_id, "
    f"received_at) VALUES ({', '.join(['%s'] * 16)})"
)
INSERT_FACT = (
    "INSERT INTO stream_facts (character_id, stream_id, seq, viewer_id, display_name, action, "
    f"fact_id, text) VALUES ({', '.join(['%s'] * 8)})"
)
UPSERT_WORK = """
    INSERT INTO viewer_work AS work (character_id, viewer_id, pending_count, oldest_pending_at,
        messages_seen) VALUES (%s, %s, %s, %s, %s)
    ON CONFLICT (character_id, viewer_id) DO UPDATE SET
        pending_count = work.pending_count + excluded.pending_count,
        oldest_pending_at = COALESCE(work.oldest_pending_at, excluded.oldest_pending_at),
        messages_seen = work.messages_seen + excluded.messages_seen
"""
UPDATE_COUNTS = f"""
    UPDATE streams SET comment_count = comment_count + %s,
        last_comment_at = GREATEST(last_comment_at, %s::timestamptz),
        ended_at = CASE WHEN %s THEN NULL ELSE ended_at END
    WHERE {STREAM_KEY}
"""
ADVANCE_DIARY = (
    f"UPDATE streams SET diary_jobs = diary_jobs + 1, diary_through = %s WHERE {STREAM_KEY}"
)
INSERT_JOB = (
    "INSERT INTO diary_jobs (character_id, stream_id, number, reason, from_seq, to_seq, "
    "created_at) SELECT character_id, stream_id, diary_jobs, %s, %s, %s, %s FROM streams "
    f"WHERE {STREAM_KEY} RETURNING {JOB_COLUMNS}"
)
END_STREAM = f"UPDATE streams SET ended_at = %s WHERE {STREAM_KEY}"
CLAIM_JOBS = f"""
    UPDATE diary_jobs SET claimed_by = %(claimant)s, claimed_until = %(until)s
    WHERE id IN (SELECT id FROM diary_jobs WHERE episode_id IS NULL
        AND (%(character)s::text IS NULL OR character_id = %(character)s)
        AND (%(stream)s::text IS NULL OR stream_id = %(stream)s) AND {UNCLAIMED}
        ORDER BY id LIMIT %(limit)s FOR UPDATE SKIP LOCKED)
    RETURNING {JOB_COLUMNS}
"""
FINISH_JOB = (
    "UPDATE diary_jobs SET episode_id = %s, claimed_by = NULL, claimed_until = NULL WHERE id = %s"
)
WINDOW_TOTALS = (
    "SELECT count(*) AS comments, count(DISTINCT viewer_id) AS viewers, "
    "count(*) FILTER (WHERE NOT signal AND NOT stored) AS low_signal, "
    "count(*) FILTER (WHERE stored) AS stored, count(reply) AS replied, "
    f"min(time) AS first_time, max(time) AS last_time FROM stream_comments WHERE {WINDOW}"
)
TOP_VIEWERS = (
    "SELECT max(display_name), count(*) AS n FROM stream_comments "
    f"WHERE {WINDOW} GROUP BY viewer_id ORDER BY n DESC, viewer_id LIMIT %s"
)
TOP_ARRAY = (
    'SELECT item COLLATE "C" AS item, count(*) AS n FROM stream_comments, unnest({array}) '
    f"AS item WHERE {WINDOW} GROUP BY 1 ORDER BY n DESC, 1 LIMIT %s"
)
RANKINGS = {
    "top_viewers": TOP_VIEWERS,
    "topics": TOP_ARRAY.format(array="topics"),
    "signals": TOP_ARRAY.format(array="signals"),
}
SAMPLE = f"""
    SELECT {COMMENT_COLUMNS} FROM stream_comments WHERE id IN (
        (SELECT id FROM stream_comments WHERE {WINDOW} AND signal AND mod(seq - %s, %s) = 0
            ORDER BY seq LIMIT %s)
        UNION
        (SELECT id FROM stream_comments WHERE {WINDOW} AND reply IS NOT NULL
            ORDER BY seq DESC LIMIT %s))
    ORDER BY seq
"""
LEARNED = (
    "SELECT viewer_id, display_name, action, fact_id, text FROM stream_facts "
    f"WHERE {WINDOW} AND action IN ('add', 'update') ORDER BY seq, id LIMIT %s"
)
DUE = f"""
    SELECT character_id, viewer_id FROM viewer_work WHERE pending_count > 0
        AND (pending_count >= %(size)s OR %(idle)s::timestamptz IS NULL
            OR oldest_pending_at <= %(idle)s) AND {UNCLAIMED}
    ORDER BY oldest_pending_at, character_id, viewer_id LIMIT %(limit)s
"""
SELECT_WORK = f"SELECT processed_through, messages_seen FROM viewer_work WHERE {VIEWER_KEY}"
LOCK_WORK = f"{SELECT_WORK} FOR UPDATE"
LOCK_CLAIMABLE_WORK = (
    f"SELECT processed_through, messages_seen, {UNCLAIMED} AS free FROM viewer_work "
    "WHERE character_id = %(character)s AND viewer_id = %(viewer)s FOR UPDATE"
)
CLAIM_WORK = (
    "UPDATE viewer_work SET claimed_by = %(claimant)s, claimed_until = %(until)s "
    "WHERE character_id = %(character)s AND viewer_id = %(viewer)s"
)
RELEASE_WORK = (
    f"UPDATE viewer_work SET claimed_by = NULL, claimed_until = NULL WHERE {VIEWER_KEY} "
    "AND claimed_by = %s"
)
BATCH = (
    f"SELECT {COMMENT_COLUMNS} FROM stream_comments WHERE {VIEWER_KEY} "
    "AND signal AND id > %s ORDER BY id LIMIT %s"
)
PENDING_OF_VIEWER = f"FROM stream_comments WHERE {VIEWER_KEY} AND signal AND id > %s"
FINISH_WORK = f"""
    UPDATE viewer_work SET
        processed_through = GREATEST(processed_through, %s),
        pending_count = (SELECT count(*) {PENDING_OF_VIEWER}),
        oldest_pending_at = (SELECT min(received_at) {PENDING_OF_VIEWER})
    WHERE {VIEWER_KEY}
"""
SELECT_SUMMARY = f"SELECT {SUMMARY_COLUMNS} FROM viewer_summaries WHERE {VIEWER_KEY}"
UPSERT_SUMMARY = f"""
    INSERT INTO viewer_summaries ({SUMMARY_COLUMNS}) VALUES ({", ".join(["%s"] * 7)})
    ON CONFLICT (character_id, viewer_id) DO UPDATE SET display_name = excluded.display_name,
        text = excluded.text, method = excluded.method, message_count = excluded.message_count,
        updated_at = excluded.updated_at
"""

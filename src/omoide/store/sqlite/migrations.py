"""The memory store file's schema migrations (run by :mod:`omoide.store.sqlite.files`).

Migrations are append-only: never edit or reorder one that has shipped, add a new one.

Vector tables are not created here: their dimension depends on the embedding model, so
they are created when a model is first bound to the store (see ``vectors.py``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import anyio.to_thread

from omoide.store.sqlite import keyword_index
from omoide.store.sqlite.connection import DEFAULT_READERS, Database, fetch_all
from omoide.store.sqlite.files import Migration, migrated_connections

if TYPE_CHECKING:
    from pathlib import Path

    import apsw

CORE_SCHEMA = """
    CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

    CREATE TABLE scopes (
        id INTEGER PRIMARY KEY,
        character_id TEXT NOT NULL,
        user_id TEXT,
        UNIQUE (character_id, user_id)
    ) STRICT;
    -- UNIQUE treats NULLs as distinct: this index keeps one character-wide scope.
    CREATE UNIQUE INDEX scopes_one_character_wide ON scopes (character_id)
        WHERE user_id IS NULL;

    CREATE TABLE embedding_models (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        dimensions INTEGER NOT NULL,
        UNIQUE (name, dimensions)
    ) STRICT;

    CREATE TABLE episodes (
        internal_id INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        scope_id INTEGER NOT NULL REFERENCES scopes (id),
        user_message TEXT NOT NULL,
        bot_message TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        importance REAL NOT NULL,
        emotion TEXT NOT NULL,
        emotion_intensity REAL NOT NULL,
        topics TEXT NOT NULL,
        scoring TEXT NOT NULL,
        last_recalled_at INTEGER,
        recall_count INTEGER NOT NULL,
        archived_at INTEGER,
        metadata TEXT NOT NULL
    ) STRICT;
    CREATE INDEX episodes_by_scope_time ON episodes (scope_id, recorded_at);
    CREATE INDEX episodes_by_archive_time ON episodes (archived_at)
        WHERE archived_at IS NOT NULL;

    CREATE TABLE emotions (
        internal_id INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        scope_id INTEGER NOT NULL REFERENCES scopes (id),
        emotion TEXT NOT NULL,
        intensity REAL NOT NULL,
        recorded_at INTEGER NOT NULL,
        trigger_topics TEXT NOT NULL,
        episode_internal_id INTEGER REFERENCES episodes (internal_id) ON DELETE SET NULL
    ) STRICT;
    CREATE INDEX emotions_by_scope_time ON emotions (scope_id, recorded_at);
    CREATE INDEX emotions_by_episode ON emotions (episode_internal_id);

    CREATE TABLE facts (
        internal_id INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        scope_id INTEGER NOT NULL REFERENCES scopes (id),
        text TEXT NOT NULL,
        category TEXT NOT NULL,
        confidence REAL NOT NULL,
        salience REAL NOT NULL,
        recorded_at INTEGER NOT NULL,
        valid_from INTEGER NOT NULL,
        trust TEXT NOT NULL,
        confirmation_count INTEGER NOT NULL,
        valid_to INTEGER,
        superseded_at INTEGER,
        supersedes TEXT,
        last_recalled_at INTEGER,
        recall_count INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX facts_by_scope_time ON facts (scope_id, recorded_at);

    CREATE TABLE fact_sources (
        fact_internal_id INTEGER NOT NULL
            REFERENCES facts (internal_id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        episode_internal_id INTEGER NOT NULL
            REFERENCES episodes (internal_id) ON DELETE CASCADE,
        PRIMARY KEY (fact_internal_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX fact_sources_by_episode ON fact_sources (episode_internal_id);

    CREATE TABLE tombstones (
        internal_id INTEGER PRIMARY KEY,
        memory_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        scope_id INTEGER NOT NULL REFERENCES scopes (id),
        deleted_at INTEGER NOT NULL,
        reason TEXT NOT NULL
    ) STRICT;
    CREATE INDEX tombstones_by_scope ON tombstones (scope_id, deleted_at);
"""


def create_core_tables(connection: apsw.Connection) -> None:
    """Scopes, records, provenance links, tombstones and store metadata."""
    connection.execute(CORE_SCHEMA)


def create_keyword_tables(connection: apsw.Connection) -> None:
    """FTS5 indexes of term digests (see ``keyword_index.py``), one per record kind."""
    for table in ("episode_keywords", "fact_keywords"):
        connection.execute(
            f"CREATE VIRTUAL TABLE {table} USING fts5("
            "terms, content='', contentless_delete=1, tokenize='ascii')"
        )
        connection.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('secure-delete', 1)")


def rebuild_keyword_rows(connection: apsw.Connection) -> None:
    """Re-index every episode and fact with today's keyword analysis (English stemming
    came in with this migration). The rows hold scope-keyed digests, not text, so they
    are rebuilt from the records, in place: the tables and their settings stay."""
    for table in ("episode_keywords", "fact_keywords"):
        connection.execute(f"INSERT INTO {table} ({table}) VALUES ('delete-all')")
    episodes = fetch_all(
        connection, "SELECT internal_id, scope_id, user_message, bot_message FROM episodes"
    )
    for internal_id, scope_id, user_message, bot_message in episodes:
        text = f"{user_message}\n{bot_message}".strip()  # Episode.searchable_text
        keyword_index.index_text(
            connection, "episode_keywords", int(internal_id), int(scope_id), text
        )
    facts = fetch_all(connection, "SELECT internal_id, scope_id, text FROM facts")
    for internal_id, scope_id, text in facts:
        keyword_index.index_text(
            connection, "fact_keywords", int(internal_id), int(scope_id), str(text)
        )


def add_fact_slot_and_terms(connection: apsw.Connection) -> None:
    """A fact's slot (what it fills, or NULL) and key terms (a JSON list of strings)."""
    connection.execute("ALTER TABLE facts ADD COLUMN slot TEXT")
    connection.execute("ALTER TABLE facts ADD COLUMN terms TEXT NOT NULL DEFAULT '[]'")


def create_deleted_fact_digests(connection: apsw.Connection) -> None:
    """Keyed digests a person's deletion of a fact leaves with its tombstone (never text)."""
    connection.execute(
        "CREATE TABLE deleted_fact_digests ("
        "scope_id INTEGER NOT NULL REFERENCES scopes (id), digest TEXT NOT NULL, "
        "memory_id TEXT NOT NULL, PRIMARY KEY (scope_id, digest, memory_id)"
        ") STRICT, WITHOUT ROWID"
    )


def create_display_names(connection: apsw.Connection) -> None:
    """The names each viewer went by (with their case folding, for search) and when each
    was first and last seen, filled from the names stored episodes carry in their metadata
    (a stream comment's ``display_name``)."""
    connection.execute(
        "CREATE TABLE display_names ("
        "scope_id INTEGER NOT NULL REFERENCES scopes (id), name TEXT NOT NULL, "
        "folded TEXT NOT NULL, first_seen_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, "
        "PRIMARY KEY (scope_id, name)) STRICT, WITHOUT ROWID"
    )
    rows = fetch_all(
        connection,
        "SELECT e.scope_id, trim(json_extract(e.metadata, '$.display_name')) AS name, "
        "min(e.recorded_at), max(e.recorded_at) FROM episodes e "
        "JOIN scopes s ON s.id = e.scope_id WHERE s.user_id IS NOT NULL "
        "AND json_type(e.metadata, '$.display_name') = 'text' "
        "GROUP BY e.scope_id, name HAVING name <> ''",
    )
    for scope_id, name, first, last in rows:
        connection.execute(
            "INSERT INTO display_names VALUES (?, ?, ?, ?, ?)",
            (scope_id, name, str(name).casefold(), first, last),
        )


def add_episode_readings(connection: apsw.Connection) -> None:
    """What the reply path reads from an episode's messages, kept with it (written by the
    memory layer, :mod:`omoide.memory.episode_readings`). Episodes stored before have
    NULL: the reply path reads their messages as before."""
    connection.execute("ALTER TABLE episodes ADD COLUMN readings TEXT")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "create_core_tables", create_core_tables),
    Migration(2, "create_keyword_tables", create_keyword_tables),
    Migration(3, "rebuild_keyword_rows_with_stemming", rebuild_keyword_rows),
    Migration(4, "add_fact_slot_and_terms", add_fact_slot_and_terms),
    Migration(5, "create_deleted_fact_digests", create_deleted_fact_digests),
    Migration(6, "create_display_names", create_display_names),
    Migration(7, "add_episode_readings", add_episode_readings),
)


async def open_memory_database(path: Path, *, readers: int = DEFAULT_READERS) -> Database:
    """The memory store file at ``path`` (created if needed), migrated, with sqlite-vec."""
    connections = await anyio.to_thread.run_sync(
        partial(
            migrated_connections, path, MIGRATIONS, readers=readers, vectors=True, durable=False
        )
    )
    return Database(path, connections[0], connections[1:])  # limiters made in the event loop

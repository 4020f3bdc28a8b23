"""PostgreSQL schema migrations: named, ordered, each applied in its own transaction.

Instances of the service may start together: each migration runs under a transaction-level
advisory lock and re-checks ``schema_migrations`` first, so exactly one instance applies
it. Migrations are append-only: never edit or reorder one that has shipped, add a new one.

Identifiers (memory ids, viewer ids) are ``COLLATE "C"``: ordering and paging compare
code points, exactly like the embedded store, whatever the database's locale.
Vectors are stored with their records (``embedding bytea``, little-endian float32): the
records are the source of truth and Qdrant can be rebuilt from them without re-embedding.
"""

from __future__ import annotations

from dataclasses import dataclass

from omoide.errors import ConfigError
from omoide.store.server.database import Connection, Database, execute, fetch_all
from omoide.store.server.growth_sql import GROWTH_CLAIMS, GROWTH_TABLES
from omoide.store.server.names import TABLE as DISPLAY_NAMES

MIGRATION_LOCK = 0x6F6D6F6964  # "omoid": the advisory lock id serialising migrations


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


_RECORDS = (
    "CREATE TABLE store_meta (key text PRIMARY KEY, value text NOT NULL)",
    """CREATE TABLE scopes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        character_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C",
        user_key text COLLATE "C" GENERATED ALWAYS AS (coalesce(user_id, '')) STORED,
        UNIQUE (character_id, user_key))""",
    """CREATE TABLE episodes (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        scope_id bigint NOT NULL REFERENCES scopes (id),
        user_message text NOT NULL,
        bot_message text NOT NULL,
        recorded_at timestamptz NOT NULL,
        importance double precision NOT NULL,
        emotion text NOT NULL,
        emotion_intensity double precision NOT NULL,
        topics text[] NOT NULL,
        scoring text NOT NULL,
        last_recalled_at timestamptz,
        recall_count integer NOT NULL,
        archived_at timestamptz,
        metadata json NOT NULL,
        embedding bytea)""",
    "CREATE INDEX episodes_by_scope_time ON episodes (scope_id, recorded_at)",
    "CREATE INDEX episodes_by_archive_time ON episodes (archived_at) WHERE archived_at IS NOT NULL",
    """CREATE TABLE emotions (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        scope_id bigint NOT NULL REFERENCES scopes (id),
        emotion text NOT NULL,
        intensity double precision NOT NULL,
        recorded_at timestamptz NOT NULL,
        trigger_topics text[] NOT NULL,
        episode_internal_id bigint REFERENCES episodes (internal_id) ON DELETE SET NULL)""",
    "CREATE INDEX emotions_by_scope_time ON emotions (scope_id, recorded_at)",
    "CREATE INDEX emotions_by_episode ON emotions (episode_internal_id)",
    """CREATE TABLE facts (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        scope_id bigint NOT NULL REFERENCES scopes (id),
        text text NOT NULL,
        category text NOT NULL,
        confidence double precision NOT NULL,
        salience double precision NOT NULL,
        recorded_at timestamptz NOT NULL,
        valid_from timestamptz NOT NULL,
        trust text NOT NULL,
        confirmation_count integer NOT NULL,
        valid_to timestamptz,
        superseded_at timestamptz,
        supersedes text COLLATE "C",
        last_recalled_at timestamptz,
        recall_count integer NOT NULL,
        embedding bytea)""",
    "CREATE INDEX facts_by_scope_time ON facts (scope_id, recorded_at)",
    """CREATE TABLE fact_sources (
        fact_internal_id bigint NOT NULL REFERENCES facts (internal_id) ON DELETE CASCADE,
        position integer NOT NULL,
        episode_internal_id bigint NOT NULL REFERENCES episodes (internal_id) ON DELETE CASCADE,
        PRIMARY KEY (fact_internal_id, position))""",
    "CREATE INDEX fact_sources_by_episode ON fact_sources (episode_internal_id)",
    """CREATE TABLE tombstones (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        memory_id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        scope_id bigint NOT NULL REFERENCES scopes (id),
        deleted_at timestamptz NOT NULL,
        reason text NOT NULL)""",
    "CREATE INDEX tombstones_by_scope ON tombstones (scope_id, deleted_at)",
    "CREATE INDEX tombstones_by_memory ON tombstones (memory_id)",
    """CREATE TABLE vector_outbox (
        kind text NOT NULL,
        internal_id bigint NOT NULL,
        queued_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, internal_id))""",
)

_SERVICE_STATE = (
    """CREATE TABLE character_states (
        character_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        state json NOT NULL,
        PRIMARY KEY (character_id, user_id))""",
    """CREATE TABLE queued_turns (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        character_id text COLLATE "C" NOT NULL,
        payload json NOT NULL,
        accepted_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        failed boolean NOT NULL DEFAULT false,
        claimed_until timestamptz)""",
    "CREATE INDEX queued_turns_pending ON queued_turns (failed, id)",
)

_API_KEYS = (
    """CREATE TABLE api_keys (
        id text COLLATE "C" PRIMARY KEY,
        secret_sha256 text NOT NULL UNIQUE,
        characters text[] NOT NULL,
        created_at timestamptz,
        position bigint GENERATED ALWAYS AS IDENTITY)""",
    """CREATE TABLE api_key_changes (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        version bigint NOT NULL)""",
)

_FACT_SLOTS = (
    "ALTER TABLE facts ADD COLUMN slot text",
    "ALTER TABLE facts ADD COLUMN terms text[] NOT NULL DEFAULT '{}'",
)

_DELETED_FACT_DIGESTS = (
    """CREATE TABLE deleted_fact_digests (
        scope_id bigint NOT NULL REFERENCES scopes (id),
        digest text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (scope_id, digest, memory_id))""",
)

_EPISODE_READINGS = (
    # what the reply path reads from an episode's messages, kept with it (NULL: read them)
    "ALTER TABLE episodes ADD COLUMN readings text",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "create_records", _RECORDS),
    Migration(2, "create_service_state", _SERVICE_STATE),
    Migration(3, "create_growth", GROWTH_TABLES),
    Migration(4, "claim_growth_work", GROWTH_CLAIMS),
    Migration(5, "create_api_keys", _API_KEYS),
    Migration(6, "add_fact_slot_and_terms", _FACT_SLOTS),
    Migration(7, "create_deleted_fact_digests", _DELETED_FACT_DIGESTS),
    Migration(8, "create_display_names", DISPLAY_NAMES),
    Migration(9, "add_episode_readings", _EPISODE_READINGS),
)


async def apply_migrations(database: Database) -> list[Migration]:
    """Apply, in order, each migration not yet recorded; return those this call applied."""
    async with database.transaction() as connection:
        await execute(
            connection,
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
            "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
        )
    await _refuse_unknown_versions(database)
    applied: list[Migration] = []
    for migration in MIGRATIONS:
        async with database.transaction() as connection:
            await execute(connection, "SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            versions = await _recorded_versions(connection)
            if migration.version in versions:
                continue
            for statement in migration.statements:
                await execute(connection, statement)
            await execute(
                connection,
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
            applied.append(migration)
    return applied


async def _recorded_versions(connection: Connection) -> set[int]:
    rows = await fetch_all(connection, "SELECT version FROM schema_migrations")
    return {int(row[0]) for row in rows}


async def _refuse_unknown_versions(database: Database) -> None:
    async with database.transaction() as connection:
        unknown = await _recorded_versions(connection) - {m.version for m in MIGRATIONS}
    if unknown:
        raise ConfigError(
            f"the PostgreSQL store at {database.location} has schema versions "
            f"{sorted(unknown)} that this version of omoide does not know; upgrade omoide"
        )

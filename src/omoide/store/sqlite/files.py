"""Owning an SQLite file: open it, migrate it, and run work on it with our errors.

Every SQLite file omoide keeps (the memory store, the turn queue, character states, the
growth log) is opened here, through :func:`open_sqlite_file`: its connections are made by
:func:`~omoide.store.sqlite.connection.open_connection`, its work runs through
:class:`~omoide.store.sqlite.connection.Database` (apsw errors, ``BusyError`` included,
leave as :class:`~omoide.errors.OmoideError`), and its schema is an ordered list of named
:class:`Migration` s, each applied once in its own transaction.

The version of every applied migration is recorded in the file's ``schema_migrations``
table. A file whose schema was counted with ``PRAGMA user_version`` (the growth log
before this table) has its first ``user_version`` migrations recorded as applied when
the table is created, so nothing runs twice. A migration that fails rolls back entirely
and is not recorded. Migrations are append-only: never edit or reorder one that has
shipped, add a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from omoide.errors import BackendError, ConfigError
from omoide.store.sqlite.codec import to_micros
from omoide.store.sqlite.connection import (
    Database,
    fetch_all,
    fetch_one,
    open_connections,
    run_in_transaction,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    import apsw


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    apply: Callable[[apsw.Connection], None]


def open_sqlite_file(
    path: Path,
    migrations: Sequence[Migration],
    *,
    readers: int = 0,
    vectors: bool = False,
    durable: bool = True,
) -> Database:
    """Open (creating if needed) the file at ``path`` and apply its pending migrations;
    blocking (a store opened in the event loop opens :func:`migrated_connections` on a
    worker thread instead)."""
    connections = migrated_connections(
        path, migrations, readers=readers, vectors=vectors, durable=durable
    )
    return Database(path, connections[0], connections[1:])


def migrated_connections(
    path: Path,
    migrations: Sequence[Migration],
    *,
    readers: int = 0,
    vectors: bool = False,
    durable: bool = True,
) -> list[apsw.Connection]:
    """The writer, migrated, then ``readers`` query-only connections to ``path``.

    ``vectors`` loads sqlite-vec; ``durable`` syncs every commit to disk
    (``synchronous=FULL``), else at checkpoints (``NORMAL``, still safe from corruption).
    """
    connections = open_connections(path, readers, vectors=vectors, durable=durable)
    try:
        apply_migrations(connections[0], path, migrations)
    except BaseException:
        for connection in connections:
            connection.close()
        raise
    return connections


def apply_migrations(
    connection: apsw.Connection, path: Path, migrations: Sequence[Migration]
) -> list[Migration]:
    """Apply, in order, each migration not yet recorded; return those applied."""
    check_migration_order(migrations)
    _create_record_table(connection, path, migrations)
    applied = recorded_versions(connection)
    unknown = applied - {migration.version for migration in migrations}
    if unknown:
        raise ConfigError(
            f"the SQLite file {path} has schema versions {sorted(unknown)} that this "
            "version of omoide does not know; upgrade omoide"
        )
    pending = [migration for migration in migrations if migration.version not in applied]
    for migration in pending:
        try:
            run_in_transaction(
                connection,
                partial(_apply_one, migration=migration),
                begin="BEGIN IMMEDIATE",
                path=path,
            )
        except BackendError as exc:
            raise BackendError(
                f"migration {migration.version} ({migration.name}) of {path} failed "
                f"and was rolled back: {exc}"
            ) from exc
    return pending


def _create_record_table(
    connection: apsw.Connection, path: Path, migrations: Sequence[Migration]
) -> None:
    """Create ``schema_migrations``, adopting a count kept in ``PRAGMA user_version``."""

    def create(c: apsw.Connection) -> None:
        exists = fetch_one(
            c, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        )
        if exists is not None:
            return
        c.execute(
            "CREATE TABLE schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT"
        )
        row = fetch_one(c, "PRAGMA user_version")
        counted = 0 if row is None else int(row[0])
        for migration in migrations[:counted]:
            _record(c, migration)

    run_in_transaction(connection, create, begin="BEGIN IMMEDIATE", path=path)


def recorded_versions(connection: apsw.Connection) -> set[int]:
    rows = fetch_all(connection, "SELECT version FROM schema_migrations")
    return {int(row[0]) for row in rows}


def check_migration_order(migrations: Sequence[Migration]) -> None:
    """Versions must be 1, 2, 3, ... in order, and names unique."""
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(migrations) + 1)):
        raise ConfigError(f"migration versions must be 1..n in order (got {versions})")
    names = [migration.name for migration in migrations]
    if len(set(names)) != len(names):
        raise ConfigError(f"migration names must be unique (got {names})")


def _apply_one(connection: apsw.Connection, migration: Migration) -> None:
    if migration.version in recorded_versions(connection):
        return  # another process applied it while we waited for the write lock
    migration.apply(connection)
    _record(connection, migration)


def _record(connection: apsw.Connection, migration: Migration) -> None:
    connection.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        (migration.version, migration.name, to_micros(datetime.now(UTC))),
    )

"""Schema migrations: ordered, one transaction each, applied once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import apsw
import pytest

from omoide.errors import BackendError, ConfigError
from omoide.store.sqlite import MIGRATIONS, Migration, apply_migrations, open_sqlite_store
from omoide.store.sqlite.connection import open_connection
from tests.store.builders import EMBEDDING


class Recorder:
    """Migration functions that log their calls; ``fail`` raises after creating a table."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def create(self, table: str) -> Callable[[apsw.Connection], None]:
        def apply(connection: apsw.Connection) -> None:
            self.calls.append(table)
            connection.execute(f"CREATE TABLE {table} (x INTEGER)")

        return apply

    def fail(self, connection: apsw.Connection) -> None:
        self.calls.append("fail")
        connection.execute("CREATE TABLE half_done (x INTEGER)")
        connection.execute("INSERT INTO episodes_typo VALUES (1)")


def tables(path: Path) -> set[str]:
    connection = open_connection(path)
    rows = connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
    connection.close()
    return {str(row[0]) for row in rows}


def recorded(path: Path) -> list[tuple[int, str]]:
    connection = open_connection(path)
    rows = connection.execute("SELECT version, name FROM schema_migrations ORDER BY version")
    result = [(int(str(version)), str(name)) for version, name in rows.fetchall()]
    connection.close()
    return result


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "store.sqlite3"


def test_all_migrations_apply_in_order_and_are_recorded(path: Path) -> None:
    connection = open_connection(path)
    applied = apply_migrations(connection, path, MIGRATIONS)
    connection.close()

    assert applied == list(MIGRATIONS)
    assert recorded(path) == [(m.version, m.name) for m in MIGRATIONS]
    assert {"episodes", "facts", "fact_sources", "tombstones", "scopes"} <= tables(path)


def test_reapplying_changes_nothing(path: Path) -> None:
    connection = open_connection(path)
    apply_migrations(connection, path, MIGRATIONS)
    again = apply_migrations(connection, path, MIGRATIONS)
    connection.close()
    assert again == []


def test_only_missing_migrations_run(path: Path) -> None:
    recorder = Recorder()
    first = [
        Migration(1, "one", recorder.create("t_one")),
        Migration(2, "two", recorder.create("t_two")),
    ]
    third = Migration(3, "three", recorder.create("t_three"))
    connection = open_connection(path)

    apply_migrations(connection, path, first)
    applied = apply_migrations(connection, path, [*first, third])
    connection.close()

    assert applied == [third]
    assert recorder.calls == ["t_one", "t_two", "t_three"]
    assert recorded(path) == [(1, "one"), (2, "two"), (3, "three")]


def test_a_failing_migration_rolls_back_entirely(path: Path) -> None:
    recorder = Recorder()
    good = Migration(1, "good", recorder.create("t_good"))
    connection = open_connection(path)

    with pytest.raises(BackendError, match="broken"):
        apply_migrations(connection, path, [good, Migration(2, "broken", recorder.fail)])
    connection.close()

    assert "half_done" not in tables(path)
    assert "t_good" in tables(path)
    assert recorded(path) == [(1, "good")]
    connection = open_connection(path)
    fixed = Migration(2, "fixed", recorder.create("t_fixed"))
    assert apply_migrations(connection, path, [good, fixed]) == [fixed]
    connection.close()


@pytest.mark.parametrize(
    "migrations",
    [
        [Migration(2, "two", lambda c: None)],
        [Migration(1, "one", lambda c: None), Migration(3, "three", lambda c: None)],
        [Migration(2, "two", lambda c: None), Migration(1, "one", lambda c: None)],
        [Migration(1, "same", lambda c: None), Migration(2, "same", lambda c: None)],
    ],
)
def test_misordered_or_duplicate_migrations_are_refused(
    path: Path, migrations: list[Migration]
) -> None:
    connection = open_connection(path)
    with pytest.raises(ConfigError):
        apply_migrations(connection, path, migrations)
    connection.close()


def test_a_newer_schema_is_refused(path: Path) -> None:
    connection = open_connection(path)
    apply_migrations(connection, path, MIGRATIONS)
    connection.execute("INSERT INTO schema_migrations VALUES (999, 'from_the_future', 0)")
    with pytest.raises(ConfigError, match="999"):
        apply_migrations(connection, path, MIGRATIONS)
    connection.close()


@pytest.mark.anyio
async def test_opening_a_partly_migrated_store_completes_it(path: Path) -> None:
    connection = open_connection(path)
    apply_migrations(connection, path, MIGRATIONS[:1])
    connection.close()

    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await store.close()

    assert recorded(path) == [(m.version, m.name) for m in MIGRATIONS]
    assert {"episode_keywords", "fact_keywords"} <= tables(path)

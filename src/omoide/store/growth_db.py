"""The growth store's SQLite file: opening it, migrating it, running work on it, reading rows.

One apsw connection, used from worker threads one operation at a time; each operation is
one transaction. Schema changes are named, ordered migrations run in one transaction each
(``PRAGMA user_version`` counts the ones applied). Times are stored as fixed-width UTC
ISO 8601 text, so text order is time order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import anyio
import apsw

from omoide.domain import as_utc
from omoide.errors import BackendError, BackendUnavailable

Result = TypeVar("Result")
Migration = Callable[[apsw.Connection], None]


class GrowthDatabase:
    """The open file, migrated to ``migrations``; :meth:`run` is the only way in."""

    def __init__(self, path: Path, migrations: Sequence[Migration]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        try:
            self._connection = apsw.Connection(str(path))
            self._connection.setbusytimeout(5000)
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute("PRAGMA secure_delete=ON")
            self._migrate(migrations)
        except apsw.Error as exc:
            raise BackendError(f"cannot open the growth store {path}: {exc}") from exc
        self._lock = anyio.Lock()

    def _migrate(self, migrations: Sequence[Migration]) -> None:
        applied = int(scalar(self._connection, "PRAGMA user_version"))
        for number, migration in enumerate(migrations[applied:], start=applied + 1):
            with self._connection:
                migration(self._connection)
                self._connection.execute(f"PRAGMA user_version = {int(number)}")

    async def run(self, work: Callable[[apsw.Connection], Result]) -> Result:
        """``work`` in one transaction on a worker thread; apsw errors become ours."""
        async with self._lock:
            try:
                return await anyio.to_thread.run_sync(self._transaction, work)
            except (apsw.BusyError, apsw.LockedError) as exc:
                raise BackendUnavailable(f"the growth store {self._path} is busy") from exc
            except apsw.Error as exc:
                raise BackendError(f"the growth store {self._path} failed: {exc}") from exc

    async def maintain(self, work: Callable[[apsw.Connection], Result]) -> Result:
        """``work`` outside any transaction (a checkpoint), on a worker thread."""
        async with self._lock:
            try:
                return await anyio.to_thread.run_sync(work, self._connection)
            except apsw.Error as exc:
                raise BackendError(f"the growth store {self._path} failed: {exc}") from exc

    def _transaction(self, work: Callable[[apsw.Connection], Result]) -> Result:
        with self._connection:
            result = work(self._connection)
        return result

    def close(self) -> None:
        self._connection.close()


def time_text(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def with_times(row: dict[str, Any], *names: str) -> dict[str, Any]:
    """``row`` with the named columns read back as aware datetimes (NULL stays None)."""
    return row | {
        name: None if row[name] is None else datetime.fromisoformat(row[name]).astimezone(UTC)
        for name in names
    }


def rows(
    c: apsw.Connection, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()
) -> list[dict[str, Any]]:
    cursor = c.execute(sql, parameters)
    try:
        names = [column[0] for column in cursor.getdescription()]
    except apsw.ExecutionCompleteError:  # no rows at all
        return []
    return [dict(zip(names, row, strict=True)) for row in cursor]


def scalar(c: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> Any:
    row = c.execute(sql, parameters).fetchone()
    assert row is not None
    return row[0]


def one(
    c: apsw.Connection, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()
) -> dict[str, Any] | None:
    found = rows(c, sql, parameters)
    return found[0] if found else None

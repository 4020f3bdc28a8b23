"""One SQLite file used from worker threads: one writer connection, a few reader connections.

SQLite in WAL mode lets readers run while one writer writes. Writes are serialised by a
capacity limiter of one token and run inside ``BEGIN IMMEDIATE`` ... ``COMMIT``; reads run on
a small pool of connections, each inside one read transaction so a read sees one snapshot.
Blocking work never runs on the event loop: it is handed to anyio's worker threads.
"""

from __future__ import annotations

import importlib.util
import os
import queue
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread
import apsw

from omoide.errors import BackendError, BackendUnavailable, Conflict, InvalidInput, OmoideError

if TYPE_CHECKING:
    from pathlib import Path

Result = TypeVar("Result")
Work = Callable[[apsw.Connection], Result]
Row = tuple[Any, ...]
"""A result row; its columns' types are those of the query's select list."""

BUSY_TIMEOUT_MILLISECONDS = 10_000
DEFAULT_READERS = 2
READ_MAP_BYTES = 512 * 1024 * 1024
"""How much of the file each reader connection reads through a memory map
(``PRAGMA mmap_size``) instead of copying pages into its own page cache. A reply reads
a few dozen rows scattered over the file (its viewer's episodes, vector chunks and keyword
postings); mapped, it cost 0.43 ms (13 %) less CPU in the store at 100,000 episodes, whose
file (385 MB) the map covers. The mapped pages are the operating system's page cache,
shared and reclaimable, but a process's RSS counts those it touched: up to this much per
reader on a store this large. The writer copies pages as before."""


def _vec_extension_path() -> str:
    """Where the sqlite-vec package keeps its loadable extension (``sqlite_vec.loadable_path``
    without importing the package, whose ``__init__`` imports numpy: a read that loads no
    vector should not pay for it)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise BackendUnavailable("the sqlite-vec package is not installed")
    return os.path.normpath(os.path.join(spec.submodule_search_locations[0], "vec0"))


def open_connection(
    path: Path, *, query_only: bool = False, vectors: bool = True, durable: bool = False
) -> apsw.Connection:
    """Open ``path`` with WAL, foreign keys, secure delete, a busy timeout and the query
    planner's stability guarantee; ``vectors`` loads sqlite-vec, ``durable`` syncs every
    commit (``synchronous=FULL``)."""
    try:
        connection = apsw.Connection(str(path))
        connection.setbusytimeout(BUSY_TIMEOUT_MILLISECONDS)
        if vectors:
            connection.enable_load_extension(True)
            connection.load_extension(_vec_extension_path())
            connection.enable_load_extension(False)
        # One plan per statement, whatever values are bound: without it this build of
        # SQLite re-prepares the reply path's statements (and the vec0 and FTS5 ones they
        # run) on every execution with a new scope id, which cost ~10% of a reply.
        connection.config(apsw.SQLITE_DBCONFIG_ENABLE_QPSG, 1)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA secure_delete = ON")
        if query_only:
            connection.execute("PRAGMA query_only = ON")
            connection.execute(f"PRAGMA mmap_size = {READ_MAP_BYTES}")
    except apsw.Error as exc:
        raise translate_error(exc, path) from exc
    return connection


def fetch_all(connection: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
    """Every row of one statement, parameters bound."""
    return connection.execute(sql, parameters).fetchall()


def fetch_one(connection: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> Row | None:
    """The first row of one statement, or None."""
    return connection.execute(sql, parameters).fetchone()


def truncate_wal(connection: apsw.Connection, path: Path) -> None:
    """Copy the write-ahead log into the database file and truncate the log to nothing, so
    what a secure delete erased is erased from both files (outside any transaction)."""
    row = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if row is not None and row[0]:
        raise BackendUnavailable(f"{path} is busy: its write-ahead log was not emptied")


def translate_error(exc: apsw.Error, path: Path) -> OmoideError:
    """Map an apsw error to ours, naming the file."""
    if isinstance(exc, apsw.BusyError | apsw.LockedError):
        return BackendUnavailable(f"the SQLite file {path} is busy: {exc}")
    return BackendError(f"the SQLite file {path} failed: {exc}")


def constraint_error(exc: apsw.ConstraintError, subject: str) -> OmoideError:
    """A duplicate id is a :class:`Conflict`; any other violated constraint is bad input."""
    code = getattr(exc, "extendedresult", None)
    if code in (apsw.SQLITE_CONSTRAINT_UNIQUE, apsw.SQLITE_CONSTRAINT_PRIMARYKEY):
        return Conflict(f"{subject} already exists")
    return InvalidInput(f"{subject} cannot be stored: {exc}")


class Database:
    """The connections to one SQLite file and the threads that use them.

    With no reader connections, reads run on the writer, one operation at a time.
    """

    def __init__(self, path: Path, writer: apsw.Connection, readers: list[apsw.Connection]) -> None:
        self._path = path
        self._writer = writer
        self._idle_readers: queue.SimpleQueue[apsw.Connection] = queue.SimpleQueue()
        for reader in readers:
            self._idle_readers.put(reader)
        self._reader_count = len(readers)
        self._write_limiter = anyio.CapacityLimiter(1)
        self._read_limiter = anyio.CapacityLimiter(len(readers)) if readers else self._write_limiter
        self._closed = False

    @property
    def path(self) -> Path:
        return self._path

    async def read(self, work: Work[Result]) -> Result:
        """Run ``work`` on an idle reader connection inside one read transaction."""
        self._check_open()
        return await anyio.to_thread.run_sync(self._run_read, work, limiter=self._read_limiter)

    async def write(self, work: Work[Result]) -> Result:
        """Run ``work`` in one write transaction: all of it commits, or none of it."""
        self._check_open()
        return await anyio.to_thread.run_sync(self._run_write, work, limiter=self._write_limiter)

    async def maintain(self, work: Work[Result]) -> Result:
        """Run ``work`` on the writer connection outside any transaction (it manages its own)."""
        self._check_open()
        return await anyio.to_thread.run_sync(
            self._run_maintenance, work, limiter=self._write_limiter
        )

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file, so what was deleted leaves it too."""
        await self.maintain(lambda connection: truncate_wal(connection, self._path))

    async def close(self) -> None:
        """Close every connection once the work in flight has finished."""
        if self._closed:
            return
        self._closed = True
        await anyio.to_thread.run_sync(self._writer.close, limiter=self._write_limiter)
        for _ in range(self._reader_count):
            await anyio.to_thread.run_sync(self._close_idle_reader, limiter=self._read_limiter)

    def _check_open(self) -> None:
        if self._closed:
            raise BackendError(f"the SQLite store {self._path} is closed")

    def _close_idle_reader(self) -> None:
        self._idle_readers.get_nowait().close()

    def _run_read(self, work: Work[Result]) -> Result:
        if not self._reader_count:
            return run_in_transaction(self._writer, work, begin="BEGIN", path=self._path)
        connection = self._idle_readers.get_nowait()
        try:
            return run_in_transaction(connection, work, begin="BEGIN", path=self._path)
        finally:
            self._idle_readers.put(connection)

    def _run_maintenance(self, work: Work[Result]) -> Result:
        try:
            return work(self._writer)
        except apsw.Error as exc:
            raise translate_error(exc, self._path) from exc

    def _run_write(self, work: Work[Result]) -> Result:
        return run_in_transaction(self._writer, work, begin="BEGIN IMMEDIATE", path=self._path)


def run_in_transaction(
    connection: apsw.Connection, work: Work[Result], *, begin: str, path: Path
) -> Result:
    """Run ``work`` between ``begin`` and COMMIT; roll back on any exception."""
    try:
        connection.execute(begin)
    except apsw.Error as exc:
        raise translate_error(exc, path) from exc
    try:
        result = work(connection)
        connection.execute("COMMIT")
    except apsw.Error as exc:
        _roll_back(connection)
        raise translate_error(exc, path) from exc
    except BaseException:
        _roll_back(connection)
        raise
    return result


def _roll_back(connection: apsw.Connection) -> None:
    if not connection.getautocommit():
        connection.execute("ROLLBACK")


def open_connections(
    path: Path, readers: int, *, vectors: bool, durable: bool
) -> list[apsw.Connection]:
    """The writer, then ``readers`` query-only connections (no migrations:
    :func:`omoide.store.sqlite.files.open_sqlite_file` runs them)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackendError(f"cannot create the directory for the SQLite file {path}") from exc
    connections = [open_connection(path, vectors=vectors, durable=durable)]
    try:
        for _ in range(readers):
            connections.append(
                open_connection(path, query_only=True, vectors=vectors, durable=durable)
            )
    except BaseException:
        for connection in connections:
            connection.close()
        raise
    return connections

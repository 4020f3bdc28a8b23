"""PostgreSQL through a pool of async psycopg connections, with errors mapped to ours.

Every unit of work is one transaction (:meth:`Database.transaction`). psycopg errors are
translated at this boundary: a lost or refused connection, a pool timeout, a deadlock or a
serialisation failure is :class:`~omoide.errors.BackendUnavailable` (retrying may help);
text PostgreSQL cannot store (NUL characters) is :class:`~omoide.errors.InvalidInput`;
anything else is :class:`~omoide.errors.BackendError`. Values are always bound parameters.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from omoide.errors import BackendError, BackendUnavailable, Conflict, InvalidInput, OmoideError

Row = tuple[Any, ...]
Connection = psycopg.AsyncConnection[Row]

_RETRYABLE: tuple[type[Exception], ...] = (
    PoolTimeout,
    psycopg.OperationalError,
    psycopg.errors.DeadlockDetected,
    psycopg.errors.SerializationFailure,
    psycopg.errors.LockNotAvailable,
)


def translate_error(exc: psycopg.Error | PoolTimeout, location: str) -> OmoideError:
    """Map a psycopg error to ours, naming the database (never its credentials)."""
    if isinstance(exc, _RETRYABLE):
        return BackendUnavailable(f"PostgreSQL at {location} is unavailable: {exc}")
    if isinstance(exc, psycopg.errors.UniqueViolation):
        return Conflict(f"a record already exists in {location}: {exc.diag.message_detail}")
    if isinstance(exc, psycopg.DataError):
        return InvalidInput(f"PostgreSQL cannot store this value: {exc}")
    return BackendError(f"PostgreSQL at {location} failed: {exc}")


class Database:
    """A pool of connections to one PostgreSQL database."""

    def __init__(self, pool: AsyncConnectionPool[Connection], location: str) -> None:
        self._pool = pool
        self.location = location

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One transaction: commits when the block ends, rolls back when it raises."""
        try:
            async with self._pool.connection() as connection, connection.transaction():
                yield connection
        except (psycopg.Error, PoolTimeout) as exc:
            raise translate_error(exc, self.location) from exc

    async def fetch_all(self, query: str, parameters: Sequence[object] = ()) -> list[Row]:
        """The rows of one read-only statement, run in its own transaction."""
        async with self.transaction() as connection:
            return await fetch_all(connection, query, parameters)

    async def close(self) -> None:
        await self._pool.close()


async def fetch_all(
    connection: Connection, query: str, parameters: Sequence[object] = ()
) -> list[Row]:
    cursor = await connection.execute(query, parameters)
    return await cursor.fetchall()


async def fetch_one(
    connection: Connection, query: str, parameters: Sequence[object] = ()
) -> Row | None:
    cursor = await connection.execute(query, parameters)
    return await cursor.fetchone()


async def execute(connection: Connection, query: str, parameters: Sequence[object] = ()) -> int:
    """Run one statement; returns the number of rows it changed."""
    cursor = await connection.execute(query, parameters)
    return cursor.rowcount


async def open_database(url: str, *, location: str, size: int, timeout: float) -> Database:
    """Open a pool of up to ``size`` connections and wait until one is connected."""
    pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=size,
        kwargs={"autocommit": True},
        open=False,
        timeout=timeout,
        check=AsyncConnectionPool.check_connection,
        name="omoide",
    )
    try:
        await pool.open(wait=True, timeout=timeout)
    except (psycopg.Error, PoolTimeout) as exc:
        await pool.close()
        raise BackendUnavailable(f"cannot connect to PostgreSQL at {location}: {exc}") from exc
    return Database(pool, location)

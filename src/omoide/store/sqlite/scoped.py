"""Scoped access to the embedded store's database: every read and write resolves a scope.

:class:`~omoide.store.sqlite.store.SqliteMemoryStore` builds on it; a scope that was never
written has no id, and then reads answer ``otherwise()`` without touching any table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, TypeVar

import apsw

from omoide.domain import Scope
from omoide.errors import NotFound
from omoide.store.base import EmbeddingInfo
from omoide.store.sqlite.arguments import check_scope
from omoide.store.sqlite.connection import Database, truncate_wal
from omoide.store.sqlite.scopes import ensure_scope_id, find_scope_id
from omoide.store.sqlite.vectors import VectorSpace

Result = TypeVar("Result")
ScopedWork = Callable[[apsw.Connection, int], Result]


def nothing_found(message: str) -> Callable[[], NoReturn]:
    def fail() -> NoReturn:
        raise NotFound(message)

    return fail


class ScopedDatabase:
    """The database and vector space of one store file, with scope-resolving helpers."""

    def __init__(self, database: Database, space: VectorSpace) -> None:
        self._database = database
        self._space = space
        self._scope_ids: dict[Scope, int] = {}

    @property
    def embedding(self) -> EmbeddingInfo:
        return self._space.embedding

    # --- scope plumbing --------------------------------------------------------------
    def _committed_scope_id(self, connection: apsw.Connection, scope: Scope) -> int | None:
        """Scope ids seen by readers are committed and never deleted, so they are cached."""
        cached = self._scope_ids.get(scope)
        if cached is None:
            cached = find_scope_id(connection, scope)
            if cached is not None:
                self._scope_ids[scope] = cached
        return cached

    async def _read_scope(
        self, scope: Scope, work: ScopedWork[Result], otherwise: Callable[[], Result]
    ) -> Result:
        check_scope(scope)

        def run(connection: apsw.Connection) -> Result:
            scope_id = self._committed_scope_id(connection, scope)
            return otherwise() if scope_id is None else work(connection, scope_id)

        return await self._database.read(run)

    async def _write_scope(
        self, scope: Scope, work: ScopedWork[Result], otherwise: Callable[[], Result]
    ) -> Result:
        check_scope(scope)

        def run(connection: apsw.Connection) -> Result:
            scope_id = find_scope_id(connection, scope)
            return otherwise() if scope_id is None else work(connection, scope_id)

        return await self._database.write(run)

    async def _write_new(self, scope: Scope, work: ScopedWork[Result]) -> Result:
        check_scope(scope)
        return await self._database.write(lambda c: work(c, ensure_scope_id(c, scope)))

    async def scrub(self) -> None:
        """Empty the write-ahead log into the file (deletes are secure: deleted words are
        overwritten), so what was deleted leaves both files."""
        await self._database.maintain(lambda c: truncate_wal(c, self._database.path))

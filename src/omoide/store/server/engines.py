"""The two engines of a server store, and the one way a write touches both.

:meth:`Engines.change` runs a write as one PostgreSQL transaction over the records *and*
their vector-outbox entries, then publishes the entries to Qdrant (see :mod:`.outbox`). A
write whose publish fails (Qdrant down, a crash) is still acknowledged: the entries stay,
and are published when this store next writes, or by any store when it opens.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import NoReturn, TypeVar

from omoide.domain import Scope
from omoide.errors import BackendError, NotFound
from omoide.store.base import EmbeddingInfo
from omoide.store.server.database import Connection, Database
from omoide.store.server.outbox import Outbox, queue_points
from omoide.store.server.points import PointKind
from omoide.store.server.scopes import find_scope_id
from omoide.store.server.vector_index import VectorIndex
from omoide.store.sqlite.arguments import check_scope

logger = logging.getLogger(__name__)

Result = TypeVar("Result")


@dataclass
class Changes:
    """Points a write changed: queued in its transaction, published after its commit."""

    episodes: list[int] = field(default_factory=list)
    facts: list[int] = field(default_factory=list)

    def entries(self) -> dict[PointKind, list[int]]:
        return {"episode": self.episodes, "fact": self.facts}


ScopedRead = Callable[[Connection, int], Awaitable[Result]]
ScopedChange = Callable[[Connection, int, Changes], Awaitable[Result]]
Change = Callable[[Connection, Changes], Awaitable[Result]]


def nothing_found(message: str) -> Callable[[], NoReturn]:
    def fail() -> NoReturn:
        raise NotFound(message)

    return fail


class Engines:
    """PostgreSQL, Qdrant, the outbox between them and the scope-id cache."""

    def __init__(self, database: Database, index: VectorIndex, embedding: EmbeddingInfo) -> None:
        self.database = database
        self.index = index
        self.embedding = embedding
        self.outbox = Outbox(database, index, embedding.dimensions)
        self._scope_ids: dict[Scope, int] = {}
        self._behind = False

    async def scope_id(self, connection: Connection, scope: Scope) -> int | None:
        """Committed scope ids are never deleted, so they are cached (recomputable state)."""
        cached = self._scope_ids.get(scope)
        if cached is None:
            cached = await find_scope_id(connection, scope)
            if cached is not None:
                self._scope_ids[scope] = cached
        return cached

    async def read(
        self, scope: Scope, work: ScopedRead[Result], otherwise: Callable[[], Result]
    ) -> Result:
        """Run ``work`` with the scope's id, or return ``otherwise()`` for an unknown scope."""
        check_scope(scope)
        async with self.database.transaction() as connection:
            scope_id = await self.scope_id(connection, scope)
            return otherwise() if scope_id is None else await work(connection, scope_id)

    async def change(self, work: Change[Result]) -> Result:
        """One transaction over records and outbox entries, then the publish."""
        changes = Changes()
        async with self.database.transaction() as connection:
            result = await work(connection, changes)
            await queue_points(connection, "episode", changes.episodes)
            await queue_points(connection, "fact", changes.facts)
        await self._publish(changes)
        return result

    async def change_scope(
        self, scope: Scope, work: ScopedChange[Result], otherwise: Callable[[], Result]
    ) -> Result:
        """:meth:`change` with the scope's id, or ``otherwise()`` for an unknown scope."""
        check_scope(scope)

        async def run(connection: Connection, changes: Changes) -> Result:
            scope_id = await find_scope_id(connection, scope)
            return otherwise() if scope_id is None else await work(connection, scope_id, changes)

        return await self.change(run)

    async def _publish(self, changes: Changes) -> None:
        try:
            await self.outbox.publish(changes.entries())
            if self._behind:
                await self.outbox.replay()
                self._behind = False
        except BackendError as exc:
            self._behind = True
            logger.warning("the vector index is behind the records and will catch up: %s", exc)

    async def catch_up(self) -> int:
        """Publish every pending outbox entry (a crash's leftovers included)."""
        published = await self.outbox.replay()
        self._behind = False
        return published

    async def close(self) -> None:
        try:
            await self.index.close()
        finally:
            await self.database.close()

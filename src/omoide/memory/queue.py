"""The turn queue seam: where accepted turns wait to be remembered.

A durable write queue: an accepted turn is on disk before the caller hears "accepted". A
worker drains the queue into the memory pipeline in batches; a batch that fails stays
queued and is retried, and a batch that can never succeed is parked as failed (kept, never
dropped) for a person. Implementations:
:class:`~omoide.store.sqlite.turn_queue.SqliteTurnQueue` (its own SQLite file) and
:class:`~omoide.store.server.turn_queue.PostgresTurnQueue` (PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from omoide.domain import Scope, TurnInput
from omoide.store.queued_turns import QueuedTurn


class TurnQueue(Protocol):
    """Where accepted turns wait to be remembered: SQLite embedded, PostgreSQL on servers."""

    async def put(self, turns: Sequence[TurnInput]) -> list[TurnInput]: ...

    async def take(self, limit: int) -> list[QueuedTurn]: ...

    async def done(self, job_ids: Sequence[int]) -> None: ...

    async def retry_later(self, job_ids: Sequence[int], *, error: str, park: bool) -> None: ...

    async def counts(self) -> dict[str, int]: ...

    async def viewer_turns(self, scope: Scope) -> list[TurnInput]:
        """The viewer's turns still queued, parked ones included, oldest first."""
        ...

    async def forget_viewer(self, scope: Scope) -> list[TurnInput]:
        """Delete the viewer's queued turns, parked ones included; the turns removed."""
        ...

    async def close(self) -> None: ...

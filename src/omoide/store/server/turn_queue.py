"""The durable turn queue in PostgreSQL, shared by every instance of the service.

Same contract as :class:`~omoide.store.sqlite.turn_queue.SqliteTurnQueue` (an accepted turn is
committed before the caller hears "accepted"; a failed batch stays queued, or is parked),
with one addition for several instances draining one queue: :meth:`take` *claims* the
turns it returns for :data:`CLAIM_SECONDS` (``FOR UPDATE SKIP LOCKED``), so two instances
do not take the same turn at once. A claim that expires (its instance died) makes the
turns available again; a turn stored just before such a death is recognised on replay by
its ``turn_id``, as with the embedded queue.

Both have the same methods, signature for signature (a test pins it), each consumer
declaring the role it uses (``chat.conversation.TurnIntake``, ``memory.drain.DrainedQueue``,
``privacy.viewer_data.ViewerQueue``), and keep a turn in the JSON form of
:mod:`omoide.store.queued_turns`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from omoide.clock import Clock
from omoide.domain import Scope, TurnInput, as_utc, new_id
from omoide.store.queued_turns import QueuedTurn, readable_turns, take_readable, turn_to_json
from omoide.store.server.database import Database, execute, fetch_all, fetch_one

CLAIM_SECONDS = 300.0
_VIEWER_TURNS = (
    "SELECT id, payload::text FROM queued_turns WHERE character_id = %s "
    "AND payload->>'user_id' IS NOT DISTINCT FROM %s ORDER BY id"
)
MAX_ERROR_CHARS = 2000
_CLAIM = (
    "UPDATE queued_turns SET claimed_until = now() + make_interval(secs => %s) "
    "WHERE id IN (SELECT id FROM queued_turns WHERE NOT failed "
    "AND (claimed_until IS NULL OR claimed_until < now()) "
    "ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED) "
    "RETURNING id, payload::text, attempts"
)


def _viewer_key(scope: Scope) -> tuple[str, str | None]:
    """The one place a scope becomes this table's filter (bound parameters only)."""
    return scope.character_id, scope.user_id


class PostgresTurnQueue:
    """Turns waiting to be remembered, in the server store's PostgreSQL database."""

    def __init__(
        self, database: Database, *, clock: Clock, claim_seconds: float = CLAIM_SECONDS
    ) -> None:
        self._database = database
        self._clock = clock
        self._claim_seconds = claim_seconds

    async def put(self, turns: Sequence[TurnInput]) -> list[TurnInput]:
        """Persist turns; returns the accepted turns, each with its time and id fixed."""
        now = self._clock.now()
        accepted = [
            replace(turn, timestamp=as_utc(turn.timestamp or now), turn_id=turn.turn_id or new_id())
            for turn in turns
        ]
        if not accepted:
            return accepted
        async with self._database.transaction() as connection:
            await execute(
                connection,
                "INSERT INTO queued_turns (character_id, payload, accepted_at) "
                "SELECT character_id, payload::json, %s FROM "
                "unnest(%s::text[], %s::text[]) WITH ORDINALITY AS turn(character_id, payload, n) "
                "ORDER BY n",
                (
                    now,
                    [turn.scope.character_id for turn in accepted],
                    [json.dumps(turn_to_json(turn), ensure_ascii=False) for turn in accepted],
                ),
            )
        return accepted

    async def take(self, limit: int) -> list[QueuedTurn]:
        """The oldest pending turns no other instance holds, claimed for this one; a row
        that cannot be read back is parked instead."""

        async def claim() -> list[tuple[int, str, int]]:
            async with self._database.transaction() as connection:
                rows = await fetch_all(connection, _CLAIM, (self._claim_seconds, limit))
            return sorted((int(job), str(payload), int(tries)) for job, payload, tries in rows)

        return await take_readable(claim, self)

    async def done(self, job_ids: Sequence[int]) -> None:
        async with self._database.transaction() as connection:
            await execute(
                connection, "DELETE FROM queued_turns WHERE id = ANY(%s)", (list(job_ids),)
            )

    async def retry_later(self, job_ids: Sequence[int], *, error: str, park: bool) -> None:
        """Count a failed attempt and release the claim; ``park`` sets the turns aside."""
        async with self._database.transaction() as connection:
            await execute(
                connection,
                "UPDATE queued_turns SET attempts = attempts + 1, last_error = %s, "
                "failed = %s, claimed_until = NULL WHERE id = ANY(%s)",
                (error[:MAX_ERROR_CHARS], park, list(job_ids)),
            )

    async def counts(self) -> dict[str, int]:
        async with self._database.transaction() as connection:
            row = await fetch_one(
                connection,
                "SELECT count(*) FILTER (WHERE NOT failed), count(*) FILTER (WHERE failed) "
                "FROM queued_turns",
            )
        assert row is not None
        return {"pending": int(row[0]), "failed": int(row[1])}

    async def viewer_turns(self, scope: Scope) -> list[TurnInput]:
        async with self._database.transaction() as connection:
            rows = await fetch_all(connection, _VIEWER_TURNS, _viewer_key(scope))
        return readable_turns(rows)

    async def forget_viewer(self, scope: Scope) -> list[TurnInput]:
        async with self._database.transaction() as connection:
            rows = await fetch_all(connection, _VIEWER_TURNS + " FOR UPDATE", _viewer_key(scope))
            await execute(
                connection,
                "DELETE FROM queued_turns WHERE id = ANY(%s)",
                ([int(job) for job, _ in rows],),
            )
        return readable_turns(rows)

    async def close(self) -> None:
        """Nothing to do: the pool is the server store's and closes with it."""

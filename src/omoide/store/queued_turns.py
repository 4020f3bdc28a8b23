"""How both turn queues keep a turn: its JSON form, and reading rows back.

Two stores keep the durable turn queue: the embedded one
(:class:`~omoide.store.sqlite.turn_queue.SqliteTurnQueue`, its own SQLite file) and the
server one (:class:`~omoide.store.server.turn_queue.PostgresTurnQueue`, PostgreSQL). Both
keep a turn as the JSON object of :func:`turn_to_json` and read it back with
:func:`turn_from_json`.

A row that no longer reads back as a turn (queued by an older version whose limits were
looser, or damaged) must not stop the queue: :func:`read_queued` sets it apart, and
:func:`take_readable` parks it as failed with the reason, as a batch that can never be
stored is parked, and takes the next turns instead. Listing or forgetting a viewer's
turns (:func:`readable_turns`) skips such rows, and forgetting still deletes them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from omoide.domain import Scope, TurnInput, TurnState
from omoide.errors import InvalidInput
from omoide.text_rules import without_refused

logger = logging.getLogger(__name__)
_UNREADABLE = (ValueError, KeyError, TypeError, AttributeError, InvalidInput)
"""What reading a row that is not (or no longer) a valid turn raises."""


@dataclass(frozen=True, slots=True)
class QueuedTurn:
    job_id: int
    turn: TurnInput
    attempts: int


def turn_to_json(turn: TurnInput) -> dict[str, Any]:
    return {
        "character_id": turn.scope.character_id,
        "user_id": turn.scope.user_id,
        "user_message": turn.user_message,
        "bot_message": turn.bot_message,
        "emotion": turn.state.emotion,
        "emotion_intensity": turn.state.emotion_intensity,
        "topics": list(turn.state.topics),
        "timestamp": turn.timestamp.isoformat() if turn.timestamp else None,
        "metadata": dict(turn.metadata),
        "force_store": turn.force_store,
        "importance": turn.importance,
        "user_name": turn.user_name,
        "turn_id": turn.turn_id,
    }


def turn_from_json(data: dict[str, Any]) -> TurnInput:
    """The queued turn; text a turn queued before the text rule may hold is cleaned, not
    refused (it was accepted once, and a refused turn would block the queue)."""
    timestamp = data["timestamp"]
    topics = tuple(without_refused(topic, one_line=True) for topic in data["topics"])
    metadata = {
        without_refused(key, one_line=True): without_refused(value)
        if isinstance(value, str)
        else value
        for key, value in data["metadata"].items()
        if without_refused(key, one_line=True)
    }
    return TurnInput(
        scope=Scope(data["character_id"], data["user_id"]),
        user_message=without_refused(data["user_message"]),
        bot_message=without_refused(data["bot_message"]),
        state=TurnState(
            without_refused(data["emotion"], one_line=True), data["emotion_intensity"], topics
        ),
        timestamp=datetime.fromisoformat(timestamp) if timestamp else None,
        metadata=metadata,
        force_store=data["force_store"],
        importance=data["importance"],
        user_name=data["user_name"],
        turn_id=data["turn_id"],
    )


class Parking(Protocol):
    """The one queue method :func:`take_readable` needs: set turns aside as failed."""

    async def retry_later(self, job_ids: Sequence[int], *, error: str, park: bool) -> None: ...


def _read(payload: str) -> TurnInput:
    data = json.loads(payload)
    if not isinstance(data, dict):
        raise ValueError("a queued turn must be a JSON object")
    return turn_from_json(data)


def read_queued(rows: Iterable[tuple[int, str, int]]) -> tuple[list[QueuedTurn], dict[int, str]]:
    """The rows ``(job id, payload, attempts)`` that read back as turns, and why each of the
    others does not, by job id."""
    taken: list[QueuedTurn] = []
    unreadable: dict[int, str] = {}
    for job, payload, tries in rows:
        try:
            taken.append(QueuedTurn(job, _read(payload), tries))
        except _UNREADABLE as exc:
            unreadable[job] = f"unreadable queued turn: {type(exc).__name__}: {exc}"
    return taken, unreadable


def readable_turns(rows: Iterable[tuple[int, str]]) -> list[TurnInput]:
    """The turns of the rows ``(job id, payload)`` that read back, oldest first."""
    taken, _ = read_queued((job, payload, 0) for job, payload in rows)
    return [queued.turn for queued in taken]


async def take_readable(
    select: Callable[[], Awaitable[Sequence[tuple[int, str, int]]]], queue: Parking
) -> list[QueuedTurn]:
    """The turns ``select`` takes, parking each row that cannot be read back (with its
    reason) and selecting again until a turn is readable or nothing is pending."""
    while True:
        taken, unreadable = read_queued(await select())
        for job, reason in unreadable.items():
            logger.error("queued turn %d cannot be read back; parked as failed", job)
            await queue.retry_later([job], error=reason, park=True)
        if taken or not unreadable:
            return taken

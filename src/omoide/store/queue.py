"""The turn queue seam: where accepted turns wait to be remembered, and how they are kept.

Two stores implement :class:`TurnQueue`: the embedded one
(:class:`~omoide.memory.queue.DurableTurnQueue`, its own SQLite file) and the server one
(:class:`~omoide.store.server.turn_queue.PostgresTurnQueue`, PostgreSQL). Both keep a turn
as the JSON object of :func:`turn_to_json` and read it back with :func:`turn_from_json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from omoide.domain import Scope, TurnInput, TurnState
from omoide.text_rules import without_refused


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

    def close(self) -> None: ...

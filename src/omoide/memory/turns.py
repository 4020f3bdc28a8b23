"""What a caller hands the write path, and what it gets back.

The input values (:class:`TurnInput`, :class:`TurnState`) live in :mod:`omoide.domain`,
since the stores' turn queues keep them too; they are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from omoide.domain import MAX_MESSAGE_CHARS as MAX_MESSAGE_CHARS
from omoide.domain import MAX_TOPICS as MAX_TOPICS
from omoide.domain import Scope, ScoringMethod
from omoide.domain import TurnInput as TurnInput
from omoide.domain import TurnState as TurnState
from omoide.domain import check_message as check_message


@dataclass(frozen=True, slots=True)
class FactChange:
    """One change the write path made to a viewer's facts."""

    action: str  # add | confirm | update | delete
    fact_id: str
    text: str
    replaced_fact_id: str | None = None


@dataclass(frozen=True, slots=True)
class StoredTurn:
    """The outcome of remembering one exchange."""

    scope: Scope
    episode_id: str | None
    importance: float
    stored: bool
    scoring: ScoringMethod
    signals: tuple[str, ...]
    recorded_at: datetime
    fact_changes: tuple[FactChange, ...] = ()
    extraction_failed: bool = False

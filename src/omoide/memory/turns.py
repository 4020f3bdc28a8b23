"""What the write path gives back (what a caller hands it, :class:`~omoide.domain.TurnInput`,
lives in :mod:`omoide.domain`, since the turn queues keep it too)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from omoide.domain import Scope, ScoringMethod


@dataclass(frozen=True, slots=True)
class FactChange:
    """One change the write path made to a viewer's facts."""

    action: str  # add | confirm | update | delete | end
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

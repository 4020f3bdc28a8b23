"""What a caller hands the write path, and what it gets back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from omoide.domain import (
    MetadataValue,
    Scope,
    ScoringMethod,
    check_identifier,
    check_metadata,
    check_unit_interval,
)
from omoide.errors import InvalidInput

MAX_MESSAGE_CHARS = 8000
MAX_TOPICS = 32


@dataclass(frozen=True, slots=True)
class TurnState:
    """The character's reading of the viewer in this exchange (from its emotion engine)."""

    emotion: str = "neutral"
    emotion_intensity: float = 0.5
    topics: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.emotion.strip():
            raise InvalidInput("emotion must not be empty")
        check_unit_interval(self.emotion_intensity, name="emotion_intensity")
        if len(self.topics) > MAX_TOPICS:
            raise InvalidInput(f"at most {MAX_TOPICS} topics per turn")


@dataclass(frozen=True, slots=True)
class TurnInput:
    """One exchange to remember."""

    scope: Scope
    user_message: str
    bot_message: str = ""
    state: TurnState = field(default_factory=TurnState)
    timestamp: datetime | None = None
    metadata: Mapping[str, MetadataValue] = field(default_factory=dict)
    force_store: bool = False
    importance: float | None = None
    user_name: str | None = None
    turn_id: str | None = None

    def __post_init__(self) -> None:
        if self.turn_id is not None:
            check_identifier(self.turn_id, name="turn_id")
        if self.scope.is_character_wide:
            raise InvalidInput("a turn belongs to a viewer: scope.user_id is required")
        check_message(self.user_message, name="user_message", allow_empty=False)
        check_message(self.bot_message, name="bot_message", allow_empty=True)
        check_metadata(self.metadata)
        if self.importance is not None:
            check_unit_interval(self.importance, name="importance")


def check_message(text: str, *, name: str, allow_empty: bool) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"{name} must be a string")
    if not allow_empty and not text.strip():
        raise InvalidInput(f"{name} must not be empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(f"{name} is longer than {MAX_MESSAGE_CHARS} characters")
    return text


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

"""How a character stands with one viewer right now, and its JSON form for any store
(where a character starts: :func:`omoide.character.state.initial_state`).

A :class:`CharacterState` belongs to one :class:`~omoide.domain.Scope` (character, viewer);
the store keys it, so the state itself carries no ids. ``state_from_json`` validates
everything it reads: a store that hands back damaged data gets
:class:`~omoide.errors.InvalidInput` naming the field, never a half-built state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from omoide.domain import as_utc, check_unit_interval
from omoide.errors import InvalidInput

MAX_RECENT_TOPICS: Final = 32
"""Hard bound on ``recent_topics``; a tracker usually keeps far fewer."""
MAX_TOPIC_CHARS: Final = 80
STATE_JSON_VERSION: Final = 1
STARTING_INTENSITY: Final = 0.3

_JSON_FIELDS: Final = frozenset(
    {
        "version",
        "emotion",
        "emotion_intensity",
        "intimacy",
        "recent_topics",
        "turn_count",
        "last_interaction_at",
    }
)


@dataclass(frozen=True, slots=True)
class CharacterState:
    """The character's mood and rapport with one viewer.

    ``intimacy`` (rapport) runs from 0 (strangers) to 1 (as close as it gets);
    ``recent_topics`` is most recent first; ``last_interaction_at`` is ``None`` until the
    first exchange and always aware UTC after it.
    """

    emotion: str
    emotion_intensity: float = STARTING_INTENSITY
    intimacy: float = 0.0
    recent_topics: tuple[str, ...] = ()
    turn_count: int = 0
    last_interaction_at: datetime | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.emotion, str) or not self.emotion.strip():
            raise InvalidInput("emotion must be a non-empty string")
        check_unit_interval(self.emotion_intensity, name="emotion_intensity")
        check_unit_interval(self.intimacy, name="intimacy")
        _check_topics(self.recent_topics)
        if isinstance(self.turn_count, bool) or not isinstance(self.turn_count, int):
            raise InvalidInput("turn_count must be an integer")
        if self.turn_count < 0:
            raise InvalidInput(f"turn_count must not be negative (got {self.turn_count})")
        if self.last_interaction_at is not None:
            moment = as_utc(self.last_interaction_at, name="last_interaction_at")
            object.__setattr__(self, "last_interaction_at", moment)


def _check_topics(topics: object) -> None:
    if not isinstance(topics, tuple):
        raise InvalidInput("recent_topics must be a tuple of strings")
    if len(topics) > MAX_RECENT_TOPICS:
        raise InvalidInput(f"recent_topics holds at most {MAX_RECENT_TOPICS} topics")
    for topic in topics:
        if not isinstance(topic, str) or not topic.strip():
            raise InvalidInput("recent_topics must hold non-empty strings")
        if len(topic) > MAX_TOPIC_CHARS:
            raise InvalidInput(f"a recent topic is longer than {MAX_TOPIC_CHARS} characters")


def state_to_json(state: CharacterState) -> dict[str, object]:
    """A JSON-ready dict; ``state_from_json(state_to_json(s)) == s`` for every state."""
    moment = state.last_interaction_at
    return {
        "version": STATE_JSON_VERSION,
        "emotion": state.emotion,
        "emotion_intensity": state.emotion_intensity,
        "intimacy": state.intimacy,
        "recent_topics": list(state.recent_topics),
        "turn_count": state.turn_count,
        "last_interaction_at": None if moment is None else moment.isoformat(),
    }


def state_from_json(data: Mapping[str, object]) -> CharacterState:
    """Rebuild a state written by :func:`state_to_json`, validating every field."""
    if not isinstance(data, Mapping):
        raise InvalidInput("character state must be a JSON object")
    unknown = sorted(str(key) for key in data if key not in _JSON_FIELDS)
    if unknown:
        raise InvalidInput(f"character state has unknown fields: {', '.join(unknown)}")
    missing = sorted(_JSON_FIELDS - set(data))
    if missing:
        raise InvalidInput(f"character state is missing fields: {', '.join(missing)}")
    if data["version"] != STATE_JSON_VERSION or isinstance(data["version"], bool):
        raise InvalidInput(f"character state version {data['version']!r} is not supported")
    return CharacterState(
        emotion=_read_string(data, "emotion"),
        emotion_intensity=_read_number(data, "emotion_intensity"),
        intimacy=_read_number(data, "intimacy"),
        recent_topics=_read_topics(data),
        turn_count=_read_count(data, "turn_count"),
        last_interaction_at=_read_moment(data, "last_interaction_at"),
    )


def _read_string(data: Mapping[str, object], name: str) -> str:
    value = data[name]
    if not isinstance(value, str):
        raise InvalidInput(f"character state field {name!r} must be a string")
    return value


def _read_number(data: Mapping[str, object], name: str) -> float:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"character state field {name!r} must be a number")
    if not math.isfinite(value):
        raise InvalidInput(f"character state field {name!r} must be finite")
    return float(value)


def _read_count(data: Mapping[str, object], name: str) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"character state field {name!r} must be an integer")
    return value


def _read_topics(data: Mapping[str, object]) -> tuple[str, ...]:
    value = data["recent_topics"]
    if not isinstance(value, list | tuple):
        raise InvalidInput("character state field 'recent_topics' must be a list")
    topics: list[str] = []
    for topic in value:
        if not isinstance(topic, str):
            raise InvalidInput("character state field 'recent_topics' must hold strings")
        topics.append(topic)
    _check_topics(tuple(topics))
    return tuple(topics)


def _read_moment(data: Mapping[str, object], name: str) -> datetime | None:
    value = data[name]
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"character state field {name!r} must be an ISO 8601 string")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as exc:
        raise InvalidInput(f"character state field {name!r} is not ISO 8601: {value!r}") from exc
    return as_utc(moment, name=name)

"""A stream comment as it arrives, and its validation (from objects or from JSON).

Every problem is an :class:`~omoide.errors.InvalidInput` that names the field; a batch
names the event's index as well (``event 3: time must be timezone-aware``), and nothing
of a batch with one bad event is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from omoide.domain import as_utc, check_message
from omoide.errors import InvalidInput
from omoide.text_rules import check_id, check_text, moment_problem

MAX_DISPLAY_NAME_CHARS: Final = 100
MAX_PLATFORM_CHARS: Final = 64
DEFAULT_PLATFORM: Final = "unknown"
EVENT_FIELDS: Final = ("viewer_id", "display_name", "text", "time", "platform", "reply")


def _check_label(value: object, *, name: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{name} must be a non-empty string")
    if len(value) > limit:
        raise InvalidInput(f"{name} is longer than {limit} characters")
    return check_text(value, name=name, one_line=True).strip()


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One chat comment of a live stream.

    ``reply`` is what the character answered, when it answered this comment; an empty or
    blank reply means it did not. ``time`` must be timezone-aware and is kept in UTC.
    """

    viewer_id: str
    display_name: str
    text: str
    time: datetime
    platform: str = DEFAULT_PLATFORM
    reply: str | None = None

    def __post_init__(self) -> None:
        check_id(self.viewer_id, name="viewer_id")
        name = _check_label(self.display_name, name="display_name", limit=MAX_DISPLAY_NAME_CHARS)
        object.__setattr__(self, "display_name", name)
        check_message(self.text, name="text", allow_empty=False)
        if not isinstance(self.time, datetime):
            raise InvalidInput("time must be a datetime")
        object.__setattr__(self, "time", as_utc(self.time, name="time"))
        problem = moment_problem(self.time)
        if problem is not None:
            raise InvalidInput(f"time {problem}")
        platform = _check_label(self.platform, name="platform", limit=MAX_PLATFORM_CHARS)
        object.__setattr__(self, "platform", platform)
        if self.reply is not None:
            check_message(self.reply, name="reply", allow_empty=True)
            if not self.reply.strip():
                object.__setattr__(self, "reply", None)

    @property
    def answered(self) -> bool:
        return self.reply is not None


def _parse_time(value: object) -> datetime:
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        raise InvalidInput("time must be an ISO 8601 string with a UTC offset")
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"time is not an ISO 8601 date-time: {value!r}") from None


def _optional_text(raw: Mapping[str, object], key: str) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{key} must be a string or null")
    return value


def event_from_json(raw: object) -> StreamEvent:
    """A :class:`StreamEvent` from a decoded JSON object; unknown keys are ignored.

    ``display_name`` defaults to ``viewer_id`` and ``platform`` to ``"unknown"``.
    """
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"an event must be a JSON object (got {type(raw).__name__})")
    for key in ("viewer_id", "text", "time"):
        if raw.get(key) is None:
            raise InvalidInput(f"{key} is missing")
    viewer_id = raw["viewer_id"]
    if not isinstance(viewer_id, str):
        raise InvalidInput("viewer_id must be a string")
    text = raw["text"]
    if not isinstance(text, str):
        raise InvalidInput("text must be a string")
    return StreamEvent(
        viewer_id=viewer_id,
        display_name=_optional_text(raw, "display_name") or viewer_id,
        text=text,
        time=_parse_time(raw["time"]),
        platform=_optional_text(raw, "platform") or DEFAULT_PLATFORM,
        reply=_optional_text(raw, "reply"),
    )


def events_from_json(items: Sequence[object], *, first_index: int = 0) -> list[StreamEvent]:
    """Every item as an event, or InvalidInput naming the first bad one's index."""
    events = []
    for index, raw in enumerate(items, start=first_index):
        try:
            events.append(event_from_json(raw))
        except InvalidInput as exc:
            raise InvalidInput(f"event {index}: {exc}") from exc
    return events

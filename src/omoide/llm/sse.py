"""Server-sent events, decoded line by line (the framing of OpenAI and Anthropic streams).

Follows the WHATWG event-stream rules that these APIs use: ``field: value`` lines, one
optional space after the colon removed, several ``data`` lines joined with newlines, lines
starting with ``:`` ignored as comments, a blank line ending the event. Unlike the browser
rules, an event still pending when the stream ends is delivered rather than dropped, so a
server that omits the last blank line loses nothing.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event: its name (``"message"`` unless the server named it) and data."""

    event: str
    data: str
    id: str | None = None


class SseDecoder:
    """Feeds on lines (without their line endings) and returns each completed event."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None

    def feed(self, line: str) -> SseEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, separator, value = line.partition(":")
        if separator and value.startswith(" "):
            value = value[1:]
        self._take_field(name, value)
        return None

    def finish(self) -> SseEvent | None:
        """The event left pending when the stream ended, if any."""
        return self._dispatch()

    def _take_field(self, name: str, value: str) -> None:
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\x00" not in value:
            self._id = value

    def _dispatch(self) -> SseEvent | None:
        """Deliver the buffered event; as in browsers, an event without data is dropped."""
        event = None
        if self._data:
            event = SseEvent(self._event or "message", "\n".join(self._data), self._id)
        self._event, self._data = "", []
        return event


async def iter_sse_events(lines: AsyncIterable[str]) -> AsyncGenerator[SseEvent, None]:
    """Decode an async stream of lines into events."""
    decoder = SseDecoder()
    async for line in lines:
        event = decoder.feed(line.rstrip("\r\n"))
        if event is not None:
            yield event
    last = decoder.finish()
    if last is not None:
        yield last


def encode_sse_event(data: str, *, event: str | None = None) -> str:
    """Frame one event for sending (used by fakes and by servers that speak SSE)."""
    head = f"event: {event}\n" if event is not None else ""
    body = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"{head}{body}\n"

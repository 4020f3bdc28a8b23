"""Time, injected: every write takes a timestamp and every read a ``now`` from a clock."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from omoide.domain import as_utc


class Clock(Protocol):
    def now(self) -> datetime: ...


def moment_of(given: datetime | None, clock: Clock, *, name: str = "now") -> datetime:
    """The moment a caller gave, in UTC (refused when naive), or the clock's now."""
    return as_utc(given, name=name) if given is not None else clock.now()


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that says what it is told: for tests, demos and importing old histories."""

    def __init__(self, moment: datetime) -> None:
        self._moment = as_utc(moment, name="moment")

    def now(self) -> datetime:
        return self._moment

    def set(self, moment: datetime) -> None:
        self._moment = as_utc(moment, name="moment")

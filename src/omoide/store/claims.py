"""Who holds a claim on queued work, and until when (the growth logs of both backends).

Diary jobs and viewers' batches are claimed by one instance of the service until its clock
reads ``claim_seconds`` later (:data:`~omoide.store.records.stream.CLAIM_SECONDS`); other
instances pass over them until then, and work whose instance died is taken again after.
One :class:`Claimant` stands for one instance: its logs share it.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from omoide.clock import Clock, SystemClock
from omoide.store.records.stream import CLAIM_SECONDS


class Claimant:
    """This instance's name on its claims, and the lease it takes them for."""

    def __init__(self, *, clock: Clock | None = None, claim_seconds: float = CLAIM_SECONDS) -> None:
        self.id = uuid.uuid4().hex
        self._clock = clock or SystemClock()
        self._lease = timedelta(seconds=claim_seconds)

    def lease(self) -> tuple[datetime, datetime]:
        """Now, and when a claim taken now lapses."""
        now = self._clock.now()
        return now, now + self._lease

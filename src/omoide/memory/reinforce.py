"""Reinforcement of recalled memories, noted on the reply path and written off it.

A reply must not wait for a write: in a live stream the store's single writer is busy
with batches of chat, and a reply that queued behind one would wait for the whole batch.
So the reply path only *notes* what reached the prompt (with the moment it did), and the
write happens later, each noted recall exactly once and with its own moment, when:

- the write path runs (``MemoryManager.store_interaction(s)``: in the service, right
  after the reply, when its turn is stored);
- someone reads what reinforcement changes (export, search for inspection, decay);
- the manager closes, or :meth:`Reinforcements.flush` is called.

A failed write keeps the notes for the next flush. Notes wait in memory, so a crash loses
at most the recalls since the last flush: they only strengthen memories, and losing a few
costs a memory a little of its stability, never its content. Past ``max_pending`` notes,
:meth:`Reinforcements.note` reports that a flush is due, and the reply path writes the
oldest two (``DUE_FLUSH``): a library user who only ever recalls pays about one write per
reply, as if nothing were deferred, and the backlog stays bounded.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import anyio

from omoide.domain import Scope, as_utc
from omoide.errors import InvalidInput, OmoideError
from omoide.metrics import Metrics

logger = logging.getLogger(__name__)

DEFAULT_MAX_PENDING = 1024
DUE_FLUSH = 2


class RecallRecording(Protocol):
    """Where recalls are recorded (a memory store)."""

    async def record_recalls(
        self, scope: Scope, *, episode_ids: Sequence[str], fact_ids: Sequence[str], at: datetime
    ) -> None:
        """Reinforce recalled memories in one write: recall count up, last recall = at."""
        ...


@dataclass(frozen=True, slots=True)
class Recall:
    """Memories that reached one prompt, and when."""

    scope: Scope
    episode_ids: tuple[str, ...]
    fact_ids: tuple[str, ...]
    at: datetime


class Reinforcements:
    """Noted recalls waiting to be written, in the order they happened."""

    def __init__(
        self,
        store: RecallRecording,
        *,
        metrics: Metrics | None = None,
        max_pending: int = DEFAULT_MAX_PENDING,
    ) -> None:
        if isinstance(max_pending, bool) or not isinstance(max_pending, int) or max_pending < 1:
            raise InvalidInput(f"max_pending must be a positive integer (got {max_pending!r})")
        self._store = store
        self._metrics = metrics or Metrics()
        self._max_pending = max_pending
        self._pending: list[Recall] = []
        self._lock = anyio.Lock()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def note(
        self, scope: Scope, *, episode_ids: Sequence[str], fact_ids: Sequence[str], at: datetime
    ) -> bool:
        """Remember to reinforce these memories as of ``at``; True when a flush is due."""
        if episode_ids or fact_ids:
            moment = as_utc(at, name="at")
            self._pending.append(Recall(scope, tuple(episode_ids), tuple(fact_ids), moment))
        return len(self._pending) >= self._max_pending

    async def flush(self, *, limit: int | None = None) -> int:
        """Write the noted recalls (at most ``limit``), oldest first; how many were written.

        A failure stops the flush, keeps that note and the later ones for the next flush,
        and is raised.
        """
        async with self._lock:
            written = 0
            while self._pending and (limit is None or written < limit):
                recall = self._pending[0]
                await self._store.record_recalls(
                    recall.scope,
                    episode_ids=recall.episode_ids,
                    fact_ids=recall.fact_ids,
                    at=recall.at,
                )
                self._pending.pop(0)
                written += 1
            if written:
                self._metrics.increment("recall.reinforcements_written", written)
            return written

    async def flush_quietly(self, *, limit: int | None = None) -> int:
        """:meth:`flush` for paths that must go on when the store fails (the write path
        retries the store anyway): the failure is logged and counted, the notes kept."""
        try:
            return await self.flush(limit=limit)
        except OmoideError as exc:
            logger.warning("reinforcing recalled memories failed, kept for later: %s", exc)
            self._metrics.increment("recall.reinforcement_failures")
            return 0

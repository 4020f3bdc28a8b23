"""Drains the durable turn queue into the memory pipeline, off the reply path."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Protocol

import anyio

from omoide.domain import Episode, Scope
from omoide.errors import InvalidInput, NotFound, OmoideError
from omoide.memory.manager import MemoryManager
from omoide.metrics import Metrics
from omoide.store.queued_turns import QueuedTurn

logger = logging.getLogger(__name__)


class DrainedQueue(Protocol):
    """What draining takes from the turn queue (its consumer side)."""

    async def take(self, limit: int) -> list[QueuedTurn]: ...

    async def done(self, job_ids: Sequence[int]) -> None: ...

    async def retry_later(self, job_ids: Sequence[int], *, error: str, park: bool) -> None: ...


class StoredEpisodes(Protocol):
    """How draining recognises a replayed turn (a memory store): its episode is stored."""

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode:
        """NotFound when no such episode is stored in ``scope``."""
        ...


class QueueDrainer:
    """Moves queued turns into memory in batches; at-least-once, replays recognised.

    A batch that fails because a backend is down stays queued and is retried with
    exponential backoff, however long the outage lasts; a batch that is invalid (it
    can never succeed) is parked as failed, kept for a person to inspect.
    """

    def __init__(
        self,
        queue: DrainedQueue,
        memory: MemoryManager,
        *,
        episodes: StoredEpisodes,
        metrics: Metrics,
        batch_size: int = 64,
        idle_seconds: float = 0.5,
        max_backoff_seconds: float = 60.0,
    ) -> None:
        self._queue = queue
        self._memory = memory
        self._episodes = episodes
        self._metrics = metrics
        self._batch_size = batch_size
        self._idle_seconds = idle_seconds
        self._max_backoff = max_backoff_seconds
        self._wake = anyio.Event()
        self._storing = anyio.Lock()

    def notify(self) -> None:
        """Tell the worker that new turns are waiting."""
        self._wake.set()

    async def drain_once(self) -> tuple[int, bool]:
        """Process one batch: how many queued turns it took, and whether all went well."""
        async with self._storing:
            batch = await self._queue.take(self._batch_size)
            by_character: dict[str, list[QueuedTurn]] = defaultdict(list)
            for queued in batch:
                by_character[queued.turn.scope.character_id].append(queued)
            healthy = True
            for character_id, group in by_character.items():
                healthy = await self._store_group(character_id, group) and healthy
            return len(batch), healthy

    @asynccontextmanager
    async def paused(self) -> AsyncIterator[None]:
        """No batch is taken or stored while the block runs: one in flight finishes first
        (forgetting a viewer deletes their queued turns inside this block)."""
        async with self._storing:
            yield

    async def drain_all(self) -> int:
        """Drain until the queue is empty or a backend fails (on start and on shutdown)."""
        total = 0
        while True:
            handled, healthy = await self.drain_once()
            total += handled
            if handled == 0 or not healthy:
                return total

    async def run(self) -> None:
        """Work until cancelled: drain, back off after failures, sleep when idle."""
        backoff = 1.0
        while True:
            handled, healthy = await self.drain_once()
            if not healthy:
                await anyio.sleep(backoff)
                backoff = min(backoff * 2, self._max_backoff)
                continue
            backoff = 1.0
            if handled:
                continue
            with anyio.move_on_after(self._idle_seconds):
                await self._wake.wait()
            self._wake = anyio.Event()

    async def _store_group(self, character_id: str, group: Sequence[QueuedTurn]) -> bool:
        fresh = [queued for queued in group if not await self._already_stored(queued)]
        replayed = [queued.job_id for queued in group if queued not in fresh]
        if replayed:
            self._metrics.increment("queue.replays_skipped", len(replayed))
            await self._queue.done(replayed)
        if not fresh:
            return True
        job_ids = [queued.job_id for queued in fresh]
        try:
            await self._memory.store_interactions(character_id, [q.turn for q in fresh])
        except InvalidInput as exc:
            logger.error("queued turns for %s are invalid and parked: %s", character_id, exc)
            await self._queue.retry_later(job_ids, error=str(exc), park=True)
            self._metrics.increment("queue.parked", len(job_ids))
            return True
        except OmoideError as exc:
            logger.warning("storing queued turns for %s failed, will retry: %s", character_id, exc)
            await self._queue.retry_later(job_ids, error=str(exc), park=False)
            self._metrics.increment("queue.retries", len(job_ids))
            return False
        await self._queue.done(job_ids)
        self._metrics.increment("queue.stored", len(job_ids))
        return True

    async def _already_stored(self, queued: QueuedTurn) -> bool:
        """A turn written just before a crash is still queued: recognise it by its id."""
        if queued.turn.turn_id is None:
            return False
        try:
            await self._episodes.get_episode(queued.turn.scope, queued.turn.turn_id)
        except NotFound:
            return False
        return True

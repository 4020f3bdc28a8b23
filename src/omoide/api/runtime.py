"""What the running service holds: the built collaborators, the keys and the queue worker."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import anyio
from anyio.abc import TaskGroup

from omoide.api.auth import KeySource
from omoide.api.health import ModelProbe
from omoide.memory.drain import QueueDrainer
from omoide.wiring import Omoide

logger = logging.getLogger(__name__)

RESTART_DELAY_SECONDS = 1.0


class DrainWorker:
    """Runs :meth:`QueueDrainer.run` in the service's task group for the service's life.

    If the drainer crashes on something unexpected, it is logged and restarted after a
    second: accepted turns stay queued on disk meanwhile. (Forgetting a viewer holds the
    drainer itself: :meth:`QueueDrainer.paused`.)
    """

    def __init__(
        self,
        drainer: QueueDrainer,
        group: TaskGroup,
        *,
        restart_delay_seconds: float = RESTART_DELAY_SECONDS,
    ) -> None:
        self._drainer = drainer
        self._group = group
        self._restart_delay = restart_delay_seconds
        self._scope: anyio.CancelScope | None = None
        self._stopped = anyio.Event()

    def start(self) -> None:
        if self._scope is not None:
            return
        self._scope = anyio.CancelScope()
        self._stopped = anyio.Event()
        self._group.start_soon(self._run, self._scope, self._stopped)

    async def stop(self) -> None:
        """Cancel the worker and wait until it has let go (a running write finishes)."""
        scope, self._scope = self._scope, None
        if scope is None:
            return
        scope.cancel()
        await self._stopped.wait()

    async def _run(self, scope: anyio.CancelScope, stopped: anyio.Event) -> None:
        try:
            with scope:
                while True:
                    try:
                        await self._drainer.run()
                    except Exception:
                        logger.exception("the queue worker failed; restarting it")
                        await anyio.sleep(self._restart_delay)
        finally:
            stopped.set()


@dataclass(frozen=True, slots=True)
class Service:
    """Everything a request handler may use."""

    built: Omoide
    keys: KeySource
    worker: DrainWorker
    model_probe: ModelProbe

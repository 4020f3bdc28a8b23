"""Running an in-process model off the event loop, loading it on first use.

Model objects are not assumed thread-safe: one lock per model serialises loading and
every forward pass, which run in a worker thread (:func:`anyio.to_thread.run_sync`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from importlib import metadata
from typing import Generic, TypeVar

import anyio.to_thread

from omoide.errors import BackendError, ConfigError

Model = TypeVar("Model")
Result = TypeVar("Result")


def distribution_version(distribution: str) -> str:
    """The installed version of a PyPI distribution, read without importing it."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError as exc:
        raise ConfigError(f"{distribution} is not installed: pip install '{distribution}'") from exc


class LazyModel(Generic[Model]):
    """Holds a model that ``load`` builds the first time :meth:`run` needs it."""

    def __init__(self, load: Callable[[], Model], *, description: str) -> None:
        self._load = load
        self._description = description
        self._model: Model | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    async def run(self, work: Callable[[Model], Result]) -> Result:
        """Call ``work(model)`` in a worker thread, loading the model first if needed."""
        return await anyio.to_thread.run_sync(self._run_locked, work)

    def _run_locked(self, work: Callable[[Model], Result]) -> Result:
        with self._lock:
            if self._model is None:
                self._model = self._load_translated()
            try:
                return work(self._model)
            except (RuntimeError, ValueError, OSError) as exc:
                raise BackendError(f"{self._description} failed: {exc}") from exc

    def _load_translated(self) -> Model:
        try:
            return self._load()
        except ImportError as exc:
            raise ConfigError(f"{self._description} cannot be imported: {exc}") from exc
        except (RuntimeError, ValueError, OSError) as exc:
            raise BackendError(f"{self._description} failed to load: {exc}") from exc

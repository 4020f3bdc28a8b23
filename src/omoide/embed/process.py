"""Large document batches embedded in a worker process, so bulk writes use a second core.

A local model's forward pass holds the interpreter lock for much of each batch (USE's
tokenizer is pure Python), and the write path's own Python work — importance and fact
rules, keyword indexing, fact keeping, SQLite — waits for it. Embedding large document
batches in a worker process lets the two run side by side: the speed benchmark's batched
ingest (section 2 of ``benchmarks/results/speed-full.md``) measures it.

Queries and small batches stay in this process: a round trip to the worker costs more
than embedding a short query, and the reply path must not wait behind a bulk batch. The
worker builds its own copy of the model from a picklable ``factory`` (the same model class
with the same settings, so the same texts give the same vectors) when it starts, and
keeps it for its lifetime. It is started by the first large batch, not before, so a
process that never writes in bulk never pays for it.
"""

from __future__ import annotations

import contextlib
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence

import anyio.to_thread
import numpy as np

from omoide.domain import Matrix, Vector
from omoide.embed.base import Embedder
from omoide.embed.vectors import check_texts
from omoide.errors import BackendError, ConfigError

DEFAULT_MIN_TEXTS = 48
"""Calls with fewer texts are embedded in this process (the write path's fact texts come
in calls of at most 32, and keep running here while the worker embeds episodes)."""

DEFAULT_MIN_CHARS = 8000
"""Calls whose texts hold this many characters go to the worker however few they are: a
pasted text of 100,000 characters is seconds of USE's pure-Python tokenizer, which must
not hold this process's interpreter lock while replies are being built."""

_STOP_SECONDS = 5.0


class _WorkerDied(BackendError):
    """The worker process is gone (crashed, killed): a new one may do the work."""


class _Worker:
    """One ``python -m omoide.embed.worker`` process; calls are serialised by the caller."""

    def __init__(self, factory: Callable[[], Embedder], description: str) -> None:
        self._description = description
        self._process = subprocess.Popen(
            [sys.executable, "-m", "omoide.embed.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        try:
            self._send(sys.path)
            self._send(factory)
            self._receive()
        except BackendError:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def embed(self, texts: list[str]) -> object:
        self._send(texts)
        return self._receive()

    def stop(self) -> None:
        """Close its input (it exits), wait a little, kill it if it did not, close pipes."""
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):  # a dead worker's pipe: nothing to flush
                stdin.close()
        try:
            self._process.wait(timeout=_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if stdout is not None:
            stdout.close()

    def _send(self, message: object) -> None:
        stdin = self._process.stdin
        if stdin is None:
            raise BackendError(f"the embedding worker of {self._description} has no input")
        try:
            pickle.dump(message, stdin, protocol=pickle.HIGHEST_PROTOCOL)
            stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise _WorkerDied(f"the embedding worker of {self._description} died") from exc

    def _receive(self) -> object:
        stdout = self._process.stdout
        if stdout is None:
            raise BackendError(f"the embedding worker of {self._description} has no output")
        try:
            status, value = pickle.load(stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as exc:
            raise _WorkerDied(f"the embedding worker of {self._description} died") from exc
        if status != "ok":
            raise BackendError(f"{self._description} failed in its worker: {value}")
        return value


class WorkerProcessEmbedder:
    """An :class:`~omoide.embed.base.Embedder` that sends large document batches to a worker.

    ``inner`` embeds queries and small batches here (fewer than ``min_texts`` texts and
    ``min_chars`` characters); ``factory`` builds the same model in the worker and must be
    picklable (a class or a ``functools.partial`` of one).
    Close with :meth:`aclose`, which stops the worker.
    """

    def __init__(
        self,
        inner: Embedder,
        factory: Callable[[], Embedder],
        *,
        min_texts: int = DEFAULT_MIN_TEXTS,
        min_chars: int = DEFAULT_MIN_CHARS,
    ) -> None:
        if min_texts < 1:
            raise ConfigError(f"min_texts must be at least 1 (got {min_texts})")
        if min_chars < 1:
            raise ConfigError(f"min_chars must be at least 1 (got {min_chars})")
        self._min_chars = min_chars
        self._inner = inner
        self._factory = factory
        self._min_texts = min_texts
        self._worker: _Worker | None = None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    @property
    def inner(self) -> Embedder:
        return self._inner

    @property
    def worker_pid(self) -> int | None:
        """The running worker's process id; None before the first large batch."""
        worker = self._worker
        return worker.pid if worker is not None and worker.alive else None

    async def embed_query(self, text: str) -> Vector:
        return await self._inner.embed_query(text)

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        checked = check_texts(texts)
        small = len(checked) < self._min_texts
        if small and sum(len(text) for text in checked) < self._min_chars:
            return await self._inner.embed_documents(checked)
        matrix = await anyio.to_thread.run_sync(self._embed_in_worker, list(checked))
        return self._checked(matrix, rows=len(checked))

    async def aclose(self) -> None:
        """Stop the worker (after a batch it is embedding) and close ``inner``."""
        await anyio.to_thread.run_sync(self._stop)
        await self._inner.aclose()

    def _embed_in_worker(self, texts: list[str]) -> object:
        """Embed in the worker; a worker found dead is replaced and the batch sent once more."""
        with self._lock:
            try:
                return self._running_worker().embed(texts)
            except _WorkerDied:
                self._discard_worker()
            try:
                return self._running_worker().embed(texts)
            except _WorkerDied:
                self._discard_worker()
                raise

    def _running_worker(self) -> _Worker:
        if self._closed:
            raise BackendError(f"the embedder {self.model_name} is closed")
        if self._worker is not None and not self._worker.alive:
            self._discard_worker()
        if self._worker is None:
            self._worker = _Worker(self._factory, self.model_name)
        return self._worker

    def _discard_worker(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    def _stop(self) -> None:
        with self._lock:
            self._closed = True
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    def _checked(self, matrix: object, *, rows: int) -> Matrix:
        if not isinstance(matrix, np.ndarray) or matrix.shape != (rows, self.dimensions):
            shape = getattr(matrix, "shape", type(matrix).__name__)
            raise BackendError(
                f"the embedding worker of {self.model_name} returned {shape}, "
                f"expected ({rows}, {self.dimensions})"
            )
        checked: Matrix = matrix.astype(np.float32, copy=False)
        return checked

"""Embedder wrappers for measuring: precomputed query vectors, and time spent embedding."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from omoide.domain import Matrix, Vector
from omoide.embed.base import Embedder


class PrecomputedQueryEmbedder:
    """Answers ``embed_query`` from vectors computed beforehand; other texts go to ``inner``.

    With it the reply path is timed without the query embedding (what a cache hit or an
    embedding computed while the viewer was still typing would give); inside
    :meth:`bypassed` every query goes to ``inner``, so the same query can be timed both
    ways. ``hits`` and ``misses`` tell whether a timed query really skipped the model.
    """

    def __init__(self, inner: Embedder, precomputed: Mapping[str, Vector]) -> None:
        self._inner = inner
        self._precomputed = {text: vector.copy() for text, vector in precomputed.items()}
        self._bypass = False
        self.hits = 0
        self.misses = 0

    @property
    def inner(self) -> Embedder:
        return self._inner

    @contextmanager
    def bypassed(self) -> Iterator[None]:
        """Embed every query with ``inner`` while the block runs."""
        self._bypass = True
        try:
            yield
        finally:
            self._bypass = False

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await self._inner.embed_documents(texts)

    async def aclose(self) -> None:
        """Nothing to release."""

    async def embed_query(self, text: str) -> Vector:
        vector = None if self._bypass else self._precomputed.get(text)
        if vector is None:
            self.misses += 1
            return await self._inner.embed_query(text)
        self.hits += 1
        return vector.copy()


@dataclass(frozen=True, slots=True)
class EmbedCall:
    """One call through :class:`TimedEmbedder`."""

    kind: str  # "documents" | "query"
    texts: int
    seconds: float


class TimedEmbedder:
    """Passes every call to ``inner`` and records how many texts it embedded, how long it took."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._calls: list[EmbedCall] = []

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    @property
    def calls(self) -> tuple[EmbedCall, ...]:
        return tuple(self._calls)

    def reset(self) -> None:
        self._calls.clear()

    @property
    def seconds(self) -> float:
        return sum(call.seconds for call in self._calls)

    @property
    def texts(self) -> int:
        return sum(call.texts for call in self._calls)

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        started = time.perf_counter()
        matrix = await self._inner.embed_documents(texts)
        self._calls.append(EmbedCall("documents", len(texts), time.perf_counter() - started))
        return matrix

    async def aclose(self) -> None:
        """Nothing to release."""

    async def embed_query(self, text: str) -> Vector:
        started = time.perf_counter()
        vector = await self._inner.embed_query(text)
        self._calls.append(EmbedCall("query", 1, time.perf_counter() - started))
        return vector

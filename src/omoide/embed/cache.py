"""A short-lived cache of query embeddings in front of any embedder.

Chat repeats itself: the same greeting or question is searched again within minutes.
Queries are cached (least recently used first out, each entry valid for ``ttl_seconds``
by the injected clock); documents pass straight through, since they are embedded once and
stored.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from omoide.clock import Clock
from omoide.domain import Matrix, Vector
from omoide.embed.base import Embedder
from omoide.embed.vectors import check_text
from omoide.errors import ConfigError
from omoide.text_caches import holds_text


@dataclass(frozen=True, slots=True)
class CacheStats:
    """Counts since the cache was built; ``entries`` includes expired entries not yet
    dropped (an expired entry goes when it is next looked up or is least recently used)."""

    hits: int
    misses: int
    entries: int


@dataclass(frozen=True, slots=True)
class _Entry:
    vector: Vector
    stored_at: datetime


class CachedQueryEmbedder:
    """Wraps ``inner``; same ``model_name`` and ``dimensions``, so stores see no difference.

    ``max_entries=0`` or ``ttl_seconds=0`` turns caching off. Each hit returns a fresh copy,
    so a caller that changes the array in place cannot corrupt the cache.
    """

    def __init__(
        self, inner: Embedder, *, max_entries: int, ttl_seconds: float, clock: Clock
    ) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 0:
            raise ConfigError(f"query cache max_entries must be >= 0 (got {max_entries!r})")
        if not math.isfinite(ttl_seconds) or ttl_seconds < 0:
            raise ConfigError(f"query cache ttl_seconds must be >= 0 (got {ttl_seconds!r})")
        self._inner = inner
        self._max_entries = max_entries
        self._ttl_seconds = float(ttl_seconds)
        self._clock = clock
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._hits = 0
        self._misses = 0
        holds_text(self)

    @property
    def inner(self) -> Embedder:
        return self._inner

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    @property
    def stats(self) -> CacheStats:
        return CacheStats(hits=self._hits, misses=self._misses, entries=len(self._entries))

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await self._inner.embed_documents(texts)

    async def aclose(self) -> None:
        """Nothing to release: the wrapped embedder stays its owner's to close."""

    async def embed_query(self, text: str) -> Vector:
        check_text(text)
        cached = self._lookup(text)
        if cached is not None:
            self._hits += 1
            return cached.copy()
        self._misses += 1
        vector = await self._inner.embed_query(text)
        self._store(text, vector)
        return vector

    def clear(self) -> None:
        self._entries.clear()

    def forget_texts(self) -> None:
        """Drop every cached query (memory was forgotten: :mod:`omoide.text_caches`)."""
        self.clear()

    def texts_held(self) -> int:
        return len(self._entries)

    def _lookup(self, text: str) -> Vector | None:
        entry = self._entries.get(text)
        if entry is None:
            return None
        age = (self._clock.now() - entry.stored_at).total_seconds()
        if not 0 <= age < self._ttl_seconds:
            del self._entries[text]
            return None
        self._entries.move_to_end(text)
        return entry.vector

    def _store(self, text: str, vector: Vector) -> None:
        if self._max_entries == 0 or self._ttl_seconds == 0:
            return
        self._entries[text] = _Entry(vector=vector.copy(), stored_at=self._clock.now())
        self._entries.move_to_end(text)
        self._evict()

    def _evict(self) -> None:
        """Bound memory: drop least recently used entries beyond ``max_entries``."""
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

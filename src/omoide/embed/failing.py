"""A deterministic embedder that can be switched off: the fake for a model that is down.

::

    embedder = FailingEmbedder()            # works like HashingEmbedder(256)
    embedder.queries_down = True            # embed_query raises BackendUnavailable
    embedder.documents_down = True          # embed_documents raises BackendUnavailable

It ships beside :class:`~omoide.embed.hashing.HashingEmbedder` so users can test their own
handling of an embedding outage the way omoide's tests do.
"""

from __future__ import annotations

from collections.abc import Sequence

from omoide.domain import Matrix, Vector
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import BackendUnavailable


class FailingEmbedder:
    """Feature hashing (``dimensions`` buckets) whose query or document side can fail."""

    def __init__(self, dimensions: int = 256, *, message: str = "the embedding model is down"):
        self._inner = HashingEmbedder(dimensions)
        self._message = message
        self.queries_down = False
        self.documents_down = False

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if self.documents_down:
            raise BackendUnavailable(f"{self._message} (documents)")
        return await self._inner.embed_documents(texts)

    async def embed_query(self, text: str) -> Vector:
        if self.queries_down:
            raise BackendUnavailable(f"{self._message} (queries)")
        return await self._inner.embed_query(text)

    async def aclose(self) -> None:
        """Nothing to release."""

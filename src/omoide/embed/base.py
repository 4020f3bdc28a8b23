"""The embedding seam."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from omoide.domain import Matrix, Vector


class Embedder(Protocol):
    """Turns text into unit-length vectors.

    Documents (what is stored) and queries (what is searched with) are embedded apart,
    because asymmetric models need different prefixes. ``model_name`` is recorded with
    every stored vector; a store refuses vectors from another model.
    """

    @property
    def model_name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    async def embed_documents(self, texts: Sequence[str]) -> Matrix: ...

    async def embed_query(self, text: str) -> Vector: ...

    async def aclose(self) -> None:
        """Release what the embedder holds (a client, a worker process); wrappers leave
        what they wrap to its owner unless they own it."""
        ...

"""The store backends the contract tests run against, and how to open one.

A backend is an async function opening (or re-opening) the store called ``name`` under a
test's private directory. Adding a backend (e.g. PostgreSQL + Qdrant) means adding an
entry to :data:`BACKENDS`; every contract test then runs against it too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from omoide.store.base import EmbeddingInfo, MemoryStore
from omoide.store.sqlite import open_sqlite_store

OpenBackend = Callable[[Path, str, EmbeddingInfo], Awaitable[MemoryStore]]


async def open_sqlite(directory: Path, name: str, embedding: EmbeddingInfo) -> MemoryStore:
    return await open_sqlite_store(directory / f"{name}.sqlite3", embedding=embedding)


BACKENDS: dict[str, OpenBackend] = {"sqlite": open_sqlite}

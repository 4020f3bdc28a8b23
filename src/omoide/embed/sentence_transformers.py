"""Any sentence-transformers model, from a local path or a name in the local cache.

Optional: needs the ``sentence-transformers`` extra (``pip install
'omoide[sentence-transformers]'``), which brings PyTorch. It is imported on first use
only; a missing install is a ConfigError naming the extra, raised by the constructor.

Asymmetric models take prefixes: ``query_prefix`` and ``document_prefix`` are prepended
to queries and documents (e.g. ``"query: "`` / ``"passage: "`` for e5). Empty strings
are embedded as-is (the prefix alone). Dimensions are given to the constructor or read
from the model by ``await SentenceTransformerEmbedder.load(...)``, which loads it.

The model truncates at its ``max_seq_length`` tokens, so documents longer than
``max_input_chars`` characters are embedded in chunks (:mod:`omoide.embed.chunking`);
``load`` sets it to ``max_seq_length`` (a character is at most about one token in the
multilingual tokenizers) unless it is given. The constructor's default (None) chunks nothing.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Any

from omoide.domain import Matrix, Vector
from omoide.embed.batching import check_batch_size, embed_in_batches
from omoide.embed.chunking import check_max_chars, embed_chunked
from omoide.embed.local import LazyModel
from omoide.embed.vectors import check_text, check_texts, unit_rows
from omoide.errors import BackendError, ConfigError

INSTALL_HINT = "pip install 'omoide[sentence-transformers]'"
_OWNER = "sentence-transformers embedder"


def require_sentence_transformers() -> None:
    """ConfigError naming the extra when ``sentence_transformers`` is not installed."""
    if importlib.util.find_spec("sentence_transformers") is None:
        raise ConfigError(f"the sentence-transformers embedder needs the extra: {INSTALL_HINT}")


class SentenceTransformerEmbedder:
    """A sentence-transformers model, run in a worker thread, loaded on first use."""

    def __init__(
        self,
        model: str,
        *,
        dimensions: int,
        query_prefix: str = "",
        document_prefix: str = "",
        device: str | None = None,
        batch_size: int = 64,
        max_input_chars: int | None = None,
    ) -> None:
        require_sentence_transformers()
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f"{_OWNER} model must be a non-empty path or name")
        if isinstance(dimensions, bool) or not isinstance(dimensions, int) or dimensions < 1:
            raise ConfigError(f"{_OWNER} dimensions must be positive (got {dimensions!r})")
        self._name = model
        self._dimensions = dimensions
        self._query_prefix = query_prefix
        self._document_prefix = document_prefix
        self._device = device
        self._batch_size = check_batch_size(batch_size, owner=_OWNER)
        self._max_chars = check_max_chars(max_input_chars, owner=_OWNER)
        self._model: LazyModel[Any] = LazyModel(self._load, description=self.model_name)

    @classmethod
    async def load(
        cls,
        model: str,
        *,
        query_prefix: str = "",
        document_prefix: str = "",
        device: str | None = None,
        batch_size: int = 64,
        max_input_chars: int | None = None,
    ) -> SentenceTransformerEmbedder:
        """Load the model now (off the event loop) and read its dimensions from it."""
        probe = cls(
            model,
            dimensions=1,
            query_prefix=query_prefix,
            document_prefix=document_prefix,
            device=device,
            batch_size=batch_size,
        )
        dimensions = await probe._model.run(_model_dimensions)
        probe._dimensions = dimensions
        window = await probe._model.run(_max_sequence_length)
        probe._max_chars = check_max_chars(max_input_chars or window, owner=_OWNER)
        return probe

    @property
    def model_name(self) -> str:
        return f"st:{self._name}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await embed_chunked(
            self._embed_all,
            check_texts(texts),
            max_chars=self._max_chars,
            dimensions=self.dimensions,
        )

    async def _embed_all(self, texts: list[str]) -> Matrix:
        prefixed = [self._document_prefix + text for text in texts]
        return await embed_in_batches(
            self._embed_batch, prefixed, batch_size=self._batch_size, dimensions=self._dimensions
        )

    async def aclose(self) -> None:
        """Nothing to release: the model lives in this process."""

    async def embed_query(self, text: str) -> Vector:
        matrix = await self._embed_batch([self._query_prefix + check_text(text)])
        vector: Vector = matrix[0]
        return vector

    async def _embed_batch(self, batch: list[str]) -> Matrix:
        return await self._model.run(lambda model: self._encode(model, batch))

    def _load(self) -> Any:
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(self._name, device=self._device)

    def _encode(self, model: Any, batch: list[str]) -> Matrix:
        raw = model.encode(
            batch,
            batch_size=self._batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return unit_rows(raw, rows=len(batch), dimensions=self._dimensions, source=self.model_name)


def _max_sequence_length(model: Any) -> int | None:
    """The tokens the model reads before it truncates; None when it does not say."""
    length = getattr(model, "max_seq_length", None)
    return (
        length if isinstance(length, int) and not isinstance(length, bool) and length > 0 else None
    )


def _model_dimensions(model: Any) -> int:
    dimensions = model.get_sentence_embedding_dimension()
    if dimensions is None:  # a model whose last module does not declare its output size
        dimensions = len(model.encode(["dimension probe"], convert_to_numpy=True)[0])
    if not isinstance(dimensions, int) or dimensions < 1:
        raise BackendError(f"{_OWNER} cannot tell the dimensions of its model")
    return dimensions

"""Embeddings from an Ollama server: ``POST {base_url}/api/embed``.

Request ``{"model": m, "input": [texts]}``, answer ``{"embeddings": [[...], ...]}``.
Dimensions are given to the constructor, or discovered by one probe request with
``await OllamaEmbedder.connect(model)``. Texts are sent as they are (empty strings too).
Errors: see :mod:`omoide.embed.http`; a wrong shape or dimension is a BackendError.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

import httpx
import numpy as np
from numpy.typing import NDArray

from omoide.domain import Matrix, Vector
from omoide.embed.batching import check_batch_size, embed_in_batches
from omoide.embed.http import (
    JsonEndpoint,
    RetryPolicy,
    build_client,
    check_base_url,
    check_dimensions,
    check_model,
    check_probe_dimensions,
    matrix_from_json_rows,
    post_json_with_retries,
)
from omoide.embed.vectors import check_text, check_texts, unit_rows
from omoide.errors import BackendError

DEFAULT_OLLAMA_URL = "http://localhost:11434"
PROBE_TEXT = "dimension probe"
_OWNER = "ollama embedder"


class OllamaEmbedder:
    """An Ollama embedding model (e.g. ``bge-m3``, ``nomic-embed-text``), batched.

    Owns an ``httpx.AsyncClient``: close it with :meth:`aclose` or ``async with``.
    """

    def __init__(
        self,
        model: str,
        *,
        dimensions: int,
        base_url: str = DEFAULT_OLLAMA_URL,
        batch_size: int = 64,
        timeout_seconds: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        self._model = check_model(model, owner=_OWNER)
        self._dimensions = check_dimensions(dimensions, owner=_OWNER)
        self._batch_size = check_batch_size(batch_size, owner=_OWNER)
        self._endpoint = _endpoint(model, base_url, retry)
        self._client = build_client(timeout_seconds, owner=_OWNER)

    @classmethod
    async def connect(
        cls,
        model: str,
        *,
        dimensions: int | None = None,
        base_url: str = DEFAULT_OLLAMA_URL,
        batch_size: int = 64,
        timeout_seconds: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> OllamaEmbedder:
        """Embed one probe text to learn (or, if given, verify) the model's dimensions."""
        endpoint = _endpoint(check_model(model, owner=_OWNER), base_url, retry)
        async with build_client(timeout_seconds, owner=_OWNER) as client:
            probe = await _request_rows(client, endpoint, model, [PROBE_TEXT])
        source = f"{endpoint.description} at {endpoint.url}"
        unit_rows(probe, rows=1, dimensions=probe.shape[1], source=source)
        return cls(
            model,
            dimensions=check_probe_dimensions(probe.shape[1], dimensions, source=source),
            base_url=base_url,
            batch_size=batch_size,
            timeout_seconds=timeout_seconds,
            retry=retry,
        )

    @property
    def model_name(self) -> str:
        return f"ollama:{self._model}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await embed_in_batches(
            self._embed_batch,
            check_texts(texts),
            batch_size=self._batch_size,
            dimensions=self._dimensions,
        )

    async def embed_query(self, text: str) -> Vector:
        matrix = await self._embed_batch([check_text(text)])
        vector: Vector = matrix[0]
        return vector

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> OllamaEmbedder:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _embed_batch(self, batch: list[str]) -> Matrix:
        rows = await _request_rows(self._client, self._endpoint, self._model, batch)
        source = f"{self._endpoint.description} at {self._endpoint.url}"
        return unit_rows(rows, rows=len(batch), dimensions=self._dimensions, source=source)


async def _request_rows(
    client: httpx.AsyncClient, endpoint: JsonEndpoint, model: str, batch: list[str]
) -> NDArray[np.float64]:
    answer = await post_json_with_retries(client, endpoint, {"model": model, "input": batch})
    source = f"{endpoint.description} at {endpoint.url}"
    if not isinstance(answer, dict) or "embeddings" not in answer:
        raise BackendError(f"{source} answered without an 'embeddings' list")
    return matrix_from_json_rows(answer["embeddings"], count=len(batch), source=source)


def _endpoint(model: str, base_url: str, retry: RetryPolicy | None) -> JsonEndpoint:
    root = check_base_url(base_url, owner=_OWNER)
    return JsonEndpoint(
        url=f"{root}/api/embed",
        description=f"ollama embedder (model {model!r})",
        headers={},
        retry=retry if retry is not None else RetryPolicy(),
    )

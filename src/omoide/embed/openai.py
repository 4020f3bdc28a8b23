"""Embeddings from an OpenAI-compatible server: ``POST {base_url}/v1/embeddings``.

``base_url`` may end in ``/v1`` or not (``https://api.openai.com/v1`` and
``http://localhost:8000`` both work). Request ``{"model": m, "input": [...]}``, answer
``{"data": [{"index": i, "embedding": [...]}, ...]}``, put back in index order. An API key,
if given, is sent as a bearer token. The API refuses empty strings, so an empty text is
sent as one space. Dimensions are given to the constructor, or discovered by one probe
request with ``await OpenAIEmbedder.connect(model)``.
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

DEFAULT_OPENAI_URL = "https://api.openai.com/v1"
PROBE_TEXT = "dimension probe"
_OWNER = "openai embedder"


class OpenAIEmbedder:
    """An OpenAI-compatible embedding model (OpenAI, vLLM, LM Studio, llama.cpp, ...).

    Owns an ``httpx.AsyncClient``: close it with :meth:`aclose` or ``async with``.
    """

    def __init__(
        self,
        model: str,
        *,
        dimensions: int,
        base_url: str = DEFAULT_OPENAI_URL,
        api_key: str | None = None,
        batch_size: int = 64,
        timeout_seconds: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        self._model = check_model(model, owner=_OWNER)
        self._dimensions = check_dimensions(dimensions, owner=_OWNER)
        self._batch_size = check_batch_size(batch_size, owner=_OWNER)
        self._endpoint = _endpoint(model, base_url, api_key, retry)
        self._client = build_client(timeout_seconds, owner=_OWNER)

    @classmethod
    async def connect(
        cls,
        model: str,
        *,
        dimensions: int | None = None,
        base_url: str = DEFAULT_OPENAI_URL,
        api_key: str | None = None,
        batch_size: int = 64,
        timeout_seconds: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> OpenAIEmbedder:
        """Embed one probe text to learn (or, if given, verify) the model's dimensions."""
        endpoint = _endpoint(check_model(model, owner=_OWNER), base_url, api_key, retry)
        async with build_client(timeout_seconds, owner=_OWNER) as client:
            probe = await _request_rows(client, endpoint, model, [PROBE_TEXT])
        source = f"{endpoint.description} at {endpoint.url}"
        unit_rows(probe, rows=1, dimensions=probe.shape[1], source=source)
        return cls(
            model,
            dimensions=check_probe_dimensions(probe.shape[1], dimensions, source=source),
            base_url=base_url,
            api_key=api_key,
            batch_size=batch_size,
            timeout_seconds=timeout_seconds,
            retry=retry,
        )

    @property
    def model_name(self) -> str:
        return f"openai:{self._model}"

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

    async def __aenter__(self) -> OpenAIEmbedder:
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


def embeddings_url(base_url: str) -> str:
    """``{base_url}/v1/embeddings``, without doubling a ``/v1`` the base URL already has."""
    root = check_base_url(base_url, owner=_OWNER)
    if root.endswith("/v1"):
        return f"{root}/embeddings"
    return f"{root}/v1/embeddings"


async def _request_rows(
    client: httpx.AsyncClient, endpoint: JsonEndpoint, model: str, batch: list[str]
) -> NDArray[np.float64]:
    sent = [text if text else " " for text in batch]
    answer = await post_json_with_retries(client, endpoint, {"model": model, "input": sent})
    source = f"{endpoint.description} at {endpoint.url}"
    rows = _rows_in_index_order(answer, count=len(batch), source=source)
    return matrix_from_json_rows(rows, count=len(batch), source=source)


def _rows_in_index_order(answer: object, *, count: int, source: str) -> list[object]:
    data = answer.get("data") if isinstance(answer, dict) else None
    if not isinstance(data, list):
        raise BackendError(f"{source} answered without a 'data' list")
    by_index: dict[int, object] = {}
    for item in data:
        index = item.get("index") if isinstance(item, dict) else None
        if isinstance(index, bool) or not isinstance(index, int) or "embedding" not in item:
            raise BackendError(f"{source} answered with a data item lacking index or embedding")
        by_index[index] = item["embedding"]
    if sorted(by_index) != list(range(count)) or len(data) != count:
        raise BackendError(f"{source} answered with indices {sorted(by_index)} for {count} inputs")
    return [by_index[index] for index in range(count)]


def _endpoint(
    model: str, base_url: str, api_key: str | None, retry: RetryPolicy | None
) -> JsonEndpoint:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return JsonEndpoint(
        url=embeddings_url(base_url),
        description=f"openai embedder (model {model!r})",
        headers=headers,
        retry=retry if retry is not None else RetryPolicy(),
    )

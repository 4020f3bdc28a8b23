"""One batched embedder over an HTTP embedding API, whatever its wire format.

:class:`HttpEmbedder` owns the client, the batching, the retries and the checks on what
comes back; a :class:`WireFormat` says how one API spells a request and where its answer
keeps the embeddings. :class:`~omoide.embed.ollama.OllamaEmbedder` and
:class:`~omoide.embed.openai.OpenAIEmbedder` only choose a wire format and an endpoint.
Errors: see :mod:`omoide.embed.http`; a wrong shape or dimension is a BackendError.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

import httpx
import numpy as np
from numpy.typing import NDArray

from omoide.domain import Matrix, Vector
from omoide.embed.batching import check_batch_size, embed_in_batches
from omoide.embed.chunking import embed_chunked
from omoide.embed.http import (
    JsonEndpoint,
    build_client,
    check_dimensions,
    check_probe_dimensions,
    matrix_from_json_rows,
    post_json_with_retries,
)
from omoide.embed.vectors import check_text, check_texts, unit_rows

PROBE_TEXT = "dimension probe"


@dataclass(frozen=True, slots=True)
class WireFormat:
    """How one HTTP embedding API spells a request and its answer.

    ``name`` prefixes the model name (``"ollama"`` -> ``"ollama:bge-m3"``); ``payload``
    builds the JSON body for a model and a batch of texts; ``embeddings`` takes the decoded
    answer, the batch size and a source for error messages and returns the JSON rows, in
    input order (a BackendError when the answer has none). A document longer than
    ``max_input_chars`` is sent as chunks and pooled (:mod:`omoide.embed.chunking`): such
    servers truncate or refuse what exceeds the model's context.
    """

    name: str
    payload: Callable[[str, list[str]], Mapping[str, object]]
    embeddings: Callable[[object, int, str], object]
    max_input_chars: int | None = None

    @property
    def owner(self) -> str:
        """Who is speaking in configuration errors, e.g. ``"ollama embedder"``."""
        return f"{self.name} embedder"


class HttpEmbedder:
    """An embedding model behind an HTTP API, batched.

    Owns an ``httpx.AsyncClient``: close it with :meth:`aclose` or ``async with``.
    """

    def __init__(
        self,
        model: str,
        *,
        wire: WireFormat,
        endpoint: JsonEndpoint,
        dimensions: int,
        batch_size: int,
        timeout_seconds: float,
    ) -> None:
        self._model = model
        self._wire = wire
        self._endpoint = endpoint
        self._dimensions = check_dimensions(dimensions, owner=wire.owner)
        self._batch_size = check_batch_size(batch_size, owner=wire.owner)
        self._client = build_client(timeout_seconds, owner=wire.owner)

    @property
    def model_name(self) -> str:
        return f"{self._wire.name}:{self._model}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await embed_chunked(
            self._embed_all,
            check_texts(texts),
            max_chars=self._wire.max_input_chars,
            dimensions=self._dimensions,
        )

    async def _embed_all(self, texts: list[str]) -> Matrix:
        return await embed_in_batches(
            self._embed_batch, texts, batch_size=self._batch_size, dimensions=self._dimensions
        )

    async def embed_query(self, text: str) -> Vector:
        matrix = await self._embed_batch([check_text(text)])
        vector: Vector = matrix[0]
        return vector

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _embed_batch(self, batch: list[str]) -> Matrix:
        rows = await _request_rows(self._client, self._wire, self._endpoint, self._model, batch)
        return unit_rows(
            rows, rows=len(batch), dimensions=self._dimensions, source=_source(self._endpoint)
        )


async def probe_dimensions(
    wire: WireFormat,
    endpoint: JsonEndpoint,
    model: str,
    *,
    expected: int | None,
    timeout_seconds: float,
) -> int:
    """Embed one probe text to learn (or, if ``expected``, verify) the model's dimensions."""
    async with build_client(timeout_seconds, owner=wire.owner) as client:
        probe = await _request_rows(client, wire, endpoint, model, [PROBE_TEXT])
    source = _source(endpoint)
    unit_rows(probe, rows=1, dimensions=probe.shape[1], source=source)
    return check_probe_dimensions(probe.shape[1], expected, source=source)


async def _request_rows(
    client: httpx.AsyncClient,
    wire: WireFormat,
    endpoint: JsonEndpoint,
    model: str,
    batch: list[str],
) -> NDArray[np.float64]:
    answer = await post_json_with_retries(client, endpoint, wire.payload(model, batch))
    source = _source(endpoint)
    rows = wire.embeddings(answer, len(batch), source)
    return matrix_from_json_rows(rows, count=len(batch), source=source)


def _source(endpoint: JsonEndpoint) -> str:
    return f"{endpoint.description} at {endpoint.url}"

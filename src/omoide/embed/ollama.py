"""Embeddings from an Ollama server: ``POST {base_url}/api/embed``.

Request ``{"model": m, "input": [texts]}``, answer ``{"embeddings": [[...], ...]}``.
Dimensions are given to the constructor, or discovered by one probe request with
``await OllamaEmbedder.connect(model)``. Texts are sent as they are (empty strings too).
Errors: see :mod:`omoide.embed.http`; a wrong shape or dimension is a BackendError.
"""

from __future__ import annotations

from omoide.embed.http import JsonEndpoint, RetryPolicy, check_base_url, check_model
from omoide.embed.http_embedder import HttpEmbedder, WireFormat, probe_dimensions
from omoide.errors import BackendError

DEFAULT_OLLAMA_URL = "http://localhost:11434"


def _payload(model: str, batch: list[str]) -> dict[str, object]:
    return {"model": model, "input": batch}


def _embeddings(answer: object, count: int, source: str) -> object:
    if not isinstance(answer, dict) or "embeddings" not in answer:
        raise BackendError(f"{source} answered without an 'embeddings' list")
    return answer["embeddings"]


OLLAMA_MAX_INPUT_CHARS = 1000
"""Ollama truncates an input to the model's context (512 tokens for many embedding
models); 1,000 characters fit it in English and come near it in Korean or Chinese."""
OLLAMA_WIRE = WireFormat(
    name="ollama", payload=_payload, embeddings=_embeddings, max_input_chars=OLLAMA_MAX_INPUT_CHARS
)


class OllamaEmbedder(HttpEmbedder):
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
        super().__init__(
            model,
            wire=OLLAMA_WIRE,
            endpoint=_endpoint(model, base_url, retry),
            dimensions=dimensions,
            batch_size=batch_size,
            timeout_seconds=timeout_seconds,
        )

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
        endpoint = _endpoint(model, base_url, retry)
        found = await probe_dimensions(
            OLLAMA_WIRE, endpoint, model, expected=dimensions, timeout_seconds=timeout_seconds
        )
        return cls(
            model,
            dimensions=found,
            base_url=base_url,
            batch_size=batch_size,
            timeout_seconds=timeout_seconds,
            retry=retry,
        )


def _endpoint(model: str, base_url: str, retry: RetryPolicy | None) -> JsonEndpoint:
    owner = OLLAMA_WIRE.owner
    return JsonEndpoint(
        url=f"{check_base_url(base_url, owner=owner)}/api/embed",
        description=f"ollama embedder (model {check_model(model, owner=owner)!r})",
        headers={},
        retry=retry if retry is not None else RetryPolicy(),
    )

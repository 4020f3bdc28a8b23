"""Embeddings from an OpenAI-compatible server: ``POST {base_url}/v1/embeddings``.

``base_url`` may end in ``/v1`` or not (``https://api.openai.com/v1`` and
``http://localhost:8000`` both work). Request ``{"model": m, "input": [...]}``, answer
``{"data": [{"index": i, "embedding": [...]}, ...]}``, put back in index order. An API key,
if given, is sent as a bearer token. The API refuses empty strings, so an empty text is
sent as one space. Dimensions are given to the constructor, or discovered by one probe
request with ``await OpenAIEmbedder.connect(model)``.
"""

from __future__ import annotations

from omoide.embed.http import JsonEndpoint, RetryPolicy, check_base_url, check_model
from omoide.embed.http_embedder import HttpEmbedder, WireFormat, probe_dimensions
from omoide.errors import BackendError

DEFAULT_OPENAI_URL = "https://api.openai.com/v1"


def _payload(model: str, batch: list[str]) -> dict[str, object]:
    return {"model": model, "input": [text if text else " " for text in batch]}


def _embeddings_in_index_order(answer: object, count: int, source: str) -> object:
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


OPENAI_MAX_INPUT_CHARS = 5000
"""OpenAI's models refuse an input over 8,192 tokens; 5,000 characters stay under it even
in Chinese or Japanese (up to ~1.5 tokens a character)."""
OPENAI_WIRE = WireFormat(
    name="openai",
    payload=_payload,
    embeddings=_embeddings_in_index_order,
    max_input_chars=OPENAI_MAX_INPUT_CHARS,
)


class OpenAIEmbedder(HttpEmbedder):
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
        super().__init__(
            model,
            wire=OPENAI_WIRE,
            endpoint=_endpoint(model, base_url, api_key, retry),
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
        base_url: str = DEFAULT_OPENAI_URL,
        api_key: str | None = None,
        batch_size: int = 64,
        timeout_seconds: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> OpenAIEmbedder:
        """Embed one probe text to learn (or, if given, verify) the model's dimensions."""
        endpoint = _endpoint(model, base_url, api_key, retry)
        found = await probe_dimensions(
            OPENAI_WIRE, endpoint, model, expected=dimensions, timeout_seconds=timeout_seconds
        )
        return cls(
            model,
            dimensions=found,
            base_url=base_url,
            api_key=api_key,
            batch_size=batch_size,
            timeout_seconds=timeout_seconds,
            retry=retry,
        )


def embeddings_url(base_url: str) -> str:
    """``{base_url}/v1/embeddings``, without doubling a ``/v1`` the base URL already has."""
    root = check_base_url(base_url, owner=OPENAI_WIRE.owner)
    if root.endswith("/v1"):
        return f"{root}/embeddings"
    return f"{root}/v1/embeddings"


def _endpoint(
    model: str, base_url: str, api_key: str | None, retry: RetryPolicy | None
) -> JsonEndpoint:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return JsonEndpoint(
        url=embeddings_url(base_url),
        description=f"openai embedder (model {check_model(model, owner=OPENAI_WIRE.owner)!r})",
        headers=headers,
        retry=retry if retry is not None else RetryPolicy(),
    )

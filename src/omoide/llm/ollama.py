"""Ollama's native chat API (``POST /api/chat``).

Non-streaming answers are one JSON object with ``message.content``; streaming answers are
newline-delimited JSON objects, each with a ``message.content`` delta, the last one marked
``"done": true``. ``json_mode`` sends ``"format": "json"``, which makes Ollama constrain the
output to valid JSON. A stream that ends without ``done`` is treated as cut short.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence

import httpx

from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.http_chat import ChatWire, HttpChatModel, sampling_fields
from omoide.llm.retry import DEFAULT_RETRY, RetryPolicy
from omoide.llm.transport import (
    HttpCall,
    check_base_url,
    decode_json,
    lookup,
    malformed,
    reported_failure,
    truncated_stream,
)

BACKEND = "ollama"
DEFAULT_BASE_URL = "http://localhost:11434"


def ollama_request_body(
    model: str, messages: Sequence[ChatMessage], options: ChatOptions, *, stream: bool
) -> dict[str, object]:
    body: dict[str, object] = {
        "model": model,
        "messages": [{"role": message.role, "content": message.content} for message in messages],
        "stream": stream,
        "options": {
            "temperature": options.temperature,
            "num_predict": options.max_tokens,
            **sampling_fields(options),
        },
    }
    if options.json_mode:
        body["format"] = "json"
    return body


def _reply_text(call: HttpCall, payload: object) -> str:
    _raise_reported_error(call, payload)
    content = lookup(payload, "message", "content")
    if not isinstance(content, str):
        raise malformed(call, "no message.content in the reply")
    return content


async def _stream_tokens(call: HttpCall, lines: AsyncIterator[str]) -> AsyncGenerator[str, None]:
    async for line in lines:
        if not line.strip():
            continue
        chunk = decode_json(call, line)
        _raise_reported_error(call, chunk)
        content = lookup(chunk, "message", "content")
        if isinstance(content, str) and content:
            yield content
        if lookup(chunk, "done") is True:
            return
    raise truncated_stream(call)


def _raise_reported_error(call: HttpCall, payload: object) -> None:
    error = lookup(payload, "error")
    if isinstance(error, str):
        raise reported_failure(call, error, retryable=False)


OLLAMA_WIRE = ChatWire(
    backend=BACKEND,
    request_body=ollama_request_body,
    reply_text=_reply_text,
    stream_tokens=_stream_tokens,
)


class OllamaChatModel(HttpChatModel):
    """A model served by Ollama. Pass ``client`` to share one httpx client between models."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        timeout_seconds: float = 60.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(
            model,
            wire=OLLAMA_WIRE,
            url=f"{check_base_url(base_url, backend=BACKEND)}/api/chat",
            headers={},
            timeout_seconds=timeout_seconds,
            retry=retry,
            client=client,
        )

"""Ollama's native chat API (``POST /api/chat``).

Non-streaming answers are one JSON object with ``message.content``; streaming answers are
newline-delimited JSON objects, each with a ``message.content`` delta, the last one marked
``"done": true``. ``json_mode`` sends ``"format": "json"``, which makes Ollama constrain the
output to valid JSON. A stream that ends without ``done`` is treated as cut short.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing

import httpx

from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.retry import DEFAULT_RETRY, RetryPolicy, call_with_retries, stream_with_retries
from omoide.llm.transport import (
    HttpCall,
    check_base_url,
    check_model_name,
    check_timeout,
    decode_json,
    lookup,
    malformed,
    post_json,
    reported_failure,
    stream_lines,
    truncated_stream,
)
from omoide.llm.validation import check_chat_request

BACKEND = "ollama"
DEFAULT_BASE_URL = "http://localhost:11434"


def ollama_request_body(
    model: str, messages: Sequence[ChatMessage], options: ChatOptions, *, stream: bool
) -> dict[str, object]:
    body: dict[str, object] = {
        "model": model,
        "messages": [{"role": message.role, "content": message.content} for message in messages],
        "stream": stream,
        "options": {"temperature": options.temperature, "num_predict": options.max_tokens},
    }
    if options.json_mode:
        body["format"] = "json"
    return body


class OllamaChatModel:
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
        self._model = check_model_name(model, backend=BACKEND)
        self._url = f"{check_base_url(base_url, backend=BACKEND)}/api/chat"
        self._timeout = check_timeout(timeout_seconds, backend=BACKEND)
        self._retry = retry
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient()

    @property
    def name(self) -> str:
        return f"{BACKEND}:{self._model}"

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str:
        call = self._call(messages, options, stream=False)
        payload = await call_with_retries(lambda: post_json(self._client, call), self._retry)
        error = lookup(payload, "error")
        if isinstance(error, str):
            raise reported_failure(call, error, retryable=False)
        content = lookup(payload, "message", "content")
        if not isinstance(content, str):
            raise malformed(call, "no message.content in the reply")
        return content

    async def stream(
        self, messages: Sequence[ChatMessage], options: ChatOptions
    ) -> AsyncIterator[str]:
        call = self._call(messages, options, stream=True)
        opened = stream_with_retries(lambda: self._stream_once(call), self._retry)
        async with aclosing(opened) as tokens:
            async for token in tokens:
                yield token

    async def aclose(self) -> None:
        """Close the HTTP client, unless it was passed in (its owner closes it)."""
        if self._owns_client:
            await self._client.aclose()

    def _call(
        self, messages: Sequence[ChatMessage], options: ChatOptions, *, stream: bool
    ) -> HttpCall:
        check_chat_request(messages, options)
        body = ollama_request_body(self._model, messages, options, stream=stream)
        return HttpCall(BACKEND, self._model, self._url, body, {}, self._timeout)

    async def _stream_once(self, call: HttpCall) -> AsyncGenerator[str, None]:
        async with aclosing(stream_lines(self._client, call)) as lines:
            async for line in lines:
                if not line.strip():
                    continue
                chunk = decode_json(call, line)
                error = lookup(chunk, "error")
                if isinstance(error, str):
                    raise reported_failure(call, error, retryable=False)
                content = lookup(chunk, "message", "content")
                if isinstance(content, str) and content:
                    yield content
                if lookup(chunk, "done") is True:
                    return
        raise truncated_stream(call)

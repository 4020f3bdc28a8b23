"""Any OpenAI-compatible chat server (``POST /v1/chat/completions``).

Works with OpenAI itself and with the many servers that copy its API (vLLM, llama.cpp's
server, LM Studio, OpenRouter, Ollama's ``/v1``). ``base_url`` may be given with or without
its ``/v1`` suffix. Non-streaming answers carry ``choices[0].message.content``; streams are
server-sent events whose ``data`` is a JSON chunk with ``choices[0].delta.content``, ending
with ``data: [DONE]``. A stream that ends with neither ``[DONE]`` nor a ``finish_reason``
is treated as cut short. ``json_mode`` sends ``response_format: {"type": "json_object"}``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing

import httpx

from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.retry import DEFAULT_RETRY, RetryPolicy, call_with_retries, stream_with_retries
from omoide.llm.sse import iter_sse_events
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

BACKEND = "openai"
DEFAULT_BASE_URL = "https://api.openai.com"
_DONE = "[DONE]"


def chat_completions_url(base_url: str) -> str:
    """The endpoint for a server root, a ``/v1`` root or the full endpoint URL."""
    root = check_base_url(base_url, backend=BACKEND)
    if root.endswith("/chat/completions"):
        return root
    if root.endswith("/v1"):
        return f"{root}/chat/completions"
    return f"{root}/v1/chat/completions"


def openai_request_body(
    model: str, messages: Sequence[ChatMessage], options: ChatOptions, *, stream: bool
) -> dict[str, object]:
    body: dict[str, object] = {
        "model": model,
        "messages": [{"role": message.role, "content": message.content} for message in messages],
        "max_tokens": options.max_tokens,
        "temperature": options.temperature,
        "stream": stream,
    }
    if options.json_mode:
        body["response_format"] = {"type": "json_object"}
    return body


class OpenAIChatModel:
    """A model behind an OpenAI-compatible API; ``api_key`` is sent as a bearer token."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._model = check_model_name(model, backend=BACKEND)
        self._url = chat_completions_url(base_url)
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
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
        _raise_reported_error(call, payload)
        content = lookup(payload, "choices", 0, "message", "content")
        if not isinstance(content, str):
            raise malformed(call, "no text in choices[0].message.content")
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
        body = openai_request_body(self._model, messages, options, stream=stream)
        return HttpCall(BACKEND, self._model, self._url, body, self._headers, self._timeout)

    async def _stream_once(self, call: HttpCall) -> AsyncGenerator[str, None]:
        finished = False
        lines = stream_lines(self._client, call)
        async with aclosing(lines), aclosing(iter_sse_events(lines)) as events:
            async for event in events:
                if event.data.strip() == _DONE:
                    return
                chunk = decode_json(call, event.data)
                _raise_reported_error(call, chunk)
                content = lookup(chunk, "choices", 0, "delta", "content")
                if isinstance(content, str) and content:
                    yield content
                finished = finished or lookup(chunk, "choices", 0, "finish_reason") is not None
        if not finished:
            raise truncated_stream(call)


def _raise_reported_error(call: HttpCall, payload: object) -> None:
    error = lookup(payload, "error")
    if error is None:
        return
    detail = lookup(error, "message")
    raise reported_failure(call, detail if isinstance(detail, str) else str(error), retryable=False)

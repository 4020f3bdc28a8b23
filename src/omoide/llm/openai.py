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
from omoide.llm.http_chat import ChatWire, HttpChatModel, sampling_fields
from omoide.llm.retry import DEFAULT_RETRY, RetryPolicy
from omoide.llm.sse import iter_sse_events
from omoide.llm.transport import (
    HttpCall,
    check_base_url,
    decode_json,
    lookup,
    malformed,
    reported_failure,
    truncated_stream,
)

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
    body.update(sampling_fields(options))
    return body


def _reply_text(call: HttpCall, payload: object) -> str:
    _raise_reported_error(call, payload)
    content = lookup(payload, "choices", 0, "message", "content")
    if not isinstance(content, str):
        raise malformed(call, "no text in choices[0].message.content")
    return content


async def _stream_tokens(call: HttpCall, lines: AsyncIterator[str]) -> AsyncGenerator[str, None]:
    finished = False
    async with aclosing(iter_sse_events(lines)) as events:
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


OPENAI_WIRE = ChatWire(
    backend=BACKEND,
    request_body=openai_request_body,
    reply_text=_reply_text,
    stream_tokens=_stream_tokens,
)


class OpenAIChatModel(HttpChatModel):
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
        super().__init__(
            model,
            wire=OPENAI_WIRE,
            url=chat_completions_url(base_url),
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
            timeout_seconds=timeout_seconds,
            retry=retry,
            client=client,
        )

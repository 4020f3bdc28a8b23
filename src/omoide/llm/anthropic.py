"""Anthropic's Messages API (``POST /v1/messages``).

System messages are concatenated (blank line between) into the top-level ``system`` field;
the other messages go in ``messages``. If a request holds only system messages, their text
is sent as the single user message instead, since the API needs at least one message.
Non-streaming answers are the ``text`` of every text block of ``content``, joined.
Streams are server-sent events: ``content_block_delta`` events carry ``text_delta`` deltas,
``message_stop`` ends the message, and ``error`` events report failures mid-stream
(``overloaded_error`` and ``api_error`` count as unavailable, the rest as errors).

The API has no JSON flag, so ``json_mode`` appends :data:`JSON_INSTRUCTION` to the system
text; :func:`omoide.llm.json_reply.complete_json` still extracts and validates the reply.
Temperatures are clamped to the API's range [0, 1].
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing

import httpx

from omoide.errors import BackendError
from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.http_chat import ChatWire, HttpChatModel
from omoide.llm.retry import DEFAULT_RETRY, RetryPolicy
from omoide.llm.sse import SseEvent, iter_sse_events
from omoide.llm.transport import (
    HttpCall,
    check_base_url,
    decode_json,
    lookup,
    malformed,
    reported_failure,
    truncated_stream,
)

BACKEND = "anthropic"
DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
JSON_INSTRUCTION = (
    "Answer with a single valid JSON value only: no prose before or after it, "
    "no markdown code fences."
)
_RETRYABLE_ERROR_TYPES = frozenset({"overloaded_error", "api_error"})


def anthropic_request_body(
    model: str, messages: Sequence[ChatMessage], options: ChatOptions, *, stream: bool
) -> dict[str, object]:
    system_parts = [message.content for message in messages if message.role == "system"]
    if options.json_mode:
        system_parts.append(JSON_INSTRUCTION)
    system = "\n\n".join(part for part in system_parts if part)
    turns = [
        {"role": message.role, "content": message.content}
        for message in messages
        if message.role != "system"
    ]
    if not turns:
        turns, system = [{"role": "user", "content": system}], ""
    body: dict[str, object] = {
        "model": model,
        "max_tokens": options.max_tokens,
        "temperature": min(max(options.temperature, 0.0), 1.0),
        "messages": turns,
        "stream": stream,
    }
    if system:
        body["system"] = system
    if options.top_p is not None:
        body["top_p"] = options.top_p
    if options.stop:
        body["stop_sequences"] = list(options.stop)
    return body


def _reply_text(call: HttpCall, payload: object) -> str:
    if lookup(payload, "type") == "error":
        raise _error_event(call, payload)
    blocks = lookup(payload, "content")
    if not isinstance(blocks, list):
        raise malformed(call, "no content blocks in the reply")
    texts = [lookup(block, "text") for block in blocks if lookup(block, "type") == "text"]
    return "".join(text for text in texts if isinstance(text, str))


async def _stream_tokens(call: HttpCall, lines: AsyncIterator[str]) -> AsyncGenerator[str, None]:
    async with aclosing(iter_sse_events(lines)) as events:
        async for event in events:
            payload = decode_json(call, event.data)
            kind = _event_type(event, payload)
            if kind == "error":
                raise _error_event(call, payload)
            if kind == "message_stop":
                return
            text = _delta_text(payload) if kind == "content_block_delta" else ""
            if text:
                yield text
    raise truncated_stream(call)


def _event_type(event: SseEvent, payload: object) -> str:
    kind = lookup(payload, "type")
    return kind if isinstance(kind, str) else event.event


def _delta_text(payload: object) -> str:
    """The text of a ``text_delta``; other deltas (tool input, thinking) are not reply text."""
    text = lookup(payload, "delta", "text")
    if lookup(payload, "delta", "type") == "text_delta" and isinstance(text, str):
        return text
    return ""


def _error_event(call: HttpCall, payload: object) -> BackendError:
    error_type = lookup(payload, "error", "type")
    message = lookup(payload, "error", "message")
    detail = f"{error_type}: {message}" if isinstance(message, str) else str(payload)
    return reported_failure(call, detail, retryable=error_type in _RETRYABLE_ERROR_TYPES)


ANTHROPIC_WIRE = ChatWire(
    backend=BACKEND,
    request_body=anthropic_request_body,
    reply_text=_reply_text,
    stream_tokens=_stream_tokens,
)


class AnthropicChatModel(HttpChatModel):
    """A Claude model; ``api_key`` is sent as ``x-api-key`` (omit it for keyless proxies)."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str = DEFAULT_BASE_URL,
        timeout_seconds: float = 60.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        headers = {"anthropic-version": API_VERSION}
        if api_key:
            headers["x-api-key"] = api_key
        super().__init__(
            model,
            wire=ANTHROPIC_WIRE,
            url=f"{check_base_url(base_url, backend=BACKEND)}/v1/messages",
            headers=headers,
            timeout_seconds=timeout_seconds,
            retry=retry,
            client=client,
        )

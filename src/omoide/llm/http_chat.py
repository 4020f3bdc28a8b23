"""One chat model over an HTTP chat API, whatever its wire format.

:class:`HttpChatModel` owns the client, the retries and the streaming; a :class:`ChatWire`
says how one API spells a request, where its answer keeps the reply text and how its
stream carries tokens. :class:`~omoide.llm.ollama.OllamaChatModel`,
:class:`~omoide.llm.openai.OpenAIChatModel` and
:class:`~omoide.llm.anthropic.AnthropicChatModel` only choose a wire format, a URL and
headers. Errors are translated in :mod:`omoide.llm.transport`.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Protocol

import httpx

from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.retry import DEFAULT_RETRY, RetryPolicy, call_with_retries, stream_with_retries
from omoide.llm.transport import (
    HttpCall,
    check_model_name,
    check_timeout,
    post_json,
    stream_lines,
)
from omoide.llm.validation import check_chat_request


def sampling_fields(options: ChatOptions) -> dict[str, object]:
    """``top_p``, ``stop`` and ``seed`` under their OpenAI names, those that are set
    (Ollama's ``options`` use the same names)."""
    fields: dict[str, object] = {"top_p": options.top_p, "seed": options.seed}
    if options.stop:
        fields["stop"] = list(options.stop)
    return {name: value for name, value in fields.items() if value is not None}


class RequestBody(Protocol):
    """Builds the JSON body of one chat request."""

    def __call__(
        self, model: str, messages: Sequence[ChatMessage], options: ChatOptions, *, stream: bool
    ) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class ChatWire:
    """How one HTTP chat API spells a request, its answer and its stream.

    ``reply_text`` takes a decoded non-streaming answer to its text; ``stream_tokens``
    takes the lines of a streamed answer to its tokens, raising when the stream reports an
    error or ends before saying it is done.
    """

    backend: str
    request_body: RequestBody
    reply_text: Callable[[HttpCall, object], str]
    stream_tokens: Callable[[HttpCall, AsyncIterator[str]], AsyncGenerator[str, None]]


class HttpChatModel:
    """A model behind an HTTP chat API. Pass ``client`` to share one httpx client."""

    def __init__(
        self,
        model: str,
        *,
        wire: ChatWire,
        url: str,
        headers: Mapping[str, str],
        timeout_seconds: float = 60.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._model = check_model_name(model, backend=wire.backend)
        self._wire = wire
        self._url = url
        self._headers = dict(headers)
        self._timeout = check_timeout(timeout_seconds, backend=wire.backend)
        self._retry = retry
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient()

    @property
    def name(self) -> str:
        return f"{self._wire.backend}:{self._model}"

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str:
        call = self._call(messages, options, stream=False)
        payload = await call_with_retries(lambda: post_json(self._client, call), self._retry)
        return self._wire.reply_text(call, payload)

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
        body = self._wire.request_body(self._model, messages, options, stream=stream)
        return HttpCall(
            self._wire.backend, self._model, self._url, body, self._headers, self._timeout
        )

    async def _stream_once(self, call: HttpCall) -> AsyncGenerator[str, None]:
        lines = stream_lines(self._client, call)
        async with aclosing(lines), aclosing(self._wire.stream_tokens(call, lines)) as tokens:
            async for token in tokens:
                yield token

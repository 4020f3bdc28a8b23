"""A deterministic chat model that ships in the package, for tests and demos.

Each call takes its reply from, in order:

1. the queue of scripted replies (constructor ``replies``, then :meth:`enqueue`); a queued
   :class:`~omoide.errors.OmoideError` is raised for that call instead of answering;
2. the ``responder`` function, called with the messages;
3. ``default_reply``.

A model built with none of the three answers with :func:`demo_reply`: the offline demo
model. It answers omoide's stream tasks (diary entry, identity proposal, viewer summary)
with valid output built from their prompts and labelled as scripted, any other request
for JSON with empty JSON, and chat with an in-character line with an ``[EMOTION:...]``
tag (see :mod:`omoide.llm.demo_replies`). A model built with a
script but no fallback raises :class:`~omoide.errors.BackendError` once the script runs
out, so a test notices an unexpected extra call.

Replies are plain strings returned as they are, so a script can hold invalid JSON on
purpose. Streams yield the reply word by word (CJK text character by character), with an
optional pause between pieces so streaming is visible in a demo. Every call is recorded
with its messages and options, and approximate token counts are kept.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass

import anyio

from omoide.errors import BackendError, InvalidInput, OmoideError
from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.chunking import estimate_tokens, stream_chunks
from omoide.llm.demo_replies import asks_for_json, character_reply, empty_json_reply
from omoide.llm.demo_tasks import task_reply
from omoide.llm.validation import check_chat_request

ScriptItem = str | OmoideError
Responder = Callable[[Sequence[ChatMessage]], str]


def demo_reply(messages: Sequence[ChatMessage], options: ChatOptions) -> str:
    """The scripted model's reply when it was given no script at all."""
    answer = task_reply(messages)
    if answer is not None:
        return answer
    if options.json_mode or asks_for_json(messages):
        return empty_json_reply(messages)
    return character_reply(messages)


@dataclass(frozen=True, slots=True)
class ChatCall:
    """One request the scripted model received, and what it answered."""

    messages: tuple[ChatMessage, ...]
    options: ChatOptions
    streamed: bool
    reply: str | None
    """``None`` when the script raised an error for this call."""

    @property
    def system_prompt(self) -> str:
        """The system messages' text, joined by blank lines (what shaped the character)."""
        return "\n\n".join(m.content for m in self.messages if m.role == "system")

    @property
    def last_user_message(self) -> str | None:
        return next((m.content for m in reversed(self.messages) if m.role == "user"), None)


class ScriptedChatModel:
    """A :class:`~omoide.llm.base.ChatModel` that answers from a script."""

    def __init__(
        self,
        replies: Iterable[ScriptItem] = (),
        *,
        responder: Responder | None = None,
        default_reply: str | None = None,
        name: str = "scripted",
        chunk_delay_seconds: float = 0.0,
    ) -> None:
        self._queue: deque[ScriptItem] = deque(_checked_item(item) for item in replies)
        self._responder = responder
        self._default_reply = default_reply
        self._use_demo = not self._queue and responder is None and default_reply is None
        self._name = name
        if not chunk_delay_seconds >= 0:
            raise InvalidInput("chunk_delay_seconds must be >= 0")
        self._chunk_delay = chunk_delay_seconds
        self._calls: list[ChatCall] = []
        self._tokens_in = 0
        self._tokens_out = 0

    @property
    def name(self) -> str:
        return self._name

    @property
    def calls(self) -> tuple[ChatCall, ...]:
        return tuple(self._calls)

    @property
    def last_call(self) -> ChatCall:
        if not self._calls:
            raise BackendError(f"{self._name} has not been called yet")
        return self._calls[-1]

    @property
    def call_count(self) -> int:
        return len(self._calls)

    @property
    def tokens_in(self) -> int:
        """Approximate tokens of every message received."""
        return self._tokens_in

    @property
    def tokens_out(self) -> int:
        """Approximate tokens of every reply given."""
        return self._tokens_out

    @property
    def remaining(self) -> int:
        """Scripted replies not yet used."""
        return len(self._queue)

    def enqueue(self, *replies: ScriptItem) -> None:
        """Add replies (or errors to raise) to the end of the script."""
        self._queue.extend(_checked_item(item) for item in replies)

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str:
        reply = self._answer(messages, options, streamed=False)
        await anyio.lowlevel.checkpoint()
        return reply

    async def stream(
        self, messages: Sequence[ChatMessage], options: ChatOptions
    ) -> AsyncIterator[str]:
        reply = self._answer(messages, options, streamed=True)
        for chunk in stream_chunks(reply):
            if self._chunk_delay:
                await anyio.sleep(self._chunk_delay)
            else:
                await anyio.lowlevel.checkpoint()
            yield chunk

    async def aclose(self) -> None:
        """Nothing to release; present so callers can close any chat model alike."""

    def _answer(
        self, messages: Sequence[ChatMessage], options: ChatOptions, *, streamed: bool
    ) -> str:
        check_chat_request(messages, options)
        item = self._next_item(messages, options)
        reply = item if isinstance(item, str) else None
        self._calls.append(ChatCall(tuple(messages), options, streamed, reply))
        self._tokens_in += sum(estimate_tokens(message.content) for message in messages)
        if isinstance(item, OmoideError):
            raise item
        self._tokens_out += estimate_tokens(item)
        return item

    def _next_item(self, messages: Sequence[ChatMessage], options: ChatOptions) -> ScriptItem:
        if self._queue:
            return self._queue.popleft()
        if self._responder is not None:
            return _checked_reply(self._responder(messages))
        if self._default_reply is not None:
            return self._default_reply
        if self._use_demo:
            return demo_reply(messages, options)
        return BackendError(f"{self._name} ran out of scripted replies")


def _checked_item(item: ScriptItem) -> ScriptItem:
    if isinstance(item, str | OmoideError):
        return item
    raise InvalidInput(f"a script item must be a string or an OmoideError (got {item!r})")


def _checked_reply(reply: str) -> str:
    if not isinstance(reply, str):
        raise InvalidInput(f"a responder must return a string (got {type(reply).__name__})")
    return reply

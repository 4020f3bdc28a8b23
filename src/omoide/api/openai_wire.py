"""OpenAI's Chat Completions shapes: the request read into a chat turn, the reply written back.

What a request may carry: ``system`` (or ``developer``), ``user`` and ``assistant``
messages whose content is a string or text parts. Tool definitions, tool calls, tool
results, images, audio and files are refused with a 400 that names them, never dropped.
Sampling parameters ``temperature``, ``top_p``, ``max_tokens`` (or
``max_completion_tokens``), ``stop`` and ``seed`` are passed to the upstream model; other
fields OpenAI defines that change nothing about the reply's content (``stream_options``,
``presence_penalty``, ``frequency_penalty``, ``logit_bias``, ``metadata``, ...) are
accepted and ignored, as many OpenAI-compatible servers do.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from omoide.chat.client import ClientHistory, Sampling
from omoide.chat.conversation import MAX_CHAT_MESSAGE_CHARS, ChatRequest, DoneEvent
from omoide.errors import InvalidInput
from omoide.llm.base import ChatMessage, Role
from omoide.llm.validation import MAX_STOP_SEQUENCES

MAX_MESSAGES = 1000
SESSION_ID = "openai"
"""The session recorded with turns that come through this endpoint (the client keeps the
conversation, so there is no session of ours)."""
_ROLES: dict[str, Role] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
}
_REFUSED_FIELDS = ("tools", "tool_choice", "functions", "function_call", "audio", "prediction")


class TextPart(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: str
    text: str | None = None


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="allow")

    role: str
    content: str | list[TextPart] | None = None
    name: str | None = None
    tool_calls: list[Any] | None = None


class CompletionBody(BaseModel):
    """A Chat Completions request; ``model`` is a character id."""

    model_config = ConfigDict(extra="allow")

    model: str = Field(min_length=1, examples=["haru"])
    messages: list[MessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool = False
    user: str | None = Field(default=None, description="The viewer id (else X-Omoide-User)")
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    stop: str | list[str] | None = None
    seed: int | None = None
    n: int | None = Field(default=None, ge=1)
    response_format: dict[str, Any] | None = None


def chat_request(body: CompletionBody, user_id: str) -> ChatRequest:
    """The chat turn a request asks for; InvalidInput for what omoide cannot pass on."""
    _refuse_unsupported(body)
    messages = [_message(position, message) for position, message in enumerate(body.messages)]
    users = [position for position, message in enumerate(messages) if message.role == "user"]
    if not users:
        raise InvalidInput("messages: no user message (the last user message is the turn)")
    last = users[-1]
    turn = messages[last].content
    if len(turn) > MAX_CHAT_MESSAGE_CHARS:
        raise InvalidInput(f"messages[{last}] is longer than {MAX_CHAT_MESSAGE_CHARS} characters")
    return ChatRequest(
        body.model,
        user_id,
        _viewer_name(body.messages[last], user_id),
        SESSION_ID,
        turn,
        client=ClientHistory(tuple(messages[:last]), tuple(messages[last + 1 :])),
        sampling=_sampling(body),
    )


def _refuse_unsupported(body: CompletionBody) -> None:
    extra = body.model_extra or {}
    for name in _REFUSED_FIELDS:
        if extra.get(name) not in (None, [], {}):
            raise InvalidInput(
                f"{name}: omoide does not support tools (tool and function calling are "
                "refused, never dropped); send the request without them"
            )
    if body.n not in (None, 1):
        raise InvalidInput("n: omoide answers with exactly one choice")
    if body.response_format and body.response_format.get("type") != "text":
        raise InvalidInput("response_format: only plain text replies are supported")


def _message(position: int, message: MessageIn) -> ChatMessage:
    where = f"messages[{position}]"
    role = _ROLES.get(message.role)
    if role is None:
        raise InvalidInput(
            f"{where}.role {message.role!r} is not supported: tool and function messages "
            "are refused (omoide passes on system, developer, user and assistant messages)"
        )
    if message.tool_calls:
        raise InvalidInput(f"{where}.tool_calls: omoide does not support tools (tool calls)")
    return ChatMessage(role, _text(where, message.content))


def _text(where: str, content: str | list[TextPart] | None) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    pieces = []
    for index, part in enumerate(content):
        if part.type != "text" or part.text is None:
            raise InvalidInput(
                f"{where}.content[{index}] is of type {part.type!r}: omoide passes on text "
                "only (images, audio and files are refused)"
            )
        pieces.append(part.text)
    return "".join(pieces)


def _viewer_name(message: MessageIn, user_id: str) -> str:
    return message.name.strip() if message.name and message.name.strip() else user_id


def _sampling(body: CompletionBody) -> Sampling:
    stop = [body.stop] if isinstance(body.stop, str) else body.stop
    if stop is not None and len(stop) > MAX_STOP_SEQUENCES:
        raise InvalidInput(f"stop takes at most {MAX_STOP_SEQUENCES} sequences")
    return Sampling(
        max_tokens=body.max_completion_tokens or body.max_tokens,
        temperature=body.temperature,
        top_p=body.top_p,
        stop=tuple(stop) if stop is not None else None,
        seed=body.seed,
    )


# --- what goes back -------------------------------------------------------------------
class Reply:
    """The identity one reply shows in every chunk: id, creation time, model."""

    def __init__(self, model: str, created: datetime) -> None:
        self.id = f"chatcmpl-{uuid.uuid4().hex}"
        self.created = int(created.timestamp())
        self.model = model

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def chunk(
        self, delta: dict[str, str], finish_reason: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        return {**self._head("chat.completion.chunk"), "choices": [choice], **extra}

    def completion(self, text: str, done: DoneEvent) -> dict[str, Any]:
        message = {"role": "assistant", "content": text}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return {**self._head("chat.completion"), "choices": [choice], "omoide": outcome(done)}


def outcome(done: DoneEvent) -> dict[str, Any]:
    """omoide's own account of the turn, beside OpenAI's fields (clients ignore it)."""
    return {
        "turn_id": done.turn_id,
        "emotion": done.emotion,
        "memories_used": done.memories_used,
        "fact_ids": list(done.fact_ids),
        "episode_ids": list(done.episode_ids),
    }


class ModelOut(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = "omoide"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelOut]

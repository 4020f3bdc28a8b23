"""Chat over server-sent events: recall, stream the reply, queue the turn durably."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from omoide.api.dependencies import CallerDep, ConversationDep
from omoide.api.errors import ERROR_RESPONSES, NOT_FOUND
from omoide.api.schemas import ChatBody
from omoide.chat.conversation import (
    ChatEvent,
    ChatRequest,
    Conversation,
    DoneEvent,
    PreparedChat,
    TokenEvent,
)
from omoide.errors import BackendUnavailable, OmoideError

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/chat", tags=["chat"])

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class TokenEventOut(BaseModel):
    type: Literal["token"] = "token"
    content: str = Field(description="Visible reply text; emotion tags are removed")


class DoneEventOut(BaseModel):
    type: Literal["done"] = "done"
    emotion: str
    intimacy_level: float
    memories_used: int
    fact_ids: list[str] = Field(description="Facts that were in the prompt")
    episode_ids: list[str] = Field(description="Episodes that were in the prompt")
    turn_id: str | None = Field(description="The queued turn; its episode id once stored")


class ErrorEventOut(BaseModel):
    type: Literal["error"] = "error"
    message: str
    retryable: bool
    turn_id: str | None = Field(
        default=None, description="The viewer's message, queued to be remembered without a reply"
    )


def event_view(event: ChatEvent) -> TokenEventOut | DoneEventOut | ErrorEventOut:
    if isinstance(event, TokenEvent):
        return TokenEventOut(content=event.content)
    if isinstance(event, DoneEvent):
        return DoneEventOut(
            emotion=event.emotion,
            intimacy_level=event.intimacy_level,
            memories_used=event.memories_used,
            fact_ids=list(event.fact_ids),
            episode_ids=list(event.episode_ids),
            turn_id=event.turn_id,
        )
    return ErrorEventOut(message=event.message, retryable=event.retryable, turn_id=event.turn_id)


def sse_line(event: BaseModel) -> str:
    return f"data: {event.model_dump_json()}\n\n"


async def event_stream(conversation: Conversation, prepared: PreparedChat) -> AsyncIterator[str]:
    """The reply's events as SSE lines; a failure after the stream began ends it with an
    error event (the status line has long been sent)."""
    try:
        async for event in conversation.stream(prepared):
            yield sse_line(event_view(event))
    except OmoideError as exc:
        logger.warning("chat for %s failed mid-stream: %s", prepared.request.scope, exc)
        retryable = isinstance(exc, BackendUnavailable)
        yield sse_line(ErrorEventOut(message=f"the reply failed: {exc}", retryable=retryable))


_EXAMPLE_STREAM = (
    'data: {"type":"token","content":"와, 진짜요?!"}\n\n'
    'data: {"type":"done","emotion":"excited","intimacy_level":0.12,"memories_used":1,'
    '"fact_ids":["3f2a..."],"episode_ids":[],"turn_id":"9c1e..."}\n\n'
)


@router.post(
    "/stream",
    response_class=StreamingResponse,
    summary="Chat with a character; the reply streams as server-sent events",
    responses={
        200: {
            "description": (
                "`text/event-stream` of `data: {json}` lines: `token` events, then one `done` "
                "event, or an `error` event (with `retryable`) if the model failed."
            ),
            "content": {"text/event-stream": {"example": _EXAMPLE_STREAM}},
        },
        **ERROR_RESPONSES,
        **NOT_FOUND,
    },
)
async def chat_stream(
    body: ChatBody, caller: CallerDep, conversation: ConversationDep
) -> StreamingResponse:
    """Memories are recalled before the reply (if recall fails the reply still comes,
    without them). The exchange is queued durably before the ``done`` event and stored in
    the background, so the reply never waits for the memory write. Errors found before
    streaming (unknown character 404, bad input 422, no model 503) are ordinary JSON."""
    caller.authorize(body.character_id)
    request = ChatRequest(
        body.character_id, body.user_id, body.user_name, body.session_id, body.message
    )
    prepared = await conversation.prepare(request)
    return StreamingResponse(
        event_stream(conversation, prepared), media_type="text/event-stream", headers=SSE_HEADERS
    )

"""An OpenAI-compatible base URL (``http://HOST:PORT/v1``): characters are the models.

``POST /v1/chat/completions`` is the same chat turn as ``POST /v1/chat/stream`` (one
:class:`~omoide.chat.conversation.Conversation`: recall, prompt, stream, queue the turn),
read from and written in OpenAI's Chat Completions shapes. The viewer is the request's
``user``, else the ``X-Omoide-User`` header, else ``OMOIDE_DEFAULT_VIEWER``. Keys and their
401/403 rules are the rest of the API's; errors are in OpenAI's shape
(:mod:`omoide.api.openai_errors`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Response
from fastapi.responses import JSONResponse, StreamingResponse

from omoide.api.dependencies import (
    CallerDep,
    ConversationDep,
    ServiceDep,
    allowed_characters,
    check_character,
)
from omoide.api.openai_errors import OPENAI_ERRORS, OpenAIRoute, error_body, upstream_failure
from omoide.api.openai_wire import CompletionBody, ModelList, ModelOut, Reply, chat_request, outcome
from omoide.api.routes_chat import SSE_HEADERS
from omoide.chat.conversation import ChatEvent, DoneEvent, ErrorEvent, TokenEvent
from omoide.domain import check_identifier
from omoide.errors import OmoideError

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/v1", tags=["openai"], route_class=OpenAIRoute, responses=OPENAI_ERRORS)

DONE_LINE = "data: [DONE]\n\n"
UserHeader = Annotated[
    str | None, Header(alias="X-Omoide-User", description="The viewer, if `user` is not set")
]


@router.get("/models", summary="The characters this key may use, as OpenAI models")
async def list_models(caller: CallerDep, service: ServiceDep) -> ModelList:
    return ModelList(data=[ModelOut(id=each) for each in await allowed_characters(caller, service)])


@router.get("/models/{model}", summary="One character, as an OpenAI model")
async def get_model(model: str, caller: CallerDep, service: ServiceDep) -> ModelOut:
    await check_character(model, caller, service)
    return ModelOut(id=model)


@router.post("/chat/completions", summary="Chat with a character, in OpenAI's shape")
async def chat_completions(
    body: CompletionBody,
    caller: CallerDep,
    service: ServiceDep,
    conversation: ConversationDep,
    user_header: UserHeader = None,
) -> Response:
    """``model`` is a character id. The last user message is the turn; the messages before
    it are the short-term memory, any after it (a frontend's closing instructions) follow
    it unchanged. A client system message is kept and the memory section is added to it;
    without one, the character's own system prompt is used. The reply streams as the
    upstream model produces it; the exchange is queued durably and stored afterwards."""
    await check_character(body.model, caller, service)
    viewer = body.user or user_header or service.built.settings.default_viewer
    request = chat_request(body, check_identifier(viewer, name="user"))
    prepared = await conversation.prepare(request)
    events = conversation.stream(prepared)
    first = await anext(events)
    if isinstance(first, ErrorEvent):
        await events.aclose()
        return upstream_failure(first.message)
    reply = Reply(body.model, prepared.now)
    if body.stream:
        chunks = _chunks(reply, _chained(first, events))
        return StreamingResponse(chunks, media_type="text/event-stream", headers=SSE_HEADERS)
    return await _completion(reply, _chained(first, events))


async def _chained(first: ChatEvent, rest: AsyncIterator[ChatEvent]) -> AsyncIterator[ChatEvent]:
    yield first
    async for event in rest:
        yield event


async def _completion(reply: Reply, events: AsyncIterator[ChatEvent]) -> Response:
    pieces: list[str] = []
    async for event in events:
        if isinstance(event, TokenEvent):
            pieces.append(event.content)
        elif isinstance(event, DoneEvent):
            return JSONResponse(reply.completion("".join(pieces), event))
        else:
            return upstream_failure(event.message)
    return upstream_failure("the reply ended without an outcome")


async def _chunks(reply: Reply, events: AsyncIterator[ChatEvent]) -> AsyncIterator[str]:
    """``chat.completion.chunk`` events, then ``[DONE]``; a failure after the first token
    ends the stream cleanly with an error chunk (the 200 has long been sent)."""
    yield _line(reply.chunk({"role": "assistant", "content": ""}))
    try:
        async for event in events:
            if isinstance(event, TokenEvent):
                yield _line(reply.chunk({"content": event.content}))
            elif isinstance(event, DoneEvent):
                yield _line(reply.chunk({}, "stop", omoide=outcome(event)))
            else:
                yield _line(error_body(502, event.message))
    except OmoideError as exc:
        logger.warning("an OpenAI-compatible reply failed mid-stream: %s", exc)
        yield _line(error_body(502, f"the reply failed: {exc}"))
    yield DONE_LINE


def _line(payload: dict[str, Any]) -> str:
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"

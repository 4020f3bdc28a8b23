"""omoide's memory as MCP tools, built on the official ``mcp`` SDK.

Every tool takes ``character_id`` and ``user_id`` and calls the same library use case the
HTTP API and the CLI call (:class:`~omoide.memory.manager.MemoryManager`), with the API's
request bodies checking the arguments and the API's views shaping the answers, so a tool's
result is the JSON the matching endpoint returns. Which omoide serves a call, and whether
its caller may touch the character, is a :class:`ToolAccess`: everything for ``omoide mcp``
over stdio, the API key's characters at ``/mcp`` on the service.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, Protocol

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from omoide.api.mcp import forgetting
from omoide.api.schemas import ContextBody, FactPatch, SearchBody, TurnBody
from omoide.api.views import ContextOut, FactOut, SearchOut, TombstoneOut, TurnOut
from omoide.api.views_profile import ProfileOut
from omoide.domain import Scope
from omoide.errors import InvalidInput, OmoideError
from omoide.wiring import Omoide

INSTRUCTIONS = (
    "Long-term memory of AI characters about each viewer. Every tool takes character_id "
    "and user_id. remember stores an exchange; recall builds the memory section a reply "
    "would get; search ranks memories with their scores; profile, list_facts, correct_fact "
    "and delete_fact read and fix what the character believes; forget_viewer erases a "
    "viewer and needs confirm=true."
)
Json = dict[str, Any]
P = ParamSpec("P")


class ToolAccess(Protocol):
    """The omoide a tool call uses, once its caller may touch ``character_id`` (raises
    AccessDenied or NotFound otherwise). ``request`` is the transport's request: the HTTP
    request at ``/mcp``, ``None`` over stdio."""

    async def omoide_for(self, request: object | None, character_id: str) -> Omoide: ...


def _reported(tool: Callable[P, Awaitable[Json]]) -> Callable[P, Awaitable[Json]]:
    """Our errors reach the client with their message (the SDK withholds the text of
    any exception but its own ToolError)."""

    @functools.wraps(tool)
    async def run(*args: P.args, **kwargs: P.kwargs) -> Json:
        try:
            return await tool(*args, **kwargs)
        except (OmoideError, ValidationError) as exc:
            raise ToolError(str(exc)) from exc

    return run


def build_mcp_server(access: ToolAccess) -> MCPServer:
    """An MCP server whose tools reach memory through ``access``."""
    server = MCPServer("omoide", instructions=INSTRUCTIONS)

    async def opened(ctx: Context, character_id: str, user_id: str) -> tuple[Omoide, Scope]:
        built = await access.omoide_for(ctx.request_context.request, character_id)
        return built, Scope(character_id, user_id)

    @server.tool()
    @_reported
    async def remember(
        character_id: str,
        user_id: str,
        text: str,
        ctx: Context,
        reply: str = "",
        time: str | None = None,
        name: str | None = None,
    ) -> Json:
        """Store one exchange: what the viewer said (text), optionally the character's reply,
        when it was said (ISO 8601 with an offset; default now) and the name the viewer
        goes by (kept with its history; the page shows it)."""
        built, scope = await opened(ctx, character_id, user_id)
        body = TurnBody.model_validate(
            {"user_message": text, "bot_message": reply, "timestamp": time, "user_name": name}
        )
        stored = await built.memory.remember(body.to_turn(scope, now=built.memory.clock.now()))
        return TurnOut.of(stored).model_dump(mode="json")

    @server.tool()
    @_reported
    async def recall(character_id: str, user_id: str, query: str, ctx: Context) -> Json:
        """The memory section a reply to query would get, and the memories it was built from."""
        built, scope = await opened(ctx, character_id, user_id)
        body = ContextBody.model_validate({"query": query})
        recollection = await built.memory.retrieve_context(scope, body.query)
        return ContextOut.of(recollection).model_dump(mode="json")

    @server.tool()
    @_reported
    async def search(
        character_id: str, user_id: str, query: str, ctx: Context, limit: int = 10
    ) -> Json:
        """Memories ranked for query, each with the relevance, recency and importance scores."""
        built, scope = await opened(ctx, character_id, user_id)
        body = SearchBody.model_validate({"query": query, "k": limit})
        found = await built.memory.search(scope, body.query, limit=body.k)
        return SearchOut.of(found, limit=body.k).model_dump(mode="json")

    @server.tool()
    @_reported
    async def profile(character_id: str, user_id: str, ctx: Context) -> Json:
        """What the viewer has told about themselves, as the prompt carries it."""
        built, scope = await opened(ctx, character_id, user_id)
        return ProfileOut.of(await built.memory.profile(scope)).model_dump(mode="json")

    @server.tool()
    @_reported
    async def list_facts(character_id: str, user_id: str, ctx: Context) -> Json:
        """The facts the character currently believes about the viewer."""
        built, scope = await opened(ctx, character_id, user_id)
        facts = await built.memory.list_facts(scope)
        return {"facts": [FactOut.of(fact).model_dump(mode="json") for fact in facts]}

    @server.tool()
    @_reported
    async def correct_fact(
        character_id: str, user_id: str, fact_id: str, text: str, ctx: Context
    ) -> Json:
        """Replace a fact's text (the old version is kept, closed); returns the current fact."""
        built, scope = await opened(ctx, character_id, user_id)
        patch = FactPatch.model_validate({"text": text})
        fact = await built.memory.correct_fact(scope, fact_id, text=patch.text)
        return FactOut.of(fact).model_dump(mode="json")

    @server.tool()
    @_reported
    async def delete_fact(character_id: str, user_id: str, fact_id: str, ctx: Context) -> Json:
        """Delete a fact for good (a tombstone without its words remains)."""
        built, scope = await opened(ctx, character_id, user_id)
        return TombstoneOut.of(await built.memory.delete_fact(scope, fact_id)).model_dump(
            mode="json"
        )

    @server.tool()
    @_reported
    async def forget_viewer(character_id: str, user_id: str, confirm: bool, ctx: Context) -> Json:
        """Erase everything the character remembers about the viewer. Irreversible: pass
        confirm=true to mean it."""
        if confirm is not True:
            raise InvalidInput("forget_viewer erases the viewer for good: pass confirm=true")
        built, scope = await opened(ctx, character_id, user_id)
        return await forgetting.forget_viewer(built, scope)

    return server

"""The MCP server at ``/mcp`` on the service (streamable HTTP), behind the API's keys.

A request without a valid key is refused with the API's own 401 before the MCP server
sees it; a tool call for a character the key may not use fails with the API's 403 message
(as a tool error), and one for an unknown character with its 404 message.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from omoide.api.auth import Caller, is_local_request
from omoide.api.dependencies import check_character, get_service
from omoide.api.errors import handle_omoide_error
from omoide.api.mcp.tools import build_mcp_server
from omoide.errors import AccessDenied, OmoideError
from omoide.wiring import Omoide

MCP_PATH = "/mcp"
_CALLER = "omoide_caller"


def key_from(request: Request) -> str | None:
    """The key sent as ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.headers.get("x-api-key")


class KeyedAccess:
    """The service's omoide, for the characters the request's key may use."""

    async def omoide_for(self, request: object | None, character_id: str) -> Omoide:
        caller = getattr(getattr(request, "state", None), _CALLER, None)
        if not isinstance(request, Request) or not isinstance(caller, Caller):
            raise AccessDenied("the MCP request carries no checked key", authenticated=False)
        service = get_service(request)
        await check_character(character_id, caller, service)
        return service.built


class KeyChecked:
    """ASGI: identify the caller by key (401 otherwise), then hand over to ``inner``."""

    def __init__(self, inner: ASGIApp) -> None:
        self._inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            service = get_service(request)
            peer = request.client.host if request.client is not None else None
            trusted = service.built.settings.forwarded_allow_ips
            local = is_local_request(peer, request.headers.items(), trusted)
            caller = await service.keys.identify(key_from(request), local=local)
        except OmoideError as exc:
            response = await handle_omoide_error(request, exc)
            await response(scope, receive, send)
            return
        state: dict[str, Any] = scope.setdefault("state", {})
        state[_CALLER] = caller
        await self._inner(scope, receive, send)


@dataclass(frozen=True)
class McpEndpoint:
    """The ``/mcp`` route, and the session manager the app's lifespan must keep running."""

    route: Route
    running: AbstractAsyncContextManager[None]


def mcp_endpoint(*, host: str) -> McpEndpoint:
    """The MCP tools at ``/mcp``. Sessions are stateless (any instance answers any request);
    on a loopback ``host`` the SDK also refuses a Host header that is not a loopback name
    (DNS rebinding)."""
    server = build_mcp_server(KeyedAccess())
    starlette = server.streamable_http_app(
        streamable_http_path=MCP_PATH, stateless_http=True, host=host
    )
    (inner,) = [
        route.app
        for route in starlette.routes
        if isinstance(route, Route) and route.path == MCP_PATH
    ]
    route = Route(MCP_PATH, KeyChecked(inner), include_in_schema=False)
    return McpEndpoint(route, server.session_manager.run())

"""Requests refused before routing: a path or query string that is not UTF-8.

Starlette decodes percent-escapes with replacement, so ``/users/%FF`` and ``/users/%FE``
would both name the viewer ``"\\ufffd"``; here such a request is answered 400 instead.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

from omoide.api.errors import error_response


def undecodable_part(scope: Scope) -> str | None:
    """``"path"`` or ``"query string"`` if that part of the request is not UTF-8, else None."""
    raw_path = scope.get("raw_path")
    path = raw_path.split(b"?", 1)[0] if isinstance(raw_path, bytes) else b""
    query = scope.get("query_string", b"")
    for name, part in (("path", path), ("query string", query)):
        try:
            unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            return name
    return None


class RefuseUndecodable:
    """ASGI middleware: 400 for an HTTP request whose path or query is not UTF-8."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        part = undecodable_part(scope) if scope["type"] == "http" else None
        if part is None:
            await self._app(scope, receive, send)
            return
        response = error_response(
            400, "BadRequest", f"the request's {part} is not valid UTF-8 once percent-decoded"
        )
        await response(scope, receive, send)

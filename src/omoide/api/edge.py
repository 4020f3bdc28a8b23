"""Requests refused before routing: a path or query string that is not UTF-8 (400), and a
body larger than :data:`MAX_BODY_BYTES` (413).

Starlette decodes percent-escapes with replacement, so ``/users/%FF`` and ``/users/%FE``
would both name the viewer ``"\\ufffd"``; here such a request is answered 400 instead.
A body is refused by its ``Content-Length`` before it is read, or, sent in chunks, as soon
as it grows past the limit, so no request can make the service hold more than that.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


MAX_BODY_BYTES = 32 * 1024 * 1024
"""The largest batch (2,000,000 characters of messages, 1000 turns of metadata) fits even
as JSON with every character escaped (``\\uXXXX``)."""
_TOO_LARGE = f"the request body is larger than {MAX_BODY_BYTES // (1024 * 1024)} MiB"


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, or None when it has none (or a malformed one)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            return int(value) if value.isdigit() else None
    return None


class LimitBody:
    """ASGI middleware: 413 for a body over :data:`MAX_BODY_BYTES`, declared or streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > MAX_BODY_BYTES:
            await error_response(413, "PayloadTooLarge", _TOO_LARGE)(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY_BYTES:
                raise HTTPException(413, _TOO_LARGE)
            return message

        await self._app(scope, counted, send)

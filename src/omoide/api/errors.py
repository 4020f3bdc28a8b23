"""The one place where omoide's errors become HTTP statuses.

============================  ======  ===============================================
error                         status  meaning
============================  ======  ===============================================
InvalidInput, bad request     422     the message names the field and what is wrong
path, query or body not UTF-8 400     refused before routing (``api/edge.py``)
a body over 32 MiB            413     refused before or while it is read (``api/edge.py``)
NotFound                      404     character, viewer, fact or episode not in scope
Conflict                      409     the request contradicts stored state
AccessDenied (no/wrong key)   401     with ``WWW-Authenticate: Bearer``
AccessDenied (other char.)    403     the key is valid but not for this character
BackendUnavailable            503     retrying may help
BackendError, ParseFailure    502     an embedder, model or store failed
ConfigError                   500     the service is misconfigured
a group of only those errors  as its first (from concurrent work in a task group)
anything else                 500     logged; the body says nothing internal
============================  ======  ===============================================

Every error body is ``{"error": {"type": ..., "message": ..., "details": [...]}}``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from omoide.errors import (
    AccessDenied,
    BackendError,
    BackendUnavailable,
    ConfigError,
    Conflict,
    InvalidInput,
    NotFound,
    OmoideError,
)

logger = logging.getLogger(__name__)

_STATUSES: tuple[tuple[type[OmoideError], int], ...] = (
    (InvalidInput, 422),
    (NotFound, 404),
    (Conflict, 409),
    (BackendUnavailable, 503),
    (BackendError, 502),
    (ConfigError, 500),
)
_HTTP_NAMES = {
    400: "BadRequest",
    404: "NotFound",
    405: "MethodNotAllowed",
    413: "PayloadTooLarge",
    415: "UnsupportedMediaType",
}


class ErrorDetail(BaseModel):
    location: list[str | int] = Field(description="Where the problem is, e.g. body, turns, 3")
    message: str
    type: str


class ErrorInfo(BaseModel):
    type: str = Field(description="The error class, e.g. InvalidInput, NotFound, AccessDenied")
    message: str = Field(description="What is wrong, naming the field or thing involved")
    details: list[ErrorDetail] = Field(default_factory=list)


class ErrorOut(BaseModel):
    """The body of every error response."""

    error: ErrorInfo


def status_for(error: OmoideError) -> int:
    if isinstance(error, AccessDenied):
        return 403 if error.authenticated else 401
    for kind, status in _STATUSES:
        if isinstance(error, kind):
            return status
    return 500


def error_response(
    status: int,
    kind: str,
    message: str,
    *,
    details: Sequence[ErrorDetail] = (),
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = ErrorOut(error=ErrorInfo(type=kind, message=message, details=list(details)))
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


async def handle_omoide_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, OmoideError)
    status = status_for(exc)
    if status >= 500:
        logger.error("%s %s failed: %s", request.method, request.url.path, exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return error_response(status, type(exc).__name__, str(exc), headers=headers)


def _location(location: Sequence[Any]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


_HINTS = {
    "timezone_aware": "use ISO 8601 with an offset, e.g. 2026-05-01T21:30:00+09:00 or ...Z",
    "datetime_parsing": "use ISO 8601 with an offset, e.g. 2026-05-01T21:30:00+09:00 or ...Z",
    "datetime_from_date_parsing": "use ISO 8601 with an offset, e.g. 2026-05-01T21:30:00Z",
}


def _message(error: Any) -> str:
    hint = _HINTS.get(str(error["type"]))
    return f"{error['msg']} ({hint})" if hint else str(error["msg"])


def describe_validation_errors(errors: Sequence[Any]) -> tuple[str, list[ErrorDetail]]:
    """One readable line for every problem, and the same as structured details."""
    details = [
        ErrorDetail(
            location=[part if isinstance(part, int) else str(part) for part in error["loc"]],
            message=_message(error),
            type=str(error["type"]),
        )
        for error in errors
    ]
    message = "; ".join(f"{_location(detail.location)}: {detail.message}" for detail in details)
    return message or "the request is not valid", details


async def handle_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    message, details = describe_validation_errors(exc.errors())
    return error_response(422, InvalidInput.__name__, message, details=details)


async def handle_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    kind = _HTTP_NAMES.get(exc.status_code, "HTTPError")
    return error_response(exc.status_code, kind, str(exc.detail), headers=exc.headers)


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    found: list[BaseException] = []
    for inner in group.exceptions:
        found.extend(_leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner])
    return found


async def handle_error_group(request: Request, exc: Exception) -> JSONResponse:
    """Concurrent work (a task group) failed: answer as its first error if it is ours."""
    assert isinstance(exc, ExceptionGroup)
    leaves = _leaves(exc)
    ours = [leaf for leaf in leaves if isinstance(leaf, OmoideError)]
    if ours and len(ours) == len(leaves):
        return await handle_omoide_error(request, ours[0])
    return await handle_unexpected_error(request, exc)


async def handle_unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    logger.error("%s %s crashed", request.method, request.url.path, exc_info=exc)
    return error_response(500, "InternalError", "internal error; the service log has details")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(OmoideError, handle_omoide_error)
    app.add_exception_handler(RequestValidationError, handle_validation_error)
    app.add_exception_handler(HTTPException, handle_http_error)
    app.add_exception_handler(ExceptionGroup, handle_error_group)
    app.add_exception_handler(Exception, handle_unexpected_error)


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorOut,
        "description": "The path, query string or body is not valid UTF-8 (or not parseable)",
    },
    401: {"model": ErrorOut, "description": "No API key, or a key that is not valid"},
    413: {"model": ErrorOut, "description": "The request body is larger than 32 MiB"},
    403: {"model": ErrorOut, "description": "The key may not use this character"},
    422: {"model": ErrorOut, "description": "The request is not valid; the message says why"},
    503: {"model": ErrorOut, "description": "A backend is unavailable; retrying may help"},
}
"""Responses every authenticated endpoint may give, for the OpenAPI document."""

CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": ErrorOut, "description": "The request contradicts stored state"}
}

NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "Unknown character, or no such memory in scope"}
}

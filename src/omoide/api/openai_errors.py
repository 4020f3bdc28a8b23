"""Errors of the OpenAI-compatible endpoints, in OpenAI's shape.

Every error body is ``{"error": {"message", "type", "code", "param"}}``, the shape OpenAI's
SDKs read. Statuses follow :mod:`omoide.api.errors` with OpenAI's conventions on top: a bad
request is a 400 (not 422), an unknown character (the ``model``) a 404 with code
``model_not_found``, and an upstream model that cannot be reached or fails before the reply
began a 502. A failure after the reply began cannot change the status any more: the stream
ends with an error chunk and ``data: [DONE]`` (see :mod:`omoide.api.routes_openai`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from omoide.api.errors import describe_validation_errors, status_for
from omoide.errors import NotFound, OmoideError

logger = logging.getLogger(__name__)

_TYPES = {401: "authentication_error", 403: "permission_error"}
_CODES = {
    400: "invalid_request",
    401: "invalid_api_key",
    403: "character_not_allowed",
    404: "not_found",
    502: "upstream_error",
    503: "service_unavailable",
}


class OpenAIErrorInfo(BaseModel):
    message: str
    type: str = Field(examples=["invalid_request_error"])
    code: str = Field(examples=["model_not_found"])
    param: str | None = None


class OpenAIErrorOut(BaseModel):
    """The body of every error of the OpenAI-compatible endpoints."""

    error: OpenAIErrorInfo


def _documented(description: str) -> dict[str, Any]:
    return {"model": OpenAIErrorOut, "description": description}


OPENAI_ERRORS: dict[int | str, dict[str, Any]] = {
    400: _documented("A bad request, or something omoide cannot pass on (tools, images)"),
    401: _documented("No API key, or a key that is not valid"),
    403: _documented("The key may not use this character"),
    404: _documented("No such character (code model_not_found)"),
    502: _documented("The upstream model failed or could not be reached before replying"),
    503: _documented("No language model is configured"),
}
"""The errors these endpoints may answer, for the OpenAPI document."""


def error_body(status: int, message: str, *, code: str | None = None) -> dict[str, Any]:
    kind = _TYPES.get(status, "invalid_request_error" if status < 500 else "api_error")
    return {
        "error": {
            "message": message,
            "type": kind,
            "code": code or _CODES.get(status, "internal_error"),
            "param": None,
        }
    }


def error_response(status: int, message: str, *, code: str | None = None) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(error_body(status, message, code=code), status, headers=headers)


def upstream_failure(message: str) -> JSONResponse:
    """The upstream model could not be reached or failed before its first token."""
    return error_response(502, message, code="upstream_error")


def response_for(request: Request, exc: Exception) -> JSONResponse:
    """The OpenAI-shaped answer to an exception raised while handling ``request``."""
    if isinstance(exc, RequestValidationError):
        return error_response(400, describe_validation_errors(exc.errors())[0])
    if isinstance(exc, HTTPException):
        return error_response(exc.status_code, str(exc.detail))
    if isinstance(exc, OmoideError):
        status = status_for(exc)
        status = 400 if status == 422 else status
        code = "model_not_found" if isinstance(exc, NotFound) else None
        if status >= 500:
            logger.error("%s %s failed: %s", request.method, request.url.path, exc)
        return error_response(status, str(exc), code=code)
    logger.error("%s %s crashed", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal error; the service log has details")


class OpenAIRoute(APIRoute):
    """A route whose every error, its validation and key checks included, is in OpenAI's
    shape (the app's own handlers, which answer in omoide's shape, never see them)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except Exception as exc:
                return response_for(request, exc)

        return answer

"""A client of the stream HTTP API (what ``omoide stream replay --url`` uses).

Answers are the API's own models (:mod:`omoide.api.views_stream`). HTTP failures become
omoide errors: 400 and 422 :class:`~omoide.errors.InvalidInput`, 401 and 403
:class:`~omoide.errors.AccessDenied`, 404 :class:`~omoide.errors.NotFound`, 409
:class:`~omoide.errors.Conflict`, 5xx, timeouts and refused connections
:class:`~omoide.errors.BackendUnavailable`. The key is sent as ``Authorization: Bearer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from omoide.api.views_stream import (
    DiaryListOut,
    IngestOut,
    PendingChangeOut,
    PendingListOut,
    StreamEndOut,
    VersionListOut,
    VersionOut,
)
from omoide.errors import (
    AccessDenied,
    BackendError,
    BackendUnavailable,
    Conflict,
    InvalidInput,
    NotFound,
    OmoideError,
)
from omoide.stream.events import StreamEvent

Model = TypeVar("Model", bound=BaseModel)


def _event_json(event: StreamEvent) -> dict[str, Any]:
    return {
        "viewer_id": event.viewer_id,
        "display_name": event.display_name,
        "text": event.text,
        "time": event.time.isoformat(),
        "platform": event.platform,
        "reply": event.reply,
    }


def _error(response: httpx.Response) -> OmoideError:
    try:
        body = response.json()
    except ValueError:
        body = None
    detail: object = response.text
    if isinstance(body, dict):
        error = body.get("error")
        detail = (
            error.get("message", detail) if isinstance(error, dict) else body.get("detail", detail)
        )
    message = f"{response.request.method} {response.request.url.path}: {detail}"
    status = response.status_code
    if status in (400, 422):
        return InvalidInput(message)
    if status in (401, 403):
        return AccessDenied(message, authenticated=status == 403)
    if status == 404:
        return NotFound(message)
    if status == 409:
        return Conflict(message)
    if status >= 500:
        return BackendUnavailable(f"the omoide server failed ({status}): {message}")
    return BackendError(f"unexpected HTTP {status}: {message}")


class StreamClient:
    """Talks to ``/v1/characters/{character_id}/...`` on an omoide server."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_seconds: float = 120.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=timeout_seconds,
            transport=transport,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _call(
        self, method: str, path: str, model: type[Model], body: object | None = None
    ) -> Model:
        try:
            response = await self._http.request(method, path, json=body)
        except httpx.TransportError as exc:
            raise BackendUnavailable(f"cannot reach {self._http.base_url}: {exc}") from exc
        if response.is_error:
            raise _error(response)
        try:
            return model.model_validate(response.json())
        except (ValueError, ValidationError) as exc:
            raise BackendError(f"{method} {path}: unexpected answer: {exc}") from exc

    @staticmethod
    def _character(character_id: str) -> str:
        return f"/v1/characters/{quote(character_id, safe='')}"

    async def ingest(
        self, character_id: str, stream_id: str, events: Sequence[StreamEvent]
    ) -> IngestOut:
        path = f"{self._character(character_id)}/streams/{quote(stream_id, safe='')}/events"
        body = {"events": [_event_json(event) for event in events]}
        return await self._call("POST", path, IngestOut, body)

    async def end(self, character_id: str, stream_id: str) -> StreamEndOut:
        path = f"{self._character(character_id)}/streams/{quote(stream_id, safe='')}/end"
        return await self._call("POST", path, StreamEndOut, {})

    async def diary(self, character_id: str, *, limit: int = 20) -> DiaryListOut:
        path = f"{self._character(character_id)}/diary?limit={int(limit)}"
        return await self._call("GET", path, DiaryListOut)

    async def versions(self, character_id: str) -> VersionListOut:
        path = f"{self._character(character_id)}/identity/versions"
        return await self._call("GET", path, VersionListOut)

    async def version(self, character_id: str, number: int) -> VersionOut:
        path = f"{self._character(character_id)}/identity/versions/{int(number)}"
        return await self._call("GET", path, VersionOut)

    async def pending(self, character_id: str) -> PendingListOut:
        path = f"{self._character(character_id)}/identity/pending"
        return await self._call("GET", path, PendingListOut)

    async def approve(self, character_id: str, change_id: str) -> VersionOut:
        path = f"{self._character(character_id)}/identity/pending/{quote(change_id, safe='')}"
        return await self._call("POST", f"{path}/approve", VersionOut, {})

    async def reject(self, character_id: str, change_id: str) -> PendingChangeOut:
        path = f"{self._character(character_id)}/identity/pending/{quote(change_id, safe='')}"
        return await self._call("POST", f"{path}/reject", PendingChangeOut, {})

    async def rollback(self, character_id: str, number: int) -> VersionOut:
        path = f"{self._character(character_id)}/identity/rollback"
        return await self._call("POST", path, VersionOut, {"version": int(number)})

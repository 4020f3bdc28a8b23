"""HTTP endpoints for live streams, the diary and identity evolution.

The router finds its :class:`~omoide.stream.service.StreamService` on
``request.app.state.stream_service``; :func:`stream_service_running` opens one, puts it
there and runs its background worker for the life of the app. In ``api/app.py``::

    from fastapi import Depends
    from omoide.api import routes_stream
    from omoide.api.dependencies import checked_character

    app.include_router(routes_stream.router, dependencies=[Depends(checked_character)])

    # in the lifespan, inside the task group, around the existing ``yield``:
    async with routes_stream.stream_service_running(app, built):
        yield

Every route has the ``{character_id}`` path parameter, so the key check applies as a
router dependency. Errors are omoide errors (InvalidInput, NotFound, Conflict, ...); the
app's exception handlers choose the status codes. Request and response models are in
:mod:`omoide.stream.wire`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

import anyio
from fastapi import APIRouter, Depends, FastAPI, Query, Request

from omoide.api.schemas import MAX_OFFSET
from omoide.character.identity import IdentityPolicy
from omoide.errors import ConfigError
from omoide.stream.config import StreamConfig
from omoide.stream.service import OmoideParts, StreamService, open_stream_service
from omoide.stream.wire import (
    DiaryListOut,
    EventsIn,
    IngestOut,
    PendingChangeOut,
    PendingListOut,
    RollbackIn,
    StreamEndOut,
    VersionListOut,
    VersionOut,
    ViewerSummaryOut,
    change_out,
    diary_out,
    end_out,
    ingest_out,
    summary_out,
    version_out,
    versions_out,
)
from omoide.text_rules import check_id

router = APIRouter(tags=["streams"])
CHARACTER = "/v1/characters/{character_id}"


def stream_service(request: Request) -> StreamService:
    """The app's stream service (ConfigError when the app was started without one)."""
    service = getattr(request.app.state, "stream_service", None)
    if not isinstance(service, StreamService):
        raise ConfigError("this server runs without the stream service")
    return service


Service = Annotated[StreamService, Depends(stream_service)]


@asynccontextmanager
async def stream_service_running(
    app: FastAPI,
    parts: OmoideParts,
    *,
    config: StreamConfig | None = None,
    policy: IdentityPolicy | None = None,
    use_llm: bool | None = None,
) -> AsyncIterator[StreamService]:
    """Open the service on ``app.state.stream_service`` and run its worker until exit."""
    service = await open_stream_service(parts, config=config, policy=policy, use_llm=use_llm)
    app.state.stream_service = service
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(service.run)
            yield service
            group.cancel_scope.cancel()
    finally:
        app.state.stream_service = None
        await service.aclose()


@router.post(f"{CHARACTER}/streams/{{stream_id}}/events", response_model=IngestOut)
async def post_stream_events(
    character_id: str, stream_id: str, body: EventsIn, service: Service
) -> IngestOut:
    """Remember a batch of comments (all or nothing); counts what was kept and skipped."""
    check_id(stream_id, name="stream_id")
    report = await service.ingest(character_id, stream_id, body.to_events())
    return ingest_out(report)


@router.post(f"{CHARACTER}/streams/{{stream_id}}/end", response_model=StreamEndOut)
async def end_stream(character_id: str, stream_id: str, service: Service) -> StreamEndOut:
    """Write the closing diary entry (and any still queued) and return it."""
    check_id(stream_id, name="stream_id")
    return end_out(await service.end_stream(character_id, stream_id))


@router.get(f"{CHARACTER}/diary", response_model=DiaryListOut)
async def get_diary(
    character_id: str,
    service: Service,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> DiaryListOut:
    """Diary entries, newest first."""
    entries = await service.diary(character_id, limit=limit, offset=offset)
    return DiaryListOut(entries=[diary_out(entry) for entry in entries])


@router.get(f"{CHARACTER}/viewers/{{viewer_id}}/stream-summary", response_model=ViewerSummaryOut)
async def get_viewer_summary(
    character_id: str, viewer_id: str, service: Service
) -> ViewerSummaryOut:
    """The viewer's rolling summary from streams."""
    check_id(viewer_id, name="viewer_id")
    return summary_out(await service.viewer_summary(character_id, viewer_id))


@router.get(f"{CHARACTER}/identity/versions", response_model=VersionListOut)
async def get_identity_versions(character_id: str, service: Service) -> VersionListOut:
    """Every version, oldest first, each with its field-by-field changes."""
    return versions_out(character_id, await service.identity.versions(character_id))


@router.get(f"{CHARACTER}/identity/versions/{{version}}", response_model=VersionOut)
async def get_identity_version(character_id: str, version: int, service: Service) -> VersionOut:
    """One version's full profile and the changes that made it."""
    found = await service.identity.version(character_id, version)
    return version_out(found, with_profile=True)


@router.get(f"{CHARACTER}/identity/pending", response_model=PendingListOut)
async def get_identity_pending(character_id: str, service: Service) -> PendingListOut:
    """Proposed changes waiting for a person."""
    changes = await service.identity.changes(character_id)
    return PendingListOut(changes=[change_out(change) for change in changes])


@router.post(f"{CHARACTER}/identity/pending/{{change_id}}/approve", response_model=VersionOut)
async def approve_identity_change(
    character_id: str, change_id: str, service: Service
) -> VersionOut:
    """Apply a pending change; returns the new version."""
    version = await service.identity.approve(character_id, change_id)
    return version_out(version, with_profile=True)


@router.post(f"{CHARACTER}/identity/pending/{{change_id}}/reject", response_model=PendingChangeOut)
async def reject_identity_change(
    character_id: str, change_id: str, service: Service
) -> PendingChangeOut:
    return change_out(await service.identity.reject(character_id, change_id))


@router.post(f"{CHARACTER}/identity/rollback", response_model=VersionOut)
async def rollback_identity(character_id: str, body: RollbackIn, service: Service) -> VersionOut:
    """Make a new version holding exactly the profile of ``version``."""
    version = await service.identity.rollback(character_id, body.version)
    return version_out(version, with_profile=True)

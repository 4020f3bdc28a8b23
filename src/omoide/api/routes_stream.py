"""HTTP endpoints for live streams, the diary and identity evolution.

The routes call the library's stream service, ``Omoide.streams`` (built in
:mod:`omoide.wiring`); the app's lifespan runs its background worker. Every route has the
``{character_id}`` path parameter, so the key check applies as a router dependency. Errors
are omoide errors (InvalidInput, NotFound, Conflict, ...); the app's exception handlers
choose the status codes. Request and response models are in :mod:`omoide.api.views_stream`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from omoide.api.dependencies import ServiceDep
from omoide.api.schemas import MAX_OFFSET
from omoide.api.views_stream import (
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
from omoide.stream.service import StreamService
from omoide.text_rules import check_id

router = APIRouter(tags=["streams"])
CHARACTER = "/v1/characters/{character_id}"


def stream_service(service: ServiceDep) -> StreamService:
    """The running omoide's stream service."""
    return service.built.streams


Service = Annotated[StreamService, Depends(stream_service)]


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
    """Proposed changes waiting for a person, each with the model that proposed it."""
    pending = await service.pending_changes(character_id)
    return PendingListOut(
        changes=[
            change_out(change, proposed_by=entry.model if entry else None)
            for change, entry in pending
        ]
    )


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

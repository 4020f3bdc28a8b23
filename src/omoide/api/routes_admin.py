"""Service health, counters, maintenance, and the lists a dashboard needs."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from omoide.api.dependencies import (
    CallerDep,
    CharacterDep,
    ServiceDep,
    allowed_characters,
    check_character,
)
from omoide.api.errors import ERROR_RESPONSES, NOT_FOUND
from omoide.api.health import HealthOut, health_report
from omoide.api.schemas import MAX_OFFSET, DecayBody, RestoreBody
from omoide.api.views_decay import DecayOut, RestoreOut

logger = logging.getLogger(__name__)

router = APIRouter()
MAX_VIEWER_PAGE = 500


@router.get(
    "/health",
    tags=["service"],
    summary="Is the service able to work (no key needed)",
    response_model=HealthOut,
    responses={
        400: ERROR_RESPONSES[400],
        413: ERROR_RESPONSES[413],
        503: {"model": HealthOut, "description": "The store or queue is failing"},
    },
)
async def health(service: ServiceDep) -> JSONResponse:
    """Each component's state. ``degraded`` (still 200) when only the language model fails
    (memory works, chat does not); ``unavailable`` (503) when the store or queue fails."""
    report = await health_report(service.built, service.model_probe)
    status = 503 if report.status == "unavailable" else 200
    return JSONResponse(report.model_dump(mode="json"), status_code=status)


@router.get("/v1/metrics", tags=["service"], responses=ERROR_RESPONSES, summary="Counters")
async def metrics(caller: CallerDep, service: ServiceDep) -> dict[str, int]:
    """Named counters since start: LLM calls, unscored turns, parse failures, queue...
    They count the work of every character, so only a key for all characters (``*``) may
    read them (403 for a key bound to some)."""
    caller.authorize_all("the service's counters")
    return service.built.metrics.snapshot()


@router.post(
    "/v1/maintenance/decay",
    tags=["service"],
    responses={**ERROR_RESPONSES, **NOT_FOUND},
    summary="Archive faded memories of one character",
)
async def decay(body: DecayBody, caller: CallerDep, service: ServiceDep) -> DecayOut:
    """Archives episodes whose retention fell below the threshold (they leave retrieval
    but stay stored; ``.../decay/restore`` brings them back). ``dry_run`` only counts what
    would be archived and purged, and lists the first ids."""
    await check_character(body.character_id, caller, service)
    memory = service.built.memory
    if body.dry_run:
        preview = await memory.preview_decay(
            body.character_id, now=body.now, purge_archived_before=body.purge_archived_before
        )
        return DecayOut.preview(preview)
    report = await memory.run_decay(
        body.character_id, now=body.now, purge_archived_before=body.purge_archived_before
    )
    return DecayOut.of(report)


@router.post(
    "/v1/maintenance/decay/restore",
    tags=["service"],
    responses={**ERROR_RESPONSES, **NOT_FOUND},
    summary="Bring archived memories of one character back into retrieval",
)
async def restore(body: RestoreBody, caller: CallerDep, service: ServiceDep) -> RestoreOut:
    """The episodes named, or every episode archived since a time (a decay run's ``now``
    undoes that run). Episodes not archived are left as they are; purged ones are gone."""
    await check_character(body.character_id, caller, service)
    report = await service.built.memory.restore_archived(
        body.character_id, episode_ids=body.episode_ids, archived_since=body.archived_since
    )
    return RestoreOut.of(report)


class CharactersOut(BaseModel):
    characters: list[str] = Field(description="Character ids this key may use")


@router.get("/v1/characters", tags=["viewers"], responses=ERROR_RESPONSES)
async def list_characters(caller: CallerDep, service: ServiceDep) -> CharactersOut:
    """Characters available (from the character folders) that this key may use."""
    return CharactersOut(characters=await allowed_characters(caller, service))


class ViewerOut(BaseModel):
    user_id: str
    display_name: str | None = Field(
        description="The name the viewer went by most recently (chat user_name, a stream "
        "comment's display_name); null when none was given"
    )
    episode_count: int = Field(description="Episodes not archived (the episode list's total)")
    archived_episode_count: int = Field(description="Episodes decay archived (still stored)")
    fact_count: int
    last_seen_at: datetime | None


class ViewersOut(BaseModel):
    users: list[ViewerOut] = Field(description="Most recently seen first")
    total: int = Field(description="How many viewers match, over all pages")
    limit: int
    offset: int


@router.get(
    "/v1/characters/{character_id}/users",
    tags=["viewers"],
    responses={**ERROR_RESPONSES, **NOT_FOUND},
    summary="Viewers the character remembers",
)
async def list_viewers(
    character_id: CharacterDep,
    service: ServiceDep,
    search: Annotated[
        str | None,
        Query(max_length=256, description="Part of a user id, or of a name (any case)"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_VIEWER_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> ViewersOut:
    found = await service.built.memory.list_viewers(
        character_id, search=search, limit=limit, offset=offset
    )
    total = await service.built.memory.count_viewers(character_id, search=search)
    users = [
        ViewerOut(
            user_id=viewer.scope.user_id or "",
            display_name=viewer.display_name,
            episode_count=viewer.episode_count,
            archived_episode_count=viewer.archived_episode_count,
            fact_count=viewer.fact_count,
            last_seen_at=viewer.last_seen_at,
        )
        for viewer in found
    ]
    return ViewersOut(users=users, total=total, limit=limit, offset=offset)

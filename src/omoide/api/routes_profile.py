"""The viewer profile: what the viewer has told about themselves, as the prompt carries it.

It is a view over the viewer's current facts, so it is edited through the fact routes
(``PATCH`` and ``DELETE .../facts/{fact_id}``) and shows a change at once.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from omoide.api.dependencies import ScopeDep, ServiceDep
from omoide.api.errors import ERROR_RESPONSES, NOT_FOUND
from omoide.api.routes_memory import VIEWER_PATH
from omoide.api.views import DisplayNameOut
from omoide.api.views_profile import ProfileOut

MAX_MESSAGE_CHARS = 1000
"""A message in the query string: 1,000 Korean characters are 9 KB once percent-encoded,
within what servers and proxies accept in a URL."""

router = APIRouter(prefix=VIEWER_PATH, tags=["viewers"], responses={**ERROR_RESPONSES, **NOT_FOUND})


@router.get("/profile", summary="The viewer profile the prompt carries")
async def profile(
    scope: ScopeDep,
    service: ServiceDep,
    message: Annotated[
        str | None,
        Query(
            max_length=MAX_MESSAGE_CHARS,
            description="Choose as a reply to this message would (without it: by weight)",
        ),
    ] = None,
) -> ProfileOut:
    """The viewer's current facts the prompt would carry, in groups (who they are, people
    and pets, likes, health, habits, plans, what is going on, how to talk with them), each
    with its weight (salience x confidence x confirmation), its relevance to ``message``
    and the score that chose it. An unknown viewer has an empty profile. Reading it
    reinforces nothing."""
    return ProfileOut.of(await service.built.memory.profile(scope, message))


class NamesOut(BaseModel):
    character_id: str
    user_id: str
    display_name: str | None = Field(description="The latest name; null when none was given")
    names: list[DisplayNameOut] = Field(description="Every name they went by, latest first")


@router.get("/names", summary="The names the viewer went by")
async def names(scope: ScopeDep, service: ServiceDep) -> NamesOut:
    """The name the viewer went by most recently and every earlier one, each with when it
    was first and last seen (from chat ``user_name`` and stream comments' ``display_name``).
    An unknown viewer has none. Forgetting the viewer deletes them."""
    found = await service.built.memory.list_display_names(scope)
    return NamesOut(
        character_id=scope.character_id,
        user_id=scope.user_id or "",
        display_name=found[0].name if found else None,
        names=[DisplayNameOut.model_validate(name) for name in found],
    )

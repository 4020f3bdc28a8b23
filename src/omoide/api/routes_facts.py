"""What a character believes about a viewer: list, add, correct, delete."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from omoide.api.dependencies import ScopeDep, ServiceDep
from omoide.api.errors import ERROR_RESPONSES, NOT_FOUND
from omoide.api.routes_memory import VIEWER_PATH
from omoide.api.schemas import FactBody, FactPatch
from omoide.api.views import FactOut, TombstoneOut

router = APIRouter(prefix=VIEWER_PATH + "/facts", tags=["facts"])
RESPONSES = {**ERROR_RESPONSES, **NOT_FOUND}


@router.get("", responses=RESPONSES, summary="List facts about the viewer")
async def list_facts(
    scope: ScopeDep,
    service: ServiceDep,
    include_inactive: Annotated[
        bool, Query(description="Include superseded and contradicted versions")
    ] = False,
) -> list[FactOut]:
    facts = await service.built.memory.list_facts(scope, include_inactive=include_inactive)
    return [FactOut.of(fact) for fact in facts]


@router.post("", status_code=201, responses=RESPONSES, summary="Add a fact a person states")
async def add_fact(body: FactBody, scope: ScopeDep, service: ServiceDep) -> FactOut:
    """Stored as confirmed and never merged away by later extraction."""
    fact = await service.built.memory.add_fact(
        scope,
        body.text,
        body.category,
        confidence=body.confidence,
        salience=body.salience,
    )
    return FactOut.of(fact)


@router.patch("/{fact_id}", responses=RESPONSES, summary="Correct a fact")
async def correct_fact(
    fact_id: str, body: FactPatch, scope: ScopeDep, service: ServiceDep
) -> FactOut:
    """Returns the current fact. A new text supersedes the old version (kept, with its
    validity closed, and listed with ``include_inactive``); other fields change in place.
    A fact that is no longer current cannot be corrected (422)."""
    fact = await service.built.memory.correct_fact(
        scope,
        fact_id,
        text=body.text,
        category=body.category,
        confidence=body.confidence,
        salience=body.salience,
    )
    return FactOut.of(fact)


@router.delete("/{fact_id}", responses=RESPONSES, summary="Delete a fact")
async def delete_fact(fact_id: str, scope: ScopeDep, service: ServiceDep) -> TombstoneOut:
    """Deletes the fact; a tombstone without its text remains."""
    return TombstoneOut.of(await service.built.memory.delete_fact(scope, fact_id))

"""A viewer's memory: remember, search, build context, list, export, forget."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Query

from omoide.api.dependencies import ScopeDep, ServiceDep
from omoide.api.errors import ERROR_RESPONSES, NOT_FOUND
from omoide.api.schemas import (
    MAX_OFFSET,
    ContextBody,
    SearchBody,
    TurnBatchBody,
    TurnBody,
    parse_moment,
)
from omoide.api.views import (
    ContextOut,
    EmotionOut,
    EmotionsOut,
    EmotionSummaryOut,
    EpisodePage,
    SearchOut,
    TombstoneOut,
    TurnBatchOut,
    TurnOut,
)
from omoide.api.views_viewer import ViewerExportOut, ViewerForgetOut
from omoide.domain import TurnInput
from omoide.errors import InvalidInput

VIEWER_PATH = "/v1/characters/{character_id}/users/{user_id}"
MAX_PAGE = 500
MAX_EMOTION_DAYS = 3650

router = APIRouter(prefix=VIEWER_PATH, responses={**ERROR_RESPONSES, **NOT_FOUND})


@router.post("/turns", tags=["remember"], summary="Remember one exchange now")
async def store_turn(body: TurnBody, scope: ScopeDep, service: ServiceDep) -> TurnOut:
    """Scores, embeds and stores the exchange before answering (this is the explicit and
    import path; chat turns go through the durable queue instead). ``metadata`` comes back
    unchanged with every search hit. A turn too slight to keep still records the viewer's
    emotion, and answers ``stored: false``. Messages may be 100,000 characters long; a
    ``timestamp`` more than 5 minutes after the server's time is refused (422)."""
    memory = service.built.memory
    return TurnOut.of(await memory.remember(body.to_turn(scope, now=memory.clock.now())))


@router.post("/turns/batch", tags=["remember"], summary="Remember many exchanges at once")
async def store_turns(body: TurnBatchBody, scope: ScopeDep, service: ServiceDep) -> TurnBatchOut:
    """Every turn is checked first; one bad turn refuses the whole batch and nothing is
    written. The turns are then stored in one transaction (at most 1000 per batch, and
    2,000,000 characters of messages in all)."""
    now = service.built.memory.clock.now()
    turns: list[TurnInput] = []
    for position, item in enumerate(body.turns):
        try:
            turns.append(item.to_turn(scope, now=now))
        except InvalidInput as exc:
            raise InvalidInput(f"turns[{position}]: {exc}") from exc
    stored = await service.built.memory.store_interactions(scope.character_id, turns)
    return TurnBatchOut(turns=[TurnOut.of(outcome) for outcome in stored])


@router.post("/search", tags=["recall"], summary="Search memories, with score components")
async def search(body: SearchBody, scope: ScopeDep, service: ServiceDep) -> SearchOut:
    """Ranked episodes and facts for ``query``, best first, each with the relevance,
    recency and importance that placed it. Reinforces nothing. ``k`` limits both lists
    (fewer come back when fewer candidates exist)."""
    context = await service.built.memory.search(scope, body.query, now=body.now, limit=body.k)
    return SearchOut.of(context, limit=body.k)


@router.post("/context", tags=["recall"], summary="The memory section a reply would get")
async def context(body: ContextBody, scope: ScopeDep, service: ServiceDep) -> ContextOut:
    """Exactly what the chat path puts in the system prompt for this message, under the
    token budget, and the ranked memories it was chosen from. Like a real reply, this
    reinforces the memories it uses (their recall count and last recall time), written
    off the reply path and visible to every read of them."""
    recollection = await service.built.memory.retrieve_context(
        scope, body.query, now=body.now, token_budget=body.token_budget
    )
    return ContextOut.of(recollection)


@router.get("/episodes", tags=["viewers"], summary="List remembered exchanges, newest first")
async def list_episodes(
    scope: ScopeDep,
    service: ServiceDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    include_archived: Annotated[bool, Query(description="Include decayed episodes")] = False,
) -> EpisodePage:
    found = await service.built.memory.list_episodes(
        scope, include_archived=include_archived, limit=limit, offset=offset
    )
    return EpisodePage.of(list(found.episodes), total=found.total, limit=limit, offset=offset)


@router.delete("/episodes/{episode_id}", tags=["forget"], summary="Delete one exchange")
async def delete_episode(episode_id: str, scope: ScopeDep, service: ServiceDep) -> TombstoneOut:
    """Deletes the episode (a tombstone without content remains); 404 if this viewer has
    no such episode."""
    return TombstoneOut.of(await service.built.memory.delete_episode(scope, episode_id))


@router.get("/export", tags=["viewers"], summary="Everything stored about the viewer")
async def export(scope: ScopeDep, service: ServiceDep) -> ViewerExportOut:
    """Episodes (archived too), facts including superseded versions, emotion records,
    tombstones, chat turns still queued, the character's state for the viewer, the
    sessions' short-term history, and the stream log's comments, noted facts, rolling
    summary and work: everything forgetting the viewer removes."""
    return ViewerExportOut.of_viewer(await service.built.viewer_data.export_viewer(scope))


@router.get("/emotions", tags=["viewers"], summary="The viewer's recent emotions")
async def emotions(
    scope: ScopeDep,
    service: ServiceDep,
    days: Annotated[int | None, Query(ge=1, le=MAX_EMOTION_DAYS)] = None,
    now: Annotated[
        str | None, Query(description="Timezone-aware ISO 8601 (encode '+' as %2B)")
    ] = None,
) -> EmotionsOut:
    """The summary the prompt uses (dominant mood, hard days) and the records behind it."""
    memory = service.built.memory
    moment = parse_moment(now, name="now") if now is not None else memory.clock.now()
    summary = await memory.emotion_summary(scope, days=days, now=moment)
    since = moment - timedelta(days=summary.days)
    records = await memory.list_emotions(scope, since=since, until=moment)
    return EmotionsOut(
        summary=EmotionSummaryOut.of(summary),
        records=[EmotionOut.of(record) for record in records],
    )


@router.delete("", tags=["forget"], summary="Forget everything about the viewer")
async def forget_viewer(scope: ScopeDep, service: ServiceDep) -> ViewerForgetOut:
    """Removes episodes, facts, emotion records, queued chat turns, the character's state
    for the viewer, the session history, and the viewer's stream comments, noted facts,
    summary and work; takes the viewer's words out of the character's diary entries; then
    empties the local files' write-ahead logs. Tombstones (without content) remain."""
    return ViewerForgetOut.of(await service.built.viewer_data.forget_viewer(scope))

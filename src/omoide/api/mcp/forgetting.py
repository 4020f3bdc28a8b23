"""Forgetting a viewer, for the ``forget_viewer`` tool: the one place it is called from MCP.

It does what the HTTP API's forget route does today: store the turns still queued (so
they are forgotten too rather than coming back later), forget the viewer's memories,
then drop the character's state and the session history. When the library gains its own
forget-a-viewer use case, this function should call it instead.
"""

from __future__ import annotations

from typing import Any

from omoide.api.views import ForgetOut
from omoide.domain import Scope
from omoide.wiring import Omoide


async def forget_viewer(built: Omoide, scope: Scope) -> dict[str, Any]:
    """Forget everything about the viewer; what was removed, as the API reports it."""
    await built.drainer.drain_all()
    report = await built.memory.forget_viewer(scope)
    await built.states.delete(scope)
    if built.conversation is not None:
        await built.conversation.forget_viewer(scope)
    forgotten = ForgetOut(
        character_id=scope.character_id,
        user_id=scope.user_id or "",
        episodes=report.episodes,
        facts=report.facts,
        emotions=report.emotions,
    )
    return forgotten.model_dump(mode="json")

"""Forgetting a viewer, for the ``forget_viewer`` tool: the library's one use case
(:meth:`omoide.privacy.viewer_data.ViewerData.forget_viewer`, as the HTTP API and the CLI
call it), answered in the API's shape."""

from __future__ import annotations

from typing import Any

from omoide.api.views_viewer import ViewerForgetOut
from omoide.domain import Scope
from omoide.wiring import Omoide


async def forget_viewer(built: Omoide, scope: Scope) -> dict[str, Any]:
    """Forget everything about the viewer; what was removed, as the API reports it."""
    forgotten = ViewerForgetOut.of(await built.viewer_data.forget_viewer(scope))
    return forgotten.model_dump(mode="json")

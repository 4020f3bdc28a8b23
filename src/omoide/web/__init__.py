"""The memory browser: a page served by the service to see, search and correct memories.

``mount_web(app)`` serves ``/`` (``index.html``) and ``/assets/...`` from this package's
files: hand-written ES modules, one stylesheet and an icon; no build step, no framework,
nothing fetched from another host (the page's Content-Security-Policy forbids it).

The page itself holds no data, so it is served without a key; everything it shows comes
from the REST API under ``/v1``, which asks for the same API keys as any other client. The
page asks for a key when the API answers 401, keeps it in ``sessionStorage`` for the tab's
life and sends it as ``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import os
from importlib import resources
from typing import Final

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

__all__ = ["ASSETS_PATH", "CONTENT_SECURITY_POLICY", "mount_web"]

ASSETS_PATH: Final = "/assets"
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""Only this service may provide scripts, styles, images and data to the page."""

_SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_MOUNTED_FLAG: Final = "omoide_web_mounted"


class _Assets(StaticFiles):
    """Package files under ``assets/``, revalidated on each load (so upgrades show)."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(_SECURITY_HEADERS)
        return response


def _index_html() -> str:
    return resources.files(__name__).joinpath("index.html").read_text(encoding="utf-8")


def mount_web(app: FastAPI) -> None:
    """Serve the memory browser at ``/`` and its files at ``/assets``; calling it again
    on the same app does nothing."""
    if getattr(app.state, _MOUNTED_FLAG, False):
        return
    setattr(app.state, _MOUNTED_FLAG, True)
    page = _index_html()  # read once here, not on the event loop for every request

    async def index() -> HTMLResponse:
        return HTMLResponse(page, headers=_SECURITY_HEADERS)

    app.add_api_route(
        "/",
        index,
        methods=["GET"],
        response_class=HTMLResponse,
        include_in_schema=False,
        name="memory-browser",
    )
    app.mount(ASSETS_PATH, _Assets(packages=[(__name__, "assets")]), name="web-assets")

"""The API's documentation page, served with no other host: ``/docs`` (Swagger UI) loads
its script, style and icon from ``/docs-assets``, files the ``fastapi-offline`` package
ships (maintained upstream builds), never from a CDN.

ReDoc (FastAPI's ``/redoc``) is not served: its bundle always shows its makers' logo from
their CDN, so it cannot work without asking another host.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Final

from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

DOCS_PATH: Final = "/docs"
DOCS_ASSETS_PATH: Final = "/docs-assets"
SWAGGER_PARAMETERS: Final = {"validatorUrl": None}
"""No validator badge: Swagger UI would fetch it from another host."""
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",  # the page's own inline start-up script
        "style-src 'self' 'unsafe-inline'",  # Swagger UI renders with inline styles
        "img-src 'self' data:",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
"""The page loads only this service's files: the browser refuses anything else."""
_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def docs_assets_directory() -> Path:
    """Where the installed ``fastapi-offline`` keeps Swagger UI and ReDoc."""
    return Path(str(resources.files("fastapi_offline").joinpath("static")))


def install_docs(app: FastAPI) -> None:
    """Serve ``/docs``, its OAuth2 redirect and their files on ``app`` (made with
    ``docs_url=None, redoc_url=None``)."""
    app.mount(DOCS_ASSETS_PATH, StaticFiles(directory=docs_assets_directory()), name="docs-assets")
    redirect = app.swagger_ui_oauth2_redirect_url or f"{DOCS_PATH}/oauth2-redirect"

    async def swagger(request: Request) -> HTMLResponse:
        root = str(request.scope.get("root_path", ""))
        return _guarded(
            get_swagger_ui_html(
                openapi_url=f"{root}{app.openapi_url}",
                title=f"{app.title} - Swagger UI",
                oauth2_redirect_url=f"{root}{redirect}",
                swagger_js_url=f"{root}{DOCS_ASSETS_PATH}/swagger-ui-bundle.js",
                swagger_css_url=f"{root}{DOCS_ASSETS_PATH}/swagger-ui.css",
                swagger_favicon_url=f"{root}{DOCS_ASSETS_PATH}/favicon.png",
                swagger_ui_parameters={**(app.swagger_ui_parameters or {}), **SWAGGER_PARAMETERS},
            )
        )

    async def swagger_redirect() -> HTMLResponse:
        return _guarded(get_swagger_ui_oauth2_redirect_html())

    for path, endpoint in ((DOCS_PATH, swagger), (redirect, swagger_redirect)):
        app.add_api_route(
            path, endpoint, methods=["GET"], response_class=HTMLResponse, include_in_schema=False
        )


def _guarded(page: HTMLResponse) -> HTMLResponse:
    page.headers.update(_HEADERS)
    return page

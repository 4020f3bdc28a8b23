"""The HTTP service: a FastAPI app over one built :class:`~omoide.wiring.Omoide`.

Start it with ``omoide serve``, or with uvicorn's factory mode::

    uvicorn --factory omoide.api.app:app_from_environment --host 127.0.0.1 --port 8000

The lifespan builds everything from the settings, drains the durable chat-turn queue
(turns a previous process accepted but had not stored), keeps the queue worker and the
stream worker (``Omoide.streams``) running for the life of the app, and on shutdown stops
them, drains again and closes everything.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

import anyio
from fastapi import Depends, FastAPI

from omoide.api import (
    routes_admin,
    routes_chat,
    routes_facts,
    routes_memory,
    routes_openai,
    routes_profile,
    routes_stream,
)
from omoide.api.auth import KeySource, is_loopback, startup_ring
from omoide.api.dependencies import checked_character
from omoide.api.docs import install_docs
from omoide.api.edge import LimitBody, RefuseUndecodable
from omoide.api.errors import CONFLICT, ERROR_RESPONSES, NOT_FOUND, install_error_handlers
from omoide.api.health import ModelProbe
from omoide.api.mcp.http import McpEndpoint, mcp_endpoint
from omoide.api.runtime import DrainWorker, Service
from omoide.clock import Clock
from omoide.config import Settings, load_settings
from omoide.embed.base import Embedder
from omoide.errors import ConfigError
from omoide.keys import KeyRing, environment_keys
from omoide.llm.base import ChatModel
from omoide.web import mount_web
from omoide.wiring import build

logger = logging.getLogger(__name__)

DESCRIPTION = """\
Long-term memory for AI VTubers and AI companions.

* **Chat**: `POST /v1/chat/stream` streams a character's reply as server-sent events and
  remembers the exchange through a durable queue.
* **OpenAI-compatible**: base URL `/v1`, `POST /v1/chat/completions` (streaming or not) and
  `GET /v1/models`; the model is a character id, the viewer the request's `user`.
* **Memory**: under `/v1/characters/{character_id}/users/{user_id}`: remember turns,
  search with score components, build the prompt's memory section, read the viewer
  profile, correct or delete facts, export or forget everything about a viewer.
* **MCP**: the memory tools over streamable HTTP at `/mcp` (the same as `omoide mcp`).
* **Access**: send `Authorization: Bearer <key>` or `X-API-Key: <key>`. Keys are bound to
  characters (`omoide keys create --character haru`). `/health` needs no key.

Times are ISO 8601 with a timezone, between 1970 and 2200. Ids (character, viewer, session,
stream) are 1-256 characters with no `/`, `\\`, control characters or U+FFFD, and not `.` or
`..`, so every route reaches every id. Text may hold any character but lone surrogates and
control characters other than tab and line breaks (refused with a 422, never stripped).
`/v1/metrics` needs a key for all characters (`*`). Errors are
`{"error": {"type", "message", "details"}}`: 400 for a path, query or body that is not
UTF-8, 422 for anything else that is not valid.
"""
TAGS = [
    {"name": "chat", "description": "Talk with a character (server-sent events)"},
    {"name": "openai", "description": "OpenAI-compatible chat: characters are the models"},
    {"name": "remember", "description": "Store exchanges explicitly (imports, own pipelines)"},
    {"name": "recall", "description": "What a character remembers, and why"},
    {"name": "facts", "description": "What a character believes about a viewer"},
    {"name": "viewers", "description": "Characters, viewers and their stored memories"},
    {"name": "forget", "description": "Delete memories; tombstones keep no content"},
    {"name": "service", "description": "Health, counters and maintenance"},
]


def _package_version() -> str:
    try:
        return version("omoide")
    except PackageNotFoundError:
        return "0.0.0"


def check_exposure(host: str, ring: KeyRing) -> None:
    """Refuse to listen beyond loopback without keys; warn when running without any."""
    if not ring.is_empty:
        return
    if not is_loopback(host):
        raise ConfigError(
            f"refusing to serve on {host!r} without API keys: anyone who can reach it could "
            "read and delete every viewer's memories. Create a key with "
            "`omoide keys create --character <id>` (or set OMOIDE_API_KEYS), "
            "or listen on 127.0.0.1"
        )
    logger.warning(
        "no API keys are configured: omoide answers only on the loopback interface "
        "(127.0.0.1); create keys with `omoide keys create` before listening anywhere else"
    )


async def _run_in(scope: anyio.CancelScope, work: Callable[[], Awaitable[None]]) -> None:
    with scope:
        await work()


def _lifespan(
    settings: Settings,
    *,
    clock: Clock | None,
    chat_model: ChatModel | None,
    embedder: Embedder | None,
    mcp: McpEndpoint,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        built = await build(settings, clock=clock, embedder=embedder, chat_model=chat_model)
        try:
            keys = await KeySource.start(environment_keys(settings), built.keys)
            check_exposure(settings.host, keys.current_ring)
            recovered = await built.drainer.drain_all()
            if recovered:
                logger.info("stored %d chat turns left queued by the last run", recovered)
            async with anyio.create_task_group() as group:
                worker = DrainWorker(built.drainer, group)
                app.state.service = Service(built, keys, worker, ModelProbe(built.chat_model))
                worker.start()
                streams = anyio.CancelScope()
                group.start_soon(_run_in, streams, built.streams.run)
                try:
                    async with mcp.running:
                        yield
                finally:
                    streams.cancel()
                    await worker.stop()
                    del app.state.service
        finally:
            await built.aclose()

    return lifespan


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    chat_model: ChatModel | None = None,
    embedder: Embedder | None = None,
) -> FastAPI:
    """The service for ``settings``; collaborators given here replace what settings name.

    Raises ConfigError for a malformed key and when ``settings.host`` is not loopback while
    no API key exists. In the server profile, whose keys are in PostgreSQL, the lifespan
    checks the keys again once the database is open and refuses to start the same way.
    """
    ring = startup_ring(settings)
    if ring is not None:
        check_exposure(settings.host, ring)
    mcp = mcp_endpoint(host=settings.host)
    app = FastAPI(
        title="omoide",
        summary="Long-term memory engine for AI VTubers and AI companions",
        description=DESCRIPTION,
        version=_package_version(),
        openapi_tags=TAGS,
        docs_url=None,  # served by install_docs, with no CDN
        redoc_url=None,
        lifespan=_lifespan(
            settings, clock=clock, chat_model=chat_model, embedder=embedder, mcp=mcp
        ),
    )
    install_error_handlers(app)
    app.add_middleware(RefuseUndecodable)
    app.add_middleware(LimitBody)
    modules = (
        routes_chat,
        routes_openai,
        routes_memory,
        routes_facts,
        routes_profile,
        routes_admin,
    )
    for module in modules:
        app.include_router(module.router)
    app.include_router(
        routes_stream.router,
        dependencies=[Depends(checked_character)],
        responses={**ERROR_RESPONSES, **NOT_FOUND, **CONFLICT},
    )
    app.router.routes.append(mcp.route)
    mount_web(app)
    install_docs(app)
    return app


def app_from_environment() -> FastAPI:
    """The service configured by ``OMOIDE_*`` variables, for ``uvicorn --factory``."""
    return create_app(load_settings())

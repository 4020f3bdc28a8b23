"""Running the omoide service in tests: in-process (ASGI) or on a real port (uvicorn)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from omoide.api.app import create_app
from omoide.api.runtime import Service
from omoide.character.library import builtin_characters_dir
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.embed.hashing import HashingEmbedder
from omoide.llm.base import ChatModel

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
START_TIMEOUT_SECONDS = 20.0
PROCESS_START_SECONDS = 60.0
LOOPBACK_CLIENT = ("127.0.0.1", 50123)


def make_characters_dir(root: Path, *names: str) -> Path:
    """A characters folder holding copies of Haru under other ids."""
    folder = root / "characters"
    for name in names:
        target = folder / name
        shutil.copytree(builtin_characters_dir() / "haru", target)
        profile = target / "profile.yaml"
        profile.write_text(
            profile.read_text(encoding="utf-8").replace("\nid: haru\n", f"\nid: {name}\n"),
            encoding="utf-8",
        )
    return folder


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"data_dir": data_dir, "embedder": "hashing", "llm": "scripted"}
    values.update(overrides)
    return Settings(**values)


@dataclass
class Api:
    """A running app and an HTTP client for it."""

    app: FastAPI
    client: httpx.AsyncClient
    clock: FixedClock
    settings: Settings

    @property
    def service(self) -> Service:
        service = self.app.state.service
        assert isinstance(service, Service)
        return service


@asynccontextmanager
async def running_api(
    settings: Settings,
    *,
    chat_model: ChatModel | None = None,
    embedder: Embedder | None = None,
    client_address: tuple[str, int] = LOOPBACK_CLIENT,
    headers: dict[str, str] | None = None,
) -> AsyncIterator[Api]:
    """The app with its lifespan running, served in-process through ASGI."""
    clock = FixedClock(NOW)
    app = create_app(
        settings, clock=clock, chat_model=chat_model, embedder=embedder or HashingEmbedder(256)
    )
    transport = httpx.ASGITransport(app=app, client=client_address)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=transport, base_url="http://testserver", headers=headers
        ) as client,
    ):
        yield Api(app, client, clock, settings)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def live_server(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` (lifespan included) with uvicorn on a free port; yields its URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    config = uvicorn.Config(
        app, log_config=None, log_level="warning", access_log=False, lifespan="on",
        loop="asyncio", http="h11", timeout_graceful_shutdown=5,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]})
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the omoide service did not start")
            time.sleep(0.01)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=START_TIMEOUT_SECONDS)
        listener.close()


async def read_events(response: httpx.Response) -> list[dict[str, Any]]:
    """The ``data:`` events of a server-sent event stream, decoded, as they arrive."""
    events: list[dict[str, Any]] = []
    async for line in response.aiter_lines():
        if line.startswith("data: "):
            events.append(json.loads(line.removeprefix("data: ")))
    return events


def viewer_path(character_id: str, user_id: str) -> str:
    return f"/v1/characters/{character_id}/users/{user_id}"


def wait_until_healthy(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Poll ``/health`` of a service started as ``process`` (its output in ``log``)."""
    deadline = time.monotonic() + PROCESS_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the service exited: {log.read_text(errors='replace')}")
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the service did not become healthy: {log.read_text(errors='replace')}")

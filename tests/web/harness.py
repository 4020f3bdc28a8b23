"""The memory browser under test: the real service on a free port, a scripted model.

The service is ``create_app`` with the web page mounted and the stream router (diary,
identity, rolling summaries) included, served by uvicorn in a thread. The stream service
uses the scripted model, whose responder answers each stream task with valid JSON, so
diary entries, identity proposals and rolling summaries exist for the page to show.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from datetime import UTC, datetime
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Final

import pytest
import uvicorn
from fastapi import FastAPI
from pydantic import SecretStr

from omoide.api.app import create_app
from omoide.character.library import builtin_characters_dir
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashingEmbedder
from omoide.llm.base import ChatMessage
from omoide.llm.demo_replies import character_reply
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.diary_prompt import DIARY_TASK
from omoide.stream.evolution import IDENTITY_TASK
from omoide.stream.viewer_prompt import VIEWER_BATCH_TASK
from omoide.web import mount_web

NOW: Final = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CHROMIUM: Final = Path("/usr/bin/chromium")
"""Debian's Chromium (``apt-get install chromium``); Playwright drives it, never its own."""
REQUIRE_BROWSER: Final = os.environ.get("OMOIDE_TEST_BROWSER") == "required"
"""CI sets ``OMOIDE_TEST_BROWSER=required``: there a missing browser fails the tests."""
START_TIMEOUT_SECONDS: Final = 30.0
NEW_LIKES: Final = ("데드락 빌드 연구", "새벽 마라톤 방송")
STREAM_OPTIONS: Final[dict[str, Any]] = {
    "stream_llm": "on",  # the scripted model summarises viewers and writes the diary
    "stream_viewer_batch_size": 3,
    "stream_viewer_idle_seconds": 0.0,
}
_DEFINITION_START = "Your current character definition:\n"
_DEFINITION_END = "\n\nYour diary entry:"
Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[Any]]


def missing_browser() -> str | None:
    """Why headless Chromium cannot run here, or ``None``."""
    if find_spec("playwright") is None:
        return "the web tests need the playwright package (pip install playwright)"
    if not CHROMIUM.exists():
        return f"the web tests need Debian's chromium package ({CHROMIUM})"
    return None


def skip_without_browser(*, module: bool = False) -> None:
    """Skip (the calling module, or test) when no browser can run; fail if it is required."""
    problem = missing_browser()
    if problem is None:
        return
    if REQUIRE_BROWSER:
        pytest.fail(f"OMOIDE_TEST_BROWSER=required, but {problem}", pytrace=False)
    pytest.skip(problem, allow_module_level=module)


def make_characters_dir(root: Path, *names: str) -> Path:
    """A characters folder holding copies of the built-in Haru under other ids."""
    folder = root / "characters"
    for name in names:
        target = folder / name
        shutil.copytree(builtin_characters_dir() / "haru", target)
        profile = target / "profile.yaml"
        text = profile.read_text(encoding="utf-8").replace("\nid: haru\n", f"\nid: {name}\n")
        profile.write_text(text, encoding="utf-8")
    return folder


def _identity_diff(request: str) -> str:
    """Add one new like, and try to rename the character (a protected field: refused)."""
    start = request.index(_DEFINITION_START) + len(_DEFINITION_START)
    profile = json.loads(request[start : request.index(_DEFINITION_END)])
    likes = list(profile["likes"])
    new = next((like for like in NEW_LIKES if like not in likes), None)
    diff: dict[str, object] = {"name": "Someone Else"}
    if new is not None:
        diff["likes"] = [*likes, new]
    return json.dumps(diff, ensure_ascii=False)


def _viewer_batch(request: str) -> str:
    data = json.loads(request)
    name = str(data["viewer_name"])
    summary = f"{name} is a regular who talks about games and late-night snacks."
    return json.dumps({"facts": [], "summary": summary}, ensure_ascii=False)


def stream_responder(messages: Sequence[ChatMessage]) -> str:
    """Valid answers for every stream task; an in-character line for chat."""
    system = messages[0].content if messages else ""
    request = messages[1].content if len(messages) > 1 else ""
    if system.startswith(IDENTITY_TASK):
        return _identity_diff(request)
    if system.startswith(DIARY_TASK):
        entry = "Tonight the chat talked about Deadlock builds and ramen; I felt at home."
        reply = {"entry": entry, "mood": "happy", "topics": ["Deadlock", "ramen"]}
        return json.dumps(reply, ensure_ascii=False)
    if system.startswith(VIEWER_BATCH_TASK):
        return _viewer_batch(request)
    return character_reply(messages)


def make_settings(data_dir: Path, characters_dir: Path, *, api_keys: str | None) -> Settings:
    return Settings(
        data_dir=data_dir,
        embedder="hashing",
        llm="scripted",
        characters_dirs=[characters_dir],
        api_keys=SecretStr(api_keys) if api_keys else None,
        **STREAM_OPTIONS,
    )


def build_app(settings: Settings) -> FastAPI:
    """The service as the lead wires it, plus what the page needs if not wired yet."""
    model = ScriptedChatModel(responder=stream_responder)
    app = create_app(
        settings, clock=FixedClock(NOW), chat_model=model, embedder=HashingEmbedder(256)
    )
    mount_web(app)
    return app


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` (lifespan included) with uvicorn on a free loopback port."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    config = uvicorn.Config(
        app, log_config=None, log_level="warning", access_log=False, lifespan="on",
        loop="asyncio", http="h11", timeout_graceful_shutdown=5,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the omoide service did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=START_TIMEOUT_SECONDS)
        listener.close()

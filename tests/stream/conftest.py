"""One memory store, embedder and character library for the whole stream test session
(building them takes about a second), and per test: a fresh character (a copy of Haru
under a new id), clock, metrics, scripted model and growth logs (``growth``: one per
backend, SQLite and PostgreSQL, so the same tests check both)."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from omoide.character.library import builtin_characters_dir
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashingEmbedder
from omoide.llm.scripted import ScriptedChatModel
from omoide.metrics import Metrics
from omoide.wiring import Omoide, build
from omoide.wiring.storage import GrowthLogs
from tests.stream.growth_backends import GROWTH_BACKENDS, open_growth
from tests.stream.harness import START, Parts, StreamScript

_NUMBERS = itertools.count(1)


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("stream-shared")


@pytest.fixture(scope="module")  # an async fixture kept past its module keeps anyio's
async def shared(shared_dir: Path) -> AsyncIterator[Omoide]:  # test loop: a later anyio.run fails
    settings = Settings(
        data_dir=shared_dir / "data", llm="none", characters_dirs=[shared_dir / "characters"]
    )
    built = await build(settings, clock=FixedClock(START), embedder=HashingEmbedder(256))
    try:
        yield built
    finally:
        await built.aclose()


@pytest.fixture
def cid(shared_dir: Path) -> Iterator[str]:
    """A character of its own for this test: Haru's folder under a new id."""
    character_id = f"haru{next(_NUMBERS)}"
    target = shared_dir / "characters" / character_id
    shutil.copytree(builtin_characters_dir() / "haru", target)
    profile = target / "profile.yaml"
    text = profile.read_text(encoding="utf-8").replace("\nid: haru\n", f"\nid: {character_id}\n")
    profile.write_text(text, encoding="utf-8")
    yield character_id


@pytest.fixture
def script() -> StreamScript:
    return StreamScript()


@pytest.fixture
def model(script: StreamScript) -> ScriptedChatModel:
    return ScriptedChatModel(responder=script)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
async def omoide(
    shared: Omoide, clock: FixedClock, model: ScriptedChatModel, tmp_path: Path
) -> AsyncIterator[Parts]:
    parts = Parts(
        settings=shared.settings,
        clock=clock,
        metrics=Metrics(),
        embedder=shared.embedder,
        store=shared.store,
        characters=shared.characters,
        chat_model=model,
        memory=shared.memory,
        facts=shared.facts,
        growth_path=tmp_path / "growth.sqlite3",
    )
    try:
        yield parts
    finally:
        for growth in parts.opened:
            await growth.aclose()


@pytest.fixture(params=GROWTH_BACKENDS)
async def growth(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GrowthLogs]:
    async with open_growth(request.param, request, tmp_path) as logs:
        yield logs

"""The composition root: stream options from the settings, closing on failure, closing all."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings, load_settings
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import BackendError, ConfigError
from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.events import StreamEvent
from omoide.wiring import Resources, build, stream_config, stream_model
from omoide.wiring.root import PYTHON_GC_THRESHOLDS, SERVICE_GC_THRESHOLDS, settle_heap

pytestmark = pytest.mark.anyio
START = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)


class ClosedModel:
    """The scripted model, noting whether it was closed."""

    def __init__(self) -> None:
        self._inner = ScriptedChatModel()
        self.closed = False

    @property
    def name(self) -> str:
        return self._inner.name

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str:
        return await self._inner.complete(messages, options)

    def stream(self, messages: Sequence[ChatMessage], options: ChatOptions) -> AsyncIterator[str]:
        return self._inner.stream(messages, options)

    async def aclose(self) -> None:
        self.closed = True


def test_the_stream_options_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMOIDE_STREAM_DIARY_EVERY", "7")
    monkeypatch.setenv("OMOIDE_STREAM_VIEWER_IDLE_SECONDS", "0")
    monkeypatch.setenv("OMOIDE_STREAM_LLM", "off")
    settings = load_settings()
    config = stream_config(settings)
    assert (config.diary_every, config.viewer_idle_seconds) == (7, 0.0)
    assert stream_model(settings, ScriptedChatModel()) is None


def test_the_scripted_demo_model_does_stream_work_unless_turned_off() -> None:
    model = ScriptedChatModel()
    assert stream_model(Settings(llm="scripted"), model) is model, "the offline growth loop"
    assert stream_model(Settings(llm="scripted", stream_llm="off"), model) is None
    assert stream_model(Settings(llm="none"), None) is None
    assert stream_model(Settings(llm="scripted", stream_llm="on"), model) is model
    with pytest.raises(ConfigError, match="OMOIDE_STREAM_LLM=on"):
        stream_model(Settings(llm="none", stream_llm="on"), None)


async def test_the_built_stream_service_follows_the_settings(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="hashing", llm="none", stream_diary_every=2)
    built = await build(settings, clock=FixedClock(START), embedder=HashingEmbedder(256))
    try:
        said = [
            StreamEvent(
                f"v{n}", f"Fan {n}", "I love Minecraft builds", START + timedelta(seconds=n)
            )
            for n in range(4)
        ]
        report = await built.streams.ingest("haru", "s1", said)
        assert report.diary_entries_written == 2, "an entry every two comments"
    finally:
        await built.aclose()


async def test_a_build_that_fails_after_the_store_opened_closes_what_it_opened(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path, embedder="hashing")
    settings.queue_path.mkdir(parents=True)  # the turn queue cannot open its file
    model = ClosedModel()
    with pytest.raises(BackendError, match=re.escape(str(settings.queue_path))):  # the build's
        await build(settings, embedder=HashingEmbedder(256), chat_model=model)
    assert model.closed, "the chat model (opened before the store) was closed again"
    assert settings.database_path.exists(), "the store had been opened"


async def test_a_data_dir_that_is_a_file_is_a_config_error_naming_it(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.write_text("not a directory", encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(str(data_dir))) as caught:
        await build(Settings(data_dir=data_dir, llm="none"), embedder=HashingEmbedder(256))
    assert isinstance(caught.value.__cause__, OSError)


async def test_closing_closes_everything_and_raises_one_error_naming_each_failure() -> None:
    closed: list[str] = []
    resources = Resources()

    async def close(name: str, *, fails: bool = False) -> None:
        closed.append(name)
        if fails:
            raise BackendError(f"{name} is gone")

    resources.add("store", lambda: close("store"))
    resources.add("queue", lambda: close("queue", fails=True))
    resources.add("growth", lambda: close("growth", fails=True))
    resources.add("states", lambda: close("states"))
    with pytest.raises(BackendError) as raised:
        await resources.aclose()
    assert closed == ["states", "growth", "queue", "store"], "newest first, all of them"
    assert "growth: growth is gone" in str(raised.value)
    assert "queue: queue is gone" in str(raised.value)
    await resources.aclose()  # closed once: nothing left to close
    assert closed == ["states", "growth", "queue", "store"]


@pytest.mark.parametrize("centre", [True, False])
async def test_recall_searches_with_centred_queries_when_a_centroid_ships(
    tmp_path: Path, centre: bool
) -> None:
    """The relevance scale is calibrated on the queries recall searches with: centred
    ones for the default model (a centroid ships for it), plain ones when turned off."""
    settings = Settings(
        data_dir=tmp_path, embedder="use", embedder_worker=False, llm="none", centre_queries=centre
    )
    built = await build(settings)
    try:
        keys = list(json.loads((tmp_path / "relevance.json").read_text(encoding="utf-8")))
    finally:
        await built.aclose()
    assert len(keys) == 1
    assert keys[0].endswith("|plain") is not centre
    assert ("|centred:" in keys[0]) is centre


async def test_building_settles_the_heap_once(tmp_path: Path) -> None:
    gc.unfreeze()  # as in a fresh process (an earlier test may have built)
    gc.set_threshold(*PYTHON_GC_THRESHOLDS)
    app = await build(Settings(data_dir=tmp_path, llm="none"), embedder=HashingEmbedder())
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        assert gc.get_threshold() == SERVICE_GC_THRESHOLDS
        later = [[index] for index in range(1000)]  # alive at the next settle
        settle_heap()
        # frozen objects may die meanwhile (the count drops), later ones are not frozen
        assert gc.get_freeze_count() < frozen + len(later), "frozen once, not again"
    finally:
        await app.aclose()


def test_a_host_applications_own_collector_settings_are_kept() -> None:
    before = gc.get_threshold()
    gc.set_threshold(1234, 5, 5)
    try:
        settle_heap()
        assert gc.get_threshold() == (1234, 5, 5)
    finally:
        gc.set_threshold(*before)

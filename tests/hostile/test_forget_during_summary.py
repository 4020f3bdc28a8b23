"""A viewer forgotten while the model reads their stream comments: the batch's answer
(facts learned, a summary, its source episode) is written to nowhere, and no file keeps
the marker once the service stops."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.embed.hashing import HashingEmbedder
from omoide.llm.base import ChatMessage, ChatOptions
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.events import events_from_json
from omoide.stream.viewer_prompt import VIEWER_BATCH_TASK
from omoide.wiring import build
from tests.api.harness import NOW, make_settings
from tests.hostile.forget_paths import (
    CHARACTER,
    SCOPE,
    VIEWER,
    events,
    files_holding,
    respond,
    with_stream_model,
)

pytestmark = pytest.mark.anyio


class ForgetsWhileReading:
    """The scripted model, which runs ``during`` (once) before answering a viewer batch."""

    def __init__(self) -> None:
        self._inner = ScriptedChatModel(responder=respond)
        self.during: Callable[[], Awaitable[object]] | None = None

    @property
    def name(self) -> str:
        return self._inner.name

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str:
        if messages[0].content.startswith(VIEWER_BATCH_TASK) and self.during is not None:
            during, self.during = self.during, None
            await during()
        return await self._inner.complete(messages, options)

    def stream(self, messages: Sequence[ChatMessage], options: ChatOptions) -> AsyncIterator[str]:
        return self._inner.stream(messages, options)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def test_a_batch_answered_after_the_forget_keeps_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    model = ForgetsWhileReading()
    settings = with_stream_model(make_settings(data), stream_diary_every=1000)
    built = await build(settings, clock=FixedClock(NOW), embedder=HashingEmbedder(256),
                        chat_model=model)  # fmt: skip
    try:
        model.during = lambda: built.viewer_data.forget_viewer(SCOPE)
        mine = [event for event in events(0, count=6) if event["viewer_id"] == VIEWER]
        await built.streams.ingest(CHARACTER, "night-1", events_from_json(mine))
        report = await built.streams.drain()
        assert report.viewers.batches == 1 and model.during is None
        left = await built.viewer_data.export_viewer(SCOPE)
        assert (left.memory.episodes, left.memory.facts) == ((), ())
        assert (left.stream.comments, left.stream.summary, left.stream.learned) == ((), None, ())
    finally:
        await built.aclose()
    assert files_holding(data) == {}

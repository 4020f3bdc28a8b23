"""The viewer-data use case through the library: what a chat leaves (state, session
history, a queued turn) is exported, then forgotten; only a viewer's scope is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.chat.conversation import ChatRequest
from omoide.clock import FixedClock
from omoide.domain import Scope
from omoide.embed.cache import CachedQueryEmbedder
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import InvalidInput
from omoide.llm.scripted import ScriptedChatModel
from omoide.wiring import build
from tests.api.harness import NOW, make_settings

pytestmark = pytest.mark.anyio
VIEWER = Scope("haru", "minjun")


async def test_a_chat_is_exported_then_forgotten_everywhere(tmp_path: Path) -> None:
    model = ScriptedChatModel(default_reply="Nice! [EMOTION:happy]")
    built = await build(make_settings(tmp_path), clock=FixedClock(NOW),
                        embedder=HashingEmbedder(256), chat_model=model)  # fmt: skip
    try:
        assert built.conversation is not None
        request = ChatRequest("haru", "minjun", "Minjun", "s1", "I adopted a cat named Mochi")
        prepared = await built.conversation.prepare(request)
        async for _ in built.conversation.stream(prepared):
            pass
        shown = await built.viewer_data.export_viewer(VIEWER)
        assert shown.sessions["s1"][0].content == request.message
        assert shown.state is not None and len(shown.queued_turns) == 1
        assert isinstance(built.embedder, CachedQueryEmbedder)
        assert built.embedder.stats.entries >= 1, "the recall embedded the message"
        report = await built.viewer_data.forget_viewer(VIEWER)
        assert report.queued_turns == 1 and built.embedder.stats.entries == 0
        gone = await built.viewer_data.export_viewer(VIEWER)
        assert (gone.sessions, gone.state, gone.queued_turns) == ({}, None, ())
        assert gone.memory.episodes == () and gone.stream.comments == ()
        with pytest.raises(InvalidInput):
            await built.viewer_data.forget_viewer(Scope("haru"))
    finally:
        await built.aclose()

"""Stream test helpers, and a scripted-model responder for every stream task.

Queued raw replies per task come first (to script malformed answers); then defaults:
a viewer batch adds the fact "goes by <viewer name>" and a summary, a diary entry repeats
the digest's topic line, an identity proposal answers ``identity_diff``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from omoide.character.identity import IdentityPolicy, IdentityService
from omoide.character.library import CharacterLibrary
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.llm.base import ChatMessage, ChatModel
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.manager import MemoryManager
from omoide.metrics import Metrics
from omoide.store.sqlite.growth import SqliteGrowthStore
from omoide.stream.config import StreamConfig
from omoide.stream.diary_prompt import DIARY_TASK
from omoide.stream.events import StreamEvent
from omoide.stream.evolution import IDENTITY_TASK
from omoide.stream.service import StreamService
from omoide.stream.viewer_prompt import VIEWER_BATCH_TASK
from omoide.wiring import StreamParts, build_streams
from omoide.wiring.storage import MemoryBackend

START = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)


@dataclass
class Parts:
    """What a stream service is built from, per test: the session's store, embedder, fact
    keeper and characters; this test's clock, metrics, model and growth store file."""

    settings: Settings
    clock: FixedClock
    metrics: Metrics
    embedder: Embedder
    store: MemoryBackend
    characters: CharacterLibrary
    chat_model: ChatModel | None
    memory: MemoryManager
    facts: FactKeeper
    growth_path: Path
    opened: list[SqliteGrowthStore] = field(default_factory=list)
    """Growth stores the test's services opened (closed when the test ends)."""


async def open_service(
    parts: Parts, *, use_llm: bool = True, config: StreamConfig | None = None
) -> StreamService:
    """A stream service of this test, built by the composition root's stream builder."""
    growth = SqliteGrowthStore(parts.growth_path)
    parts.opened.append(growth)
    identity = IdentityService(
        store=growth.identity,
        characters=parts.characters,
        policy=IdentityPolicy(),
        clock=parts.clock,
        metrics=parts.metrics,
    )
    shared = StreamParts(
        parts.store, parts.embedder, parts.facts, identity, growth, parts.characters,
        parts.clock, parts.metrics,
    )  # fmt: skip
    return build_streams(shared, config or StreamConfig(), parts.chat_model if use_llm else None)


def comments(
    texts: Sequence[str], *, viewer: str = "v1", name: str = "Viewer", start: datetime = START
) -> list[StreamEvent]:
    return [
        StreamEvent(viewer, name, text, start + timedelta(seconds=index), "twitch")
        for index, text in enumerate(texts)
    ]


@dataclass
class StreamScript:
    viewer_replies: deque[str] = field(default_factory=deque)
    diary_replies: deque[str] = field(default_factory=deque)
    identity_replies: deque[str] = field(default_factory=deque)
    identity_diff: dict[str, object] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)

    def __call__(self, messages: Sequence[ChatMessage]) -> str:
        system, request = messages[0].content, messages[1].content
        if system.startswith(VIEWER_BATCH_TASK):
            self.asked.append("viewer")
            return self._next(self.viewer_replies) or self._viewer(request)
        if system.startswith(DIARY_TASK):
            self.asked.append("diary")
            return self._next(self.diary_replies) or self._diary(request)
        if system.startswith(IDENTITY_TASK):
            self.asked.append("identity")
            return self._next(self.identity_replies) or json.dumps(self.identity_diff)
        raise AssertionError(f"unexpected prompt: {system[:80]}")

    @staticmethod
    def _next(queue: deque[str]) -> str | None:
        return queue.popleft() if queue else None

    @staticmethod
    def _viewer(request: str) -> str:
        data = json.loads(request)
        name = data["viewer_name"]
        fact = {
            "action": "add",
            "fact": f"goes by {name}",
            "category": "personal",
            "confidence": 0.9,
            "importance": 0.6,
            "stated": True,
            "target": None,
        }
        return json.dumps({"facts": [fact], "summary": f"{name} chats in streams."})

    @staticmethod
    def _diary(request: str) -> str:
        topics = [line for line in request.splitlines() if line.startswith("Topics:")]
        entry = "What a stream tonight. " + " ".join(topics)
        return json.dumps({"entry": entry, "mood": "happy", "topics": []}, ensure_ascii=False)

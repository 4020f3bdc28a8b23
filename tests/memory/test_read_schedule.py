"""Recall reads the same memories whether the store's reads follow the query embedding (the
embedded store) or run while it is embedded (a server store): only the schedule differs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope
from omoide.memory.recall import Recaller
from omoide.memory.relevance import cached_relevance_floor
from omoide.memory.tokens import ApproximateTokenCounter
from omoide.wiring import Omoide, build
from omoide.wiring.recall import memory_config

pytestmark = pytest.mark.anyio

START = datetime(2025, 3, 1, 12, tzinfo=UTC)
MINA = Scope("haru", "mina")
TOLD = (
    ("우리 집 강아지 이름은 보리예요", "보리 귀엽겠다!"),
    ("I'm allergic to peanuts, so no satay for me", "Noted, no peanuts."),
    ("来週、大阪に引っ越すんだ", "引っ越し大変だね"),
    ("我下周要考驾照了，有点紧张", "加油！"),
    ("오늘 비 와요", "우산 챙겨요"),
    ("Started playing Hollow Knight again, every night", "Which boss now?"),
    ("ㅋㅋㅋ", "ㅎㅎ"),
)
MESSAGES = (
    "산책 다녀왔어요",
    "what should I cook tonight?",
    "引っ越しの準備が終わらない",
    "这周好忙",
    "gn",
    "Hollow Knight boss is so hard",
    "",
)


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    built = await build(Settings(data_dir=tmp_path, embedder="hashing"), clock=FixedClock(START))
    try:
        for day, (user, bot) in enumerate(TOLD):
            moment = START - timedelta(days=len(TOLD) - day)
            await built.memory.store_interaction(MINA, user, bot, timestamp=moment)
        yield built
    finally:
        await built.aclose()


async def recaller(app: Omoide, *, reads_while_embedding: bool) -> Recaller:
    floors = await cached_relevance_floor(app.embedder, app.settings.data_dir / "relevance.json")
    return Recaller(
        store=app.store,
        embedder=app.embedder,
        counter=ApproximateTokenCounter(),
        config=memory_config(app.settings),
        clock=app.clock,
        floors=floors,
        reads_while_embedding=reads_while_embedding,
    )


async def test_both_schedules_find_rank_and_render_the_same(app: Omoide) -> None:
    serial = await recaller(app, reads_while_embedding=False)
    overlapped = await recaller(app, reads_while_embedding=True)
    now = START + timedelta(hours=1)

    shown_any = 0
    for message in MESSAGES:
        for for_prompt in (True, False):
            first, searched = await serial.look_up(MINA, message, now=now, for_prompt=for_prompt)
            second, searched_too = await overlapped.look_up(
                MINA, message, now=now, for_prompt=for_prompt
            )
            assert (first, searched) == (second, searched_too), message
        shown = await serial.recall(MINA, message, now=now)
        shown_too = await overlapped.recall(MINA, message, now=now)
        assert shown.rendered == shown_too.rendered, message
        shown_any += bool(shown.rendered.episode_ids)
    assert shown_any  # the messages do call memories up

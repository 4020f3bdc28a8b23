"""Rereading: episodes stored by code whose readings differ get this code's readings once
(``omoide reread``), and what a reply reads from them does not change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Scope
from omoide.errors import InvalidInput
from omoide.memory.episode_readings import kept_readings
from omoide.memory.rereading import reread_episodes
from omoide.store.base import EpisodeFilter
from omoide.wiring import Omoide, build
from tests.memory.test_episode_readings import readings_kept, readings_of_words

pytestmark = pytest.mark.anyio

START = datetime(2025, 3, 1, 12, tzinfo=UTC)
MINA = Scope("haru", "mina")
JUN = Scope("haru", "jun")
OTHER_CHARACTER = Scope("rin", "mina")
OLD_FORMAT = '["1/1/9.0.0", "likes", false, "", "old", "\\"old\\""]'
TURNS = (
    (MINA, "우리 집 강아지 이름은 보리예요", "보리 귀엽겠다!"),
    (MINA, "I'm allergic to peanuts, so no satay for me", "Noted, no peanuts."),
    (JUN, "来週から忙しくなる", "がんばって"),
    (OTHER_CHARACTER, "我在一家书店工作", "好棒"),
)


def settings(directory: Path) -> Settings:
    return Settings(data_dir=directory, embedder="hashing", llm="none", embedder_worker=False)


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    built = await build(settings(tmp_path), clock=FixedClock(START + timedelta(days=1)))
    try:
        for index, (scope, user, bot) in enumerate(TURNS):
            at = START + timedelta(minutes=index)
            await built.memory.store_interaction(scope, user, bot, timestamp=at)
        yield built
    finally:
        await built.aclose()


async def episodes_of(app: Omoide, scope: Scope) -> list[Episode]:
    return await app.store.list_episodes(scope, where=EpisodeFilter(), limit=100)


async def age(app: Omoide, scope: Scope, readings: str) -> None:
    """Make ``scope``'s episodes look written by older code."""
    stored = await episodes_of(app, scope)
    await app.store.replace_episode_readings(
        scope, {item.id: (item.readings, readings) for item in stored}
    )


async def test_old_readings_are_read_again_once_and_replies_read_the_same(app: Omoide) -> None:
    await age(app, MINA, OLD_FORMAT)
    await age(app, JUN, "not json at all")
    before = {scope: await episodes_of(app, scope) for scope in (MINA, JUN)}
    assert all(kept_readings(item) is None for items in before.values() for item in items)
    told: list[tuple[int, int]] = []

    report = await reread_episodes(app.store, "haru", page=1, progress=lambda *n: told.append(n))

    assert (report.scanned, report.reread) == (3, 3)
    assert told == [(1, 1), (2, 2), (3, 3)]
    for scope, items in before.items():
        after = {item.id: item for item in await episodes_of(app, scope)}
        for item in items:
            assert kept_readings(after[item.id]) is not None
            assert readings_kept(after[item.id]) == readings_of_words(item)
    again = await reread_episodes(app.store, "haru")
    assert (again.scanned, again.reread) == (3, 0)


async def test_current_readings_and_other_characters_are_left_alone(app: Omoide) -> None:
    await age(app, OTHER_CHARACTER, OLD_FORMAT)
    kept = {item.id: item.readings for item in await episodes_of(app, MINA)}

    report = await reread_episodes(app.store, "haru")

    assert (report.scanned, report.reread) == (3, 0)
    assert {item.id: item.readings for item in await episodes_of(app, MINA)} == kept
    other = await episodes_of(app, OTHER_CHARACTER)
    assert [item.readings for item in other] == [OLD_FORMAT]


@pytest.mark.parametrize("page", [0, -1, True, 1.5])
async def test_a_page_must_be_a_positive_count(app: Omoide, page: object) -> None:
    with pytest.raises(InvalidInput, match="page"):
        await reread_episodes(app.store, "haru", page=page)  # type: ignore[arg-type]

"""Facts kept by slot through the real FactKeeper on a real SQLite store: updates supersede,
and a person's correction sticks when the viewer repeats the old sentence (per-turn and
batch paths alike)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import FactCategory, Scope, TrustState, TurnInput
from omoide.memory.facets import Facet, facet_of
from omoide.wiring import Omoide, build
from tests.memory.test_batched_ingest import START, CountingEmbedder

VIEWER = Scope("haru", "dana")


async def open_app(directory: Path, *, batch_limit: int) -> Omoide:
    settings = Settings(data_dir=directory, embedder="hashing", fact_batch_limit=batch_limit)
    clock = FixedClock(START + timedelta(days=30))
    return await build(settings, clock=clock, embedder=CountingEmbedder())


async def say(app: Omoide, *messages: str, minute: int = 0) -> None:
    turns = [
        TurnInput(VIEWER, text, "응!", timestamp=START + timedelta(minutes=minute + i))
        for i, text in enumerate(messages)
    ]
    await app.memory.store_interactions("haru", [replace_force(turn) for turn in turns])


def replace_force(turn: TurnInput) -> TurnInput:
    return TurnInput(
        turn.scope, turn.user_message, turn.bot_message, timestamp=turn.timestamp, force_store=True
    )


async def current_texts(app: Omoide) -> list[str]:
    return sorted(fact.text for fact in await app.memory.list_facts(VIEWER))


@pytest.mark.anyio
@pytest.mark.parametrize("batch_limit", [0, 256])
async def test_a_new_value_of_a_slot_supersedes_the_old(tmp_path: Path, batch_limit: int) -> None:
    app = await open_app(tmp_path, batch_limit=batch_limit)
    try:
        await say(app, "저 요즘 대전에 살아요", "I'm into Hades lately, playing every night")
        await say(app, "저 이제 광주에 살아요", "I quit Hades", minute=10)
        assert await current_texts(app) == ["I quit Hades", "저 이제 광주에 살아요"]
        (home,) = [f for f in await app.memory.list_facts(VIEWER) if f.slot == "home"]
        assert home.terms == ("광주",)
        assert facet_of(home) is Facet.IDENTITY
    finally:
        await app.aclose()


@pytest.mark.anyio
@pytest.mark.parametrize("batch_limit", [0, 256])
async def test_a_change_of_work_ends_what_was_told_of_the_work_left(
    tmp_path: Path, batch_limit: int
) -> None:
    app = await open_app(tmp_path, batch_limit=batch_limit)
    try:
        await say(app, "영화관 알바 해요", "영화관 마감조라 맨날 새벽에 끝남", "저 대전에 살아요")
        await say(app, "알바 옮김!! 이제 볼링장에서 일함", minute=10)
        assert await current_texts(app) == ["알바 옮김 이제 볼링장에서 일함", "저 대전에 살아요"]
        versions = await app.memory.list_facts(VIEWER, include_inactive=True)
        (shift,) = [f for f in versions if f.text.startswith("영화관 마감조")]
        assert shift.superseded_at == START + timedelta(minutes=10)
        assert shift.trust is not TrustState.CONTRADICTED  # it held until then
        await say(app, "영화관 마감조라 맨날 새벽에 끝남", minute=20)  # said again: heard
        assert "영화관 마감조라 맨날 새벽에 끝남" in await current_texts(app)
    finally:
        await app.aclose()


@pytest.mark.anyio
@pytest.mark.parametrize("batch_limit", [0, 256])
async def test_a_corrected_fact_is_not_added_back_when_repeated(
    tmp_path: Path, batch_limit: int
) -> None:
    app = await open_app(tmp_path, batch_limit=batch_limit)
    try:
        await say(app, "我家养了一只猫叫咪咪")
        (wrong,) = await app.memory.list_facts(VIEWER)
        await app.memory.correct_fact(VIEWER, wrong.id, text="我家养了一只猫叫咪咪 (其实叫米米)")
        await say(app, "我家养了一只猫叫咪咪", minute=5)
        assert await current_texts(app) == ["我家养了一只猫叫咪咪 (其实叫米米)"]
        versions = await app.memory.list_facts(VIEWER, include_inactive=True)
        old = next(f for f in versions if f.id == wrong.id)
        assert old.trust is TrustState.CONTRADICTED
        await say(app, "我家养了一只猫叫米米", minute=9)  # a new statement is still heard
        assert "我家养了一只猫叫米米" in await current_texts(app)
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_slot_and_terms_survive_the_store(tmp_path: Path) -> None:
    app = await open_app(tmp_path, batch_limit=256)
    try:
        await say(app, "来週の水曜日に面接があります")
        (plan,) = await app.memory.list_facts(VIEWER)
        assert (plan.slot, plan.terms) == ("plan:interview", ("来週の水曜日", "面接"))
        assert plan.text == "来週の水曜日に面接があります"
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_a_fact_typed_by_a_person_is_typed_as_a_viewer_would_be(tmp_path: Path) -> None:
    app = await open_app(tmp_path, batch_limit=0)
    try:
        typed = await app.memory.add_fact(VIEWER, "땅콩 알레르기가 있어요", FactCategory.PERSONAL)
        assert (typed.slot, typed.terms, facet_of(typed)) == (
            "allergy:땅콩",
            ("땅콩",),
            Facet.HEALTH,
        )
        kept = await app.memory.add_fact(VIEWER, "likes quiet mornings", FactCategory.HABIT)
        assert (kept.slot, kept.category) == (None, FactCategory.HABIT)
        fixed = await app.memory.correct_fact(VIEWER, typed.id, text="我对花生过敏")
        assert (fixed.slot, fixed.terms, fixed.category) == (
            "allergy:花生",
            ("花生",),
            FactCategory.PERSONAL,
        )
        current = {fact.id: fact.slot for fact in await app.memory.list_facts(VIEWER)}
        assert current == {kept.id: None, fixed.id: "allergy:花生"}
    finally:
        await app.aclose()

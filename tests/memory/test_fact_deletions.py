"""A person's deletion of a fact sticks, through the real MemoryManager on a real SQLite
store, per turn and in batches alike: the viewer repeating the sentence (or writing it
another way that reads the same) does not bring it back, while a new value of the slot and
another viewer's same sentence are learned; the tombstone keeps digests, never the words,
and forgetting the viewer removes them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope, TurnInput
from omoide.memory.facts.digests import fact_digests
from omoide.wiring import Omoide, build
from tests.memory.test_batched_ingest import START, CountingEmbedder, fact_summary

pytestmark = pytest.mark.anyio

DANA = Scope("haru", "dana")
EMMA = Scope("haru", "emma")
BATCH_LIMITS = pytest.mark.parametrize("batch_limit", [0, 256])


async def open_app(directory: Path, *, batch_limit: int) -> Omoide:
    settings = Settings(data_dir=directory, embedder="hashing", fact_batch_limit=batch_limit)
    clock = FixedClock(START + timedelta(days=30))
    return await build(settings, clock=clock, embedder=CountingEmbedder())


async def say(app: Omoide, scope: Scope, *messages: str, minute: int = 0) -> None:
    """The viewer's messages, stored together (one batch when batching is on)."""
    await app.memory.store_interactions(
        "haru", [said(scope, text, minute + i) for i, text in enumerate(messages)]
    )


def said(scope: Scope, text: str, minute: int) -> TurnInput:
    moment = START + timedelta(minutes=minute)
    turn_id = f"{scope.user_id}-{minute}"
    return TurnInput(scope, text, "응!", timestamp=moment, turn_id=turn_id, force_store=True)


async def texts(app: Omoide, scope: Scope) -> list[str]:
    return sorted(fact.text for fact in await app.memory.list_facts(scope))


async def delete_only_fact(app: Omoide, scope: Scope) -> str:
    (only,) = await app.memory.list_facts(scope)
    await app.memory.delete_fact(scope, only.id)
    return only.text


@BATCH_LIMITS
async def test_a_deleted_fact_is_not_added_back_when_repeated(
    tmp_path: Path, batch_limit: int
) -> None:
    app = await open_app(tmp_path, batch_limit=batch_limit)
    try:
        await say(app, DANA, "저 요즘 대전에 살아요")
        assert await delete_only_fact(app, DANA) == "저 요즘 대전에 살아요"
        await say(app, DANA, "저 요즘 대전에 살아요", minute=5)
        await say(app, DANA, "저 요즘  대전에 살아요!!", "저 대전에 살고 있어요", minute=6)
        assert await texts(app, DANA) == []  # the same text, and the same slot and value
        await say(app, DANA, "저 이제 광주에 살아요", minute=9)  # a new value is still heard
        assert await texts(app, DANA) == ["저 이제 광주에 살아요"]
        await say(app, EMMA, "저 요즘 대전에 살아요", minute=10)  # another viewer's own words
        assert await texts(app, EMMA) == ["저 요즘 대전에 살아요"]
    finally:
        await app.aclose()


@BATCH_LIMITS
async def test_a_repeat_differing_in_case_width_spacing_and_punctuation_stays_deleted(
    tmp_path: Path, batch_limit: int
) -> None:
    app = await open_app(tmp_path, batch_limit=batch_limit)
    try:
        await say(app, DANA, "I live in Seoul")
        await delete_only_fact(app, DANA)
        await say(app, DANA, "i live in SEOUL!!", "ｉ ｌｉｖｅ ｉｎ ｓｅｏｕｌ", minute=5)
        await say(app, DANA, "I live in  Seoul.", minute=7)
        assert await texts(app, DANA) == []
        await say(app, DANA, "I live in Busan", minute=9)
        assert await texts(app, DANA) == ["I live in Busan"]
    finally:
        await app.aclose()


@BATCH_LIMITS
async def test_forgetting_the_viewer_forgets_the_deletion_too(
    tmp_path: Path, batch_limit: int
) -> None:
    app = await open_app(tmp_path, batch_limit=batch_limit)
    try:
        await say(app, DANA, "我家养了一只猫叫咪咪")
        (pet,) = await app.memory.list_facts(DANA)
        digests = fact_digests(DANA, pet.text, pet.slot, pet.terms)
        await app.memory.delete_fact(DANA, pet.id)
        assert await app.store.deleted_fact_digests(DANA, digests) == set(digests)
        export = await app.memory.export_viewer(DANA)
        assert not any(digest in repr(export) for digest in digests)
        assert "咪咪" not in repr((export.facts, export.tombstones))

        await app.memory.forget_viewer(DANA)

        assert await app.store.deleted_fact_digests(DANA, digests) == set()
        await say(app, DANA, "我家养了一只猫叫咪咪", minute=5)  # a new start: heard again
        assert await texts(app, DANA) == ["我家养了一只猫叫咪咪"]
    finally:
        await app.aclose()


async def test_per_turn_and_batched_keeping_agree_after_deletions(tmp_path: Path) -> None:
    conversation = [
        (DANA, "I love tea"),
        (EMMA, "I love tea"),
        (DANA, "I work as a nurse"),
        (DANA, "I really love tea"),
        (EMMA, "I work as a nurse"),
        (DANA, "I love tea so much"),
        (DANA, "I work as a teacher"),
        (EMMA, "I hate tea"),
        (DANA, "I hate tea"),
    ]
    results = []
    for batch_limit in (0, 256):
        app = await open_app(tmp_path / str(batch_limit), batch_limit=batch_limit)
        try:
            await say(app, DANA, "I love tea", "I work as a nurse")
            for fact in await app.memory.list_facts(DANA):
                await app.memory.delete_fact(DANA, fact.id)
            for minute, (scope, text) in enumerate(conversation, start=10):
                await say(app, scope, text, minute=minute)  # one turn at a time
            await app.memory.store_interactions(  # all in one batch
                "haru", [said(scope, text, 60 + i) for i, (scope, text) in enumerate(conversation)]
            )
            results.append(
                [
                    fact_summary(await app.memory.list_facts(scope, include_inactive=True))
                    for scope in (DANA, EMMA)
                ]
            )
            assert await texts(app, DANA) == ["I hate tea", "I work as a teacher"]
            versions = await app.memory.list_facts(DANA, include_inactive=True)
            assert {fact.text for fact in versions} == {"I hate tea", "I work as a teacher"}
        finally:
            await app.aclose()
    assert results[0] == results[1]

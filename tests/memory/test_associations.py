"""Told exchanges a message calls up by what they are about (:mod:`omoide.memory.associations`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Scope
from omoide.memory.associations import AssociationConfig, lift_associated
from omoide.memory.episode_readings import memory_facets
from omoide.memory.facets import Facet
from omoide.memory.ranking import Relevance
from omoide.wiring import Omoide, build

START = datetime(2025, 3, 1, 12, tzinfo=UTC)
MINA = Scope("haru", "mina")
JUN = Scope("haru", "jun")
CORGI = "Mochi pulled so hard at the river path, corgi energy is unreal"


@pytest.mark.parametrize(
    ("text", "facet"),
    [
        ("my dog Mochi chewed my shoes again", Facet.PEOPLE),
        ("I'm allergic to shellfish so no shrimp for me", Facet.HEALTH),
        ("우리 집 고양이 나비가 또 키보드 밟음", Facet.PEOPLE),
        ("花粉やばい、今年も死んでる", Facet.HEALTH),
        ("我姐下个月结婚", Facet.PLANS),
        ("来週、面接がある", Facet.PLANS),
    ],
)
def test_a_remembered_message_is_about_the_groups_its_words_name(text: str, facet: Facet) -> None:
    assert facet in memory_facets(text)


def test_small_talk_names_no_group_of_the_profile() -> None:
    assert memory_facets("ㅋㅋㅋ 오늘 방송 재밌네요") == frozenset()


def episode(key: str, text: str, importance: float, *, day: int = 0) -> Episode:
    return Episode(
        id=key,
        scope=MINA,
        user_message=text,
        bot_message="",
        recorded_at=START + timedelta(days=day),
        importance=importance,
    )


def test_only_told_exchanges_of_a_cued_group_are_lifted_at_most_the_limit_and_never_lowered() -> (
    None
):
    episodes = {
        "dog": episode("dog", "my dog Mochi chewed my shoes", 0.7),
        "cat": episode("cat", "my cat Nabi sleeps on my keyboard", 0.7, day=3),
        "idle": episode("idle", "my dog is so cute lol", 0.3),
        "exam": episode("exam", "I have my bar exam next Friday", 0.7),
        "matched": episode("matched", "walked my dog by the river", 0.7),
    }
    relevance = {
        "matched": Relevance(0.6, cosine=0.5),
        "cat": Relevance(0.05, cosine=0.2),
        "dog": Relevance(0.01, cosine=0.1),
        "idle": Relevance(0.0, bm25=0.1),
        "exam": Relevance(0.0, cosine=0.05),
    }

    cued = frozenset({Facet.PEOPLE, Facet.PLANS})
    lifted = lift_associated(relevance, episodes, cued, config=AssociationConfig(limit=1))

    assert lifted["cat"] == Relevance(0.2, cosine=0.2, associated=True)
    assert lifted["matched"] == relevance["matched"]
    for unchanged in ("dog", "idle", "exam"):  # told before the cat, small talk, over the limit
        assert lifted[unchanged] == relevance[unchanged]
    only_plans = lift_associated(
        relevance, episodes, frozenset({Facet.PLANS}), config=AssociationConfig()
    )
    assert only_plans["exam"].associated and not only_plans["cat"].associated
    assert (
        lift_associated(relevance, episodes, frozenset(), config=AssociationConfig()) == relevance
    )


def test_an_exchange_replaced_by_a_later_one_about_the_same_thing_is_not_lifted() -> None:
    # the old job names a habit the message cues; the new job does not: neither is lifted
    old = episode("old", "I work at an izakaya, every night I yell welcome", 0.7)
    new = episode("new", "switched jobs! I work at the university library now", 0.7, day=9)
    relevance = {"old": Relevance(0.0, cosine=0.2), "new": Relevance(0.0, cosine=0.1)}

    lifted = lift_associated(
        relevance, {"old": old, "new": new}, frozenset({Facet.HABITS}), config=AssociationConfig()
    )

    assert lifted == relevance


def test_of_two_told_exchanges_about_one_group_the_later_is_lifted() -> None:
    first = episode("first", "the wedding is on the 12th, my sister is so nervous", 0.7)
    later = replace(
        episode("later", "oops the wedding is on the 19th, my sister corrected me", 0.7),
        recorded_at=START + timedelta(days=2),
    )
    relevance = {"first": Relevance(0.05, cosine=0.2), "later": Relevance(0.01, cosine=0.1)}

    lifted = lift_associated(
        relevance,
        {"first": first, "later": later},
        frozenset({Facet.PEOPLE}),
        config=AssociationConfig(),
    )

    assert lifted["later"].associated
    assert lifted["first"] == relevance["first"]


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    settings = Settings(data_dir=tmp_path, embedder="hashing", llm="none")
    built = await build(settings, clock=FixedClock(START + timedelta(days=30)))
    try:
        yield built
    finally:
        await built.aclose()


async def tell(app: Omoide, scope: Scope, *, importance: float) -> None:
    small_talk = ["오늘 방송 재밌네요", "that boss fight was wild", "草", "nice play", "gg"]
    for day, text in enumerate(small_talk):
        await app.memory.store_interaction(
            scope, text, "ehehe", timestamp=START + timedelta(days=day), force_store=True
        )
    await app.memory.store_interaction(
        scope, CORGI, "so cute!", timestamp=START + timedelta(days=9), importance=importance
    )


@pytest.mark.anyio
async def test_a_walk_brings_up_the_told_dog_that_no_search_finds_alike(app: Omoide) -> None:
    await tell(app, MINA, importance=0.7)
    facts = await app.memory.list_facts(MINA)
    assert not any("Mochi" in fact.text for fact in facts)  # the premise: not a profile fact

    walk = await app.memory.retrieve_context(MINA, "heading out for a walk before it rains")
    quiet = await app.memory.retrieve_context(MINA, "what a strange day it has been")

    shown = [entry for entry in walk.context.episodes if entry.item.user_message == CORGI]
    assert shown and shown[0].components.associated
    assert shown[0].components.cosine is not None and shown[0].components.cosine < 0.3
    assert "Mochi" in walk.rendered.text
    assert "Mochi" not in quiet.rendered.text


@pytest.mark.anyio
async def test_the_same_words_said_as_small_talk_are_not_called_up(app: Omoide) -> None:
    await tell(app, JUN, importance=0.3)

    walk = await app.memory.retrieve_context(JUN, "heading out for a walk before it rains")

    assert "Mochi" not in walk.rendered.text


@pytest.mark.anyio
async def test_inspection_ranks_by_search_relevance_alone(app: Omoide) -> None:
    await tell(app, MINA, importance=0.7)

    inspected = await app.memory.search(MINA, "heading out for a walk before it rains", limit=20)

    assert not any(entry.components.associated for entry in inspected.episodes)


@pytest.mark.anyio
async def test_the_setting_turns_associations_off(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="hashing", llm="none", associated_episodes=0)
    app = await build(settings, clock=FixedClock(START + timedelta(days=30)))
    try:
        await tell(app, MINA, importance=0.7)
        walk = await app.memory.retrieve_context(MINA, "heading out for a walk before it rains")
    finally:
        await app.aclose()

    assert "Mochi" not in walk.rendered.text

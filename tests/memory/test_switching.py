"""A new game played now replaces and ends what was told of the game before; nothing else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from omoide.domain import Fact, FactCategory, Scope, TrustState
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.mentions import told_slot
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.switching import plays_now
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facets import Facet

SCOPE = Scope("haru", "rin")
START = datetime(2025, 1, 1, tzinfo=UTC)


def told(fact_id: str, text: str, day: int, facet: Facet = Facet.SITUATION) -> Fact:
    """A fact told in passing, as the disclosure model keeps it (no rule typed it)."""
    return Fact(
        fact_id,
        SCOPE,
        text,
        FactCategory.PERSONAL,
        0.6,
        0.6,
        START + timedelta(days=day),
        START + timedelta(days=day),
        slot=told_slot(f"told_{facet.value}", text),
    )


def statement(text: str) -> FactCandidate:
    return FactCandidate(text, FactCategory.PERSONAL, 0.6, 0.6, TrustState.STATED)


def outcome(candidate: FactCandidate, facts: list[Fact]) -> set[tuple[str, str]]:
    decisions = decide([candidate], facts)
    return {(d.target_fact_id, d.action) for d in decisions if d.target_fact_id}


@pytest.mark.parametrize(
    ("before", "now"),
    [
        (
            ["배그 이번 시즌 다이아 찍음", "새벽까지 배그 랭크 돌리다가 지각함"],
            "요즘 철권만 함 ㅋㅋ 화랑 장인 되는 중",
        ),
        (
            ["スプラでウデマエS+いった", "スプラのガチマで負けまくり"],
            "最近モンハンばっかやってる、太刀使い",
        ),
        (["和平精英上王牌了 开心", "昨晚和平精英四排打到三点"], "最近沉迷金铲铲之战 上钻石了"),
        (
            ["finally hit plat in apex ranked", "apex servers ate my game again"],
            "haven't touched the old br in weeks, rocket league got me, diamond 2",
        ),
    ],
)
def test_a_new_game_replaces_the_newest_and_ends_the_rest(before: list[str], now: str) -> None:
    facts = [told(f"old{day}", text, day) for day, text in enumerate(before)]
    candidate = find_facts(now)[0] if find_facts(now) else statement(now)
    assert plays_now(candidate)
    newest = f"old{len(before) - 1}"
    ended = {(f"old{day}", "end") for day in range(len(before) - 1)}
    assert outcome(candidate, facts) == {(newest, "update"), *ended}


def test_others_plans_and_other_talk_outlive_a_new_game() -> None:
    facts = [
        told("game", "롤 랭크 다이아 찍음", 0),
        told("wife", "妻はポケモンのゲームやってる", 1, Facet.PEOPLE),
        told("brother", "my brother plays valorant ranked every night", 2, Facet.PEOPLE),
        told("plan", "다음 시즌 대회 나가려고 팀 구하는 중", 3, Facet.PLANS),
        told("piano", "i play piano at church on sundays", 4, Facet.HABITS),
        told("duo", "롤 듀오 하다가 친구랑 싸움", 5, Facet.PEOPLE),
    ]
    done = outcome(statement("요즘 발로란트만 함 랭크 재밌음"), facts)
    assert done == {("duo", "update"), ("game", "end")}


@pytest.mark.parametrize(
    "text",
    [
        "요즘 운동만 함 ㅋㅋ",  # no game
        "i'm obsessed with this new ramen place",  # hooked, but no talk of a game
        "diamond 2 in rocket league now",  # a game, but nothing left or taken by
        "친형은 요즘 FC온라인만 함 맨날 팀 자랑",  # another person's game
    ],
)
def test_what_tells_no_new_game_of_the_viewer_ends_nothing(text: str) -> None:
    facts = [told("game", "배그 이번 시즌 다이아 찍음", 0)]
    found = find_facts(text)
    candidates = found or [statement(text)]
    assert all(action == "add" for action in (d.action for d in decide(candidates, facts)))


def test_a_game_still_named_is_not_left() -> None:
    facts = [told("both", "롤이랑 발로란트 랭크 둘 다 돌림", 0)]
    assert outcome(statement("요즘 발로란트만 함 랭크 재밌음"), facts) == set()


@pytest.mark.parametrize(
    ("known", "now"),
    [
        # words with other lives are no talk of a game
        ("I work as a server at Olive Garden", "I only play Tekken now"),
        ("I am allergic to steam cleaning products", "I only play Tekken now"),
        ("회사 보스가 너무 싫어", "요즘 롤만 해"),
        # another person's switch is none of the viewer's
        ("I play Apex ranked every night", "my brother switched to Valorant, he is diamond 2"),
        ("每天打王者上分", "我老公迷上了新游戏"),
    ],
)
def test_what_is_no_game_or_not_the_viewers_switch_is_left(known: str, now: str) -> None:
    facts = [told("known", known, 0)]
    candidates = find_facts(now) or [statement(now)]
    assert all(d.action == "add" for d in decide(candidates, facts))


def test_a_long_run_of_digits_is_read_in_linear_time() -> None:
    from omoide.memory.extraction.switching import GAME_TALK

    assert GAME_TALK.search("1" * 50_000) is None

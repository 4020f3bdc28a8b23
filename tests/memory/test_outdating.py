"""A change ends what else was told of the old value, not what others or plans hold."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from omoide.domain import Fact, FactCategory, Scope
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.value_words import value_words
from omoide.memory.extraction.values import FactCandidate

SCOPE = Scope("haru", "rin")
START = datetime(2025, 1, 1, tzinfo=UTC)


def known(fact_id: str, message: str, day: int) -> Fact:
    candidate: FactCandidate = find_facts(message)[0]
    return Fact(
        fact_id,
        SCOPE,
        candidate.text,
        candidate.category or FactCategory.PERSONAL,
        candidate.confidence,
        candidate.salience,
        START + timedelta(days=day),
        START + timedelta(days=day),
        slot=candidate.slot,
        terms=candidate.terms,
    )


@pytest.mark.parametrize(
    ("text", "value", "not_values"),
    [
        ("got a day pass from Copper Kettle for my brother", "copper kettle", {"got"}),
        ("Mabinogi 이벤트 출석 90일째 ㅋㅋ", "mabinogi", {"일째"}),
        ("요즘 도서관에서 공부하는데 자리 없음", "도서관", {"하는데", "없음"}),
        ("パン屋のシフトまた増えた、ラテアート練習中", "ラテアート", {"シフト"}),
    ],
)
def test_value_words_are_names_and_nouns_not_verbs_or_common_words(
    text: str, value: str, not_values: set[str]
) -> None:
    words = value_words(text)
    assert value in words
    assert not words & not_values


@pytest.mark.parametrize(
    ("old", "mention", "change"),
    [
        (
            "I work at Copper Kettle, the cafe by the station",
            "I drink the oat latte at Copper Kettle every morning before opening",
            "finally got a job at the library",
        ),
        (
            "달빛 카페에서 알바해요",
            "퇴근하고 매일 달빛 근처 공원 산책해요",
            "알바 바꿈 이제 편의점에서 일함",
        ),
    ],
)
def test_an_update_ends_the_facts_naming_the_old_value(old: str, mention: str, change: str) -> None:
    replaced = known("old", old, 0)
    other = known("mention", mention, 3)
    sister = known("sister", "my sister loves Copper Kettle and the 달빛 cafe", 4)
    decisions = decide(find_facts(change), [replaced, other, sister])
    done = {(d.target_fact_id, d.action) for d in decisions if d.target_fact_id}
    assert ("old", "update") in done
    assert ("mention", "end") in done
    assert "sister" not in {target for target, _action in done}


def test_a_move_ends_the_habits_of_the_old_place_not_likes_plans_or_others() -> None:
    home = known("home", "I live in Leeds", 0)
    habit = known("habit", "I bike through Leeds city centre every day", 1)
    like = known("like", "I love the meat pies at Leeds market", 2)
    plan = known("plan", "next month I am visiting Leeds for a wedding", 3)
    sister = known("sister", "my sister loves Leeds and lives there", 4)
    decisions = decide(find_facts("I just moved to Bristol"), [home, habit, like, plan, sister])
    done = {(d.target_fact_id, d.action) for d in decisions if d.target_fact_id}
    assert done == {("home", "update"), ("habit", "end")}

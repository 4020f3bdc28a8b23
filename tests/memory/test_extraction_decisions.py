"""Rule extraction decides against what is known, by slot: confirm, supersede, or add."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omoide.domain import Fact, Scope, TrustState
from omoide.memory.extraction.decisions import drop_rejected
from omoide.memory.extraction.rules import RuleFactExtractor, find_facts
from omoide.memory.extraction.values import FactDecision
from omoide.memory.facts.updates import new_fact

SCOPE = Scope("haru", "minjun")
MOMENT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def stated(message: str) -> Fact:
    (candidate,) = find_facts(message)
    return new_fact(SCOPE, candidate, (), MOMENT)


async def decisions_for(message: str, existing: list[Fact]) -> list[FactDecision]:
    return await RuleFactExtractor().extract(message, "", user_name=None, existing=existing)


def actions(decisions: list[FactDecision]) -> list[tuple[str, str | None]]:
    return [(decision.action, decision.target_fact_id) for decision in decisions]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("before", "after", "action"),
    [
        ("저 대전에 살아요", "저 광주에 살아요", "update"),
        ("I live in Leeds", "I just moved to Bristol", "update"),
        ("今は福岡に住んでるよ", "今は福岡に住んでます", "confirm"),
        ("我现在住在杭州", "我住在南京", "update"),
        ("우리 강아지 이름은 보리예요", "우리 강아지 이름은 콩이예요", "update"),
        ("I love sushi", "I hate sushi", "update"),
        ("猫が好き", "猫は苦手", "update"),
        ("요즘 롤에 빠져서 매일 해요", "요즘은 발로란트만 해요", "update"),
        ("I've been playing Hades a lot lately", "I quit Hades", "update"),
        ("我喜欢喝咖啡", "我喜欢喝咖啡", "confirm"),
        ("I love sushi", "I live in Leeds", "add"),
        ("저 새우 알레르기 있어요", "땅콩 알레르기도 있어요", "add"),
    ],
)
async def test_a_statement_about_the_same_slot_updates_or_confirms(
    before: str, after: str, action: str
) -> None:
    known = stated(before)
    decisions = await decisions_for(after, [known])
    target = None if action == "add" else known.id
    assert actions(decisions)[0] == (action, target)


@pytest.mark.anyio
async def test_no_existing_fact_is_the_target_of_two_decisions() -> None:
    known = stated("I live in Leeds")
    decisions = await decisions_for("I live in York. I live in Hull", [known])
    assert [d.target_fact_id for d in decisions].count(known.id) <= 1


def test_a_rejected_fact_is_not_proposed_again() -> None:
    rejected = stated("저 대전에 살아요")
    assert rejected.trust is TrustState.STATED
    assert drop_rejected(find_facts("저 대전에 살아요!"), [rejected]) == []
    assert drop_rejected(find_facts("대전에 살고 있어요"), [rejected]) == []
    assert drop_rejected(find_facts("저 광주에 살아요"), [rejected]) != []

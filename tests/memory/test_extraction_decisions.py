"""Rule extraction decides against what is known: confirm, supersede, or add."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import Fact, FactCategory, Scope, TrustState
from omoide.memory.extraction import FactDecision, RuleFactExtractor, decide, find_facts
from omoide.memory.fact_text import read_statement


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


SCOPE = Scope("haru", "minjun")
MOMENT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def known(fact_id: str, text: str, category: FactCategory = FactCategory.PREFERENCE) -> Fact:
    return Fact(
        id=fact_id,
        scope=SCOPE,
        text=text,
        category=category,
        confidence=0.75,
        salience=0.5,
        recorded_at=MOMENT,
        valid_from=MOMENT,
    )


async def decisions_for(message: str, existing: list[Fact]) -> list[FactDecision]:
    return await RuleFactExtractor().extract(message, "", user_name=None, existing=existing)


def summary(decisions: list[FactDecision]) -> list[tuple[str, str | None]]:
    return [(decision.action, decision.target_fact_id) for decision in decisions]


PERSONAL = FactCategory.PERSONAL


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("message", "existing"),
    [
        ("나 롤 게임 엄청 좋아해요!", known("f1", "likes 롤 게임")),
        ("나 롤게임 좋아해", known("f1", "really likes 롤 게임")),
        ("i really love league of legends", known("f1", "likes League of Legends")),
        ("I love League of Legends", known("f1", "Minjun likes League of Legends")),
        ("Deadlockが好きです", known("f1", "likes Deadlock")),
        ("我不喜欢香菜", known("f1", "dislikes 香菜")),
        ("I live in Tokyo", known("f1", "lives in Tokyo", PERSONAL)),
        ("제 이름은 민준이에요", known("f1", "name: 민준", PERSONAL)),
    ],
)
async def test_the_same_fact_again_is_a_confirmation(message: str, existing: Fact) -> None:
    decisions = await decisions_for(message, [existing])
    assert summary(decisions) == [("confirm", existing.id)]
    assert decisions[0].candidate is not None


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("message", "existing", "new_text"),
    [
        ("고양이 좋아해", known("f1", "dislikes 고양이"), "likes 고양이"),
        ("I don't like cats anymore", known("f1", "likes cats"), "dislikes cats"),
        ("猫は好きじゃない", known("f1", "really likes 猫"), "dislikes 猫"),
        ("我喜欢香菜", known("f1", "Minjun hates 香菜"), "likes 香菜"),
    ],
)
async def test_a_reversed_preference_supersedes_the_old_one(
    message: str, existing: Fact, new_text: str
) -> None:
    decisions = await decisions_for(message, [existing])
    assert summary(decisions) == [("update", existing.id)]
    candidate = decisions[0].candidate
    assert candidate is not None
    assert candidate.text.endswith(new_text)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("message", "existing"),
    [
        ("I live in Tokyo now", known("f1", "lives in Osaka", PERSONAL)),
        ("제 이름은 하루예요", known("f1", "name: 민준", PERSONAL)),
        ("誕生日は3月5日です", known("f1", "birthday: 4月1日", PERSONAL)),
        ("我是一名医生", known("f1", "job: 学生", PERSONAL)),
    ],
)
async def test_a_new_value_of_a_single_valued_fact_supersedes_it(
    message: str, existing: Fact
) -> None:
    assert summary(await decisions_for(message, [existing])) == [("update", existing.id)]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("message", "existing"),
    [
        ("I like dogs", known("f1", "likes cats")),
        ("我养了一只狗", known("f1", "has a pet 猫", PERSONAL)),
        ("I'm allergic to peanuts", known("f1", "is allergic to shellfish", PERSONAL)),
        ("고양이 좋아해", known("f1", "always: 고양이 밥 줘요", FactCategory.HABIT)),
        ("I like cats", known("f1", "Minjun seems cheerful today", FactCategory.EMOTION)),
    ],
)
async def test_anything_else_is_added(message: str, existing: Fact) -> None:
    assert summary(await decisions_for(message, [existing])) == [("add", None)]


@pytest.mark.anyio
async def test_facts_that_are_no_longer_current_are_ignored() -> None:
    superseded = replace(known("f1", "dislikes 고양이"), superseded_at=MOMENT)
    contradicted = replace(known("f2", "dislikes 고양이"), trust=TrustState.CONTRADICTED)
    decisions = await decisions_for("고양이 좋아해", [superseded, contradicted])
    assert summary(decisions) == [("add", None)]


@pytest.mark.anyio
async def test_one_known_fact_is_the_target_of_one_decision_only() -> None:
    existing = [known("f1", "lives in Osaka", PERSONAL)]
    decisions = await decisions_for("I live in Tokyo. I moved to Kyoto", existing)
    assert summary(decisions) == [("update", "f1"), ("add", None)]


@pytest.mark.anyio
async def test_nothing_stated_means_no_decisions() -> None:
    assert await decisions_for("ㅋㅋㅋ", [known("f1", "likes cats")]) == []


def test_rule_phrases_read_back_as_their_relation() -> None:
    for text, relation in [
        ("likes 롤 게임", "likes"),
        ("really likes 롤 게임", "likes"),
        ("dislikes ピーマン", "dislikes"),
        ("name: 민준", "name"),
        ("has a pet 猫 named ミケ", "pet"),
        ("every morning: 운동해요", "habit:every morning"),
        ("Minjun does not like FPS games", "dislikes"),
    ]:
        statement = read_statement(text)
        assert statement is not None, text
        assert statement.relation.key == relation, text
    assert read_statement("seems cheerful today") is None


EXISTING_TEXTS = [
    "likes cats", "dislikes cats", "likes 고양이", "dislikes 고양이", "name: 민준", "name: Alex",
    "lives in Tokyo", "lives in 서울", "has a pet 猫", "birthday: 3월 5일", "likes 火锅",
    "Minjun likes jazz", "always: drink coffee", "is allergic to peanuts",
]  # fmt: skip
MESSAGES = [
    "I like cats", "고양이 싫어", "제 이름은 민준이에요", "My name is Alex", "I live in Tokyo",
    "서울에 살아요", "猫を飼っています", "我最喜欢吃火锅", "I always drink coffee",
    "I'm allergic to peanuts", "I don't like jazz", "생일은 3월 5일이야",
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(st.sampled_from(EXISTING_TEXTS), max_size=8),
    said=st.lists(st.sampled_from(MESSAGES), min_size=1, max_size=4),
)
def test_decisions_are_consistent(texts: list[str], said: list[str]) -> None:
    existing = [known(f"f{index}", text) for index, text in enumerate(texts)]
    candidates = find_facts(". ".join(said))
    decisions = decide(candidates, existing)
    assert len(decisions) == len(candidates)
    targets = [d.target_fact_id for d in decisions if d.target_fact_id is not None]
    assert len(targets) == len(set(targets))
    assert set(targets) <= {fact.id for fact in existing}
    for decision in decisions:
        assert decision.candidate is not None
        if decision.action == "add":
            assert decision.target_fact_id is None

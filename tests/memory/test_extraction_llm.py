"""Fact extraction by a model: strict validation, one corrective retry, loud failure."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import Fact, FactCategory, Scope, TrustState
from omoide.errors import BackendError, BackendUnavailable, ParseFailure
from omoide.llm.base import ChatMessage
from omoide.llm.scripted import Responder, ScriptedChatModel
from omoide.memory.extraction.llm import LLMFactExtractor
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.extraction.values import FactDecision
from omoide.metrics import Metrics


def unexpected_call(messages: Sequence[ChatMessage]) -> str:
    raise AssertionError("the model was called more often than the test scripted")


def queued(*replies: str | BackendError, responder: Responder | None = None) -> ScriptedChatModel:
    """The shipped scripted model: the replies in order (errors raised), then ``responder``;
    a call beyond the script fails the test."""
    return ScriptedChatModel(replies, responder=responder or unexpected_call, name="queued")


SCOPE = Scope("haru", "minjun")
MOMENT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
EXISTING = [
    Fact("fact-cats", SCOPE, "likes cats", FactCategory.PREFERENCE, 0.8, 0.5, MOMENT, MOMENT),
    Fact("fact-home", SCOPE, "lives in Osaka", FactCategory.PERSONAL, 0.8, 0.6, MOMENT, MOMENT),
]


def reply(*facts: dict[str, object]) -> str:
    return json.dumps({"facts": list(facts)}, ensure_ascii=False)


def item(action: str = "add", **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "action": action,
        "fact": "likes 롤 게임",
        "category": "preference",
        "confidence": 0.9,
        "importance": 0.6,
        "stated": True,
        "target": None,
    }
    base.update(fields)
    return base


async def extract(
    model: ScriptedChatModel, metrics: Metrics, *, existing: Sequence[Fact] = EXISTING
) -> list[FactDecision]:
    extractor = LLMFactExtractor(model, metrics=metrics, fallback=None)
    return await extractor.extract(
        "나 롤 게임 엄청 좋아해요!", "오 나도 좋아해!", user_name="민준", existing=existing
    )


@pytest.mark.anyio
async def test_a_valid_reply_becomes_decisions() -> None:
    metrics = Metrics()
    decisions = await extract(queued(reply(item())), metrics)
    assert len(decisions) == 1
    decision = decisions[0]
    assert (decision.action, decision.target_fact_id) == ("add", None)
    candidate = decision.candidate
    assert candidate is not None
    assert candidate.text == "likes 롤 게임"
    assert candidate.category is FactCategory.PREFERENCE
    assert candidate.confidence == pytest.approx(0.9)
    assert candidate.salience == pytest.approx(0.6)
    assert candidate.trust is TrustState.STATED
    assert metrics.get("extraction.llm_calls") == 1


@pytest.mark.anyio
async def test_an_empty_list_is_a_valid_answer() -> None:
    metrics = Metrics()
    assert await extract(queued('{"facts": []}'), metrics) == []
    assert metrics.get("extraction.parse_failures") == 0


@pytest.mark.anyio
async def test_fenced_json_with_prose_is_accepted() -> None:
    fenced = f"Sure! Here you go:\n```json\n{reply(item())}\n```\nLet me know."
    decisions = await extract(queued(fenced), Metrics())
    assert [d.action for d in decisions] == ["add"]


@pytest.mark.anyio
async def test_scores_on_a_one_to_ten_scale_are_converted() -> None:
    answer = reply(item(confidence=10, importance=7), item(fact="dislikes 오이", confidence=1,
                                                          importance=1))  # fmt: skip
    decisions = await extract(queued(answer), Metrics())
    first, second = (d.candidate for d in decisions)
    assert first is not None and second is not None
    assert first.confidence == pytest.approx(1.0)
    assert first.salience == pytest.approx(6 / 9)
    assert second.confidence == pytest.approx(0.0)
    assert second.salience == pytest.approx(0.0)


@pytest.mark.anyio
async def test_scores_on_the_unit_scale_are_kept() -> None:
    answer = reply(item(confidence=1, importance=0.25), item(fact="dislikes 오이", confidence=0.5))
    decisions = await extract(queued(answer), Metrics())
    first, second = (d.candidate for d in decisions)
    assert first is not None and second is not None
    assert (first.confidence, first.salience) == (1.0, 0.25)
    assert second.confidence == 0.5


@pytest.mark.anyio
async def test_known_facts_can_be_confirmed_updated_and_deleted() -> None:
    answer = reply(
        item("confirm", fact=None, category=None, confidence=None, importance=None,
             target="fact-cats"),
        item("update", fact="lives in Tokyo", category="personal", target="fact-home"),
    )  # fmt: skip
    decisions = await extract(queued(answer), Metrics())
    assert [(d.action, d.target_fact_id) for d in decisions] == [
        ("confirm", "fact-cats"),
        ("update", "fact-home"),
    ]
    assert decisions[0].candidate is None
    updated = decisions[1].candidate
    assert updated is not None and updated.text == "lives in Tokyo"

    deleted = await extract(queued(reply(item("delete", target="fact-cats"))), Metrics())
    assert [(d.action, d.target_fact_id) for d in deleted] == [("delete", "fact-cats")]


@pytest.mark.anyio
async def test_the_prompt_carries_the_known_fact_ids() -> None:
    def confirm_every_known_id(messages: Sequence[ChatMessage]) -> str:
        ids = re.findall(r'"id": "([^"]+)"', messages[-1].content)
        return reply(*(item("confirm", target=fact_id) for fact_id in ids))

    decisions = await extract(queued(responder=confirm_every_known_id), Metrics())
    assert sorted(d.target_fact_id or "" for d in decisions) == ["fact-cats", "fact-home"]


@pytest.mark.anyio
async def test_inferred_facts_are_marked_inferred() -> None:
    answer = reply(item(stated=False), item(fact="likes 발로란트", stated=None))
    candidates = [d.candidate for d in await extract(queued(answer), Metrics())]
    assert [c.trust for c in candidates if c is not None] == [TrustState.INFERRED] * 2


@pytest.mark.anyio
async def test_an_invalid_reply_is_retried_once() -> None:
    metrics = Metrics()
    model = queued("I found one fact: likes 롤 게임", reply(item()))
    decisions = await extract(model, metrics)
    assert [d.action for d in decisions] == ["add"]
    assert metrics.get("extraction.llm_calls") == 2
    assert metrics.get("extraction.parse_failures") == 0


INVALID = [
    "not json at all",
    "[]",
    '{"fact": "likes cats"}',
    '{"facts": "likes cats"}',
    reply(item(action="remember")),
    reply(item(category="hobby")),
    reply(item("confirm", target="fact-unknown")),
    reply(item("update", target="fact-unknown")),
    reply(item("delete", target=None)),
    reply(item("add", target="fact-cats")),
    reply(item("update", fact=None, target="fact-home")),
    reply(item(fact="")),
    reply(item(confidence=None)),
    reply(item(importance="high")),
    reply(item(confidence=42)),
    reply(item(confidence=-0.5)),
    reply(item(confidence=True)),
    reply(item(stated="yes")),
    reply(item(fact="x" * 600)),
    reply(item(confidence=0.5), item(fact="likes 오이", confidence=8)),
    reply(item("confirm", target="fact-cats"), item("delete", target="fact-cats")),
    '{"facts": [{"action": "add", "fact": "likes cats", "category": "preference", '
    '"confidence": NaN, "importance": 0.5}]}',
    '{"facts": ["likes cats"]}',
]


@pytest.mark.anyio
@pytest.mark.parametrize("invalid", INVALID)
async def test_invalid_replies_are_rejected_and_retried(invalid: str) -> None:
    metrics = Metrics()
    decisions = await extract(queued(invalid, '{"facts": []}'), metrics)
    assert decisions == []
    assert metrics.get("extraction.llm_calls") == 2


@pytest.mark.anyio
@pytest.mark.parametrize("invalid", INVALID)
async def test_two_invalid_replies_raise_parse_failure(invalid: str) -> None:
    metrics = Metrics()
    with pytest.raises(ParseFailure) as caught:
        await extract(queued(invalid, invalid), metrics)
    assert caught.value.raw == invalid
    assert metrics.get("extraction.parse_failures") == 1
    assert metrics.get("extraction.llm_calls") == 2


@pytest.mark.anyio
async def test_without_known_facts_no_target_is_valid() -> None:
    with pytest.raises(ParseFailure, match="not the id of a known fact"):
        model = queued(*[reply(item("confirm", target="fact-cats"))] * 2)
        await extract(model, Metrics(), existing=[])


@pytest.mark.anyio
async def test_an_unreachable_model_falls_back_to_rules() -> None:
    metrics = Metrics()
    extractor = LLMFactExtractor(
        queued(BackendUnavailable("model offline")),
        metrics=metrics,
        fallback=RuleFactExtractor(),
    )
    decisions = await extractor.extract(
        "나 롤 게임 엄청 좋아해요!", "오!", user_name=None, existing=EXISTING
    )
    assert [d.action for d in decisions] == ["add"]
    candidate = decisions[0].candidate
    assert candidate is not None and "롤 게임" in candidate.text
    assert metrics.get("extraction.fallbacks") == 1


@pytest.mark.anyio
async def test_without_a_fallback_an_unreachable_model_raises() -> None:
    model = queued(BackendUnavailable("model offline"))
    with pytest.raises(BackendUnavailable):
        await extract(model, Metrics())


@pytest.mark.anyio
async def test_a_parse_failure_is_not_hidden_by_the_fallback() -> None:
    extractor = LLMFactExtractor(
        queued("nope", "still nope"), metrics=Metrics(), fallback=RuleFactExtractor()
    )
    with pytest.raises(ParseFailure):
        await extractor.extract("고양이 좋아해", "", user_name=None, existing=[])


@settings(max_examples=60, deadline=None)
@given(scores=st.lists(st.tuples(st.floats(0.0, 1.0), st.integers(1, 10)), min_size=1, max_size=4))
def test_scores_always_land_in_the_unit_interval(scores: list[tuple[float, int]]) -> None:
    items = [
        item(fact=f"likes thing {index}", confidence=confidence, importance=importance)
        for index, (confidence, importance) in enumerate(scores)
    ]
    decisions = anyio.run(lambda: extract(queued(reply(*items)), Metrics()))
    ten_point_scale = any(importance > 1 for _, importance in scores)
    for decision, (confidence, importance) in zip(decisions, scores, strict=True):
        candidate = decision.candidate
        assert candidate is not None
        assert candidate.confidence == pytest.approx(confidence)
        expected = (importance - 1) / 9 if ten_point_scale else float(importance)
        assert candidate.salience == pytest.approx(expected)
        assert 0.0 <= candidate.salience <= 1.0

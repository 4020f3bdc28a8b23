"""The importance scorer's second pass: the ambiguous band goes to a model, loudly."""

from __future__ import annotations

from collections.abc import Sequence

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import ScoringMethod
from omoide.errors import BackendError, BackendUnavailable, InvalidInput
from omoide.llm.base import ChatMessage
from omoide.llm.scripted import Responder, ScriptedChatModel
from omoide.memory.importance import ImportanceResult, ImportanceScorer, score_by_rules
from omoide.metrics import Metrics


def unexpected_call(messages: Sequence[ChatMessage]) -> str:
    raise AssertionError("the model was called more often than the test scripted")


def queued(*replies: str | BackendError, responder: Responder | None = None) -> ScriptedChatModel:
    """The shipped scripted model: the replies in order (errors raised), then ``responder``;
    a call beyond the script fails the test."""
    return ScriptedChatModel(replies, responder=responder or unexpected_call, name="queued")


AMBIGUOUS = ("오늘 회의가 길었어", "수고했어!")  # rules: 0.32 + 0.5 * 0.2 = 0.42
TRIVIAL = ("ㅋㅋㅋ", "ㅋㅋ 웃기다")  # rules: 0.05
SMALL_TALK = ("It's raining here again today", "Stay dry!")  # rules: 0.32 without feeling
CLEAR = ("제 이름은 민준이고 롤 게임 정말 좋아해요. 내일이 생일이라 너무 설레!", "축하해!")


def scorer(model: ScriptedChatModel | None, metrics: Metrics) -> ImportanceScorer:
    return ImportanceScorer(llm=model, metrics=metrics)


@pytest.mark.anyio
async def test_without_a_model_the_rules_decide() -> None:
    result = await scorer(None, Metrics()).score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result == score_by_rules(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.RULES


@pytest.mark.anyio
@pytest.mark.parametrize("turn", [TRIVIAL, CLEAR])
async def test_turns_outside_the_band_never_reach_the_model(turn: tuple[str, str]) -> None:
    metrics = Metrics()
    result = await scorer(queued(), metrics).score(*turn, emotion_intensity=0.5)
    assert result == score_by_rules(*turn, emotion_intensity=0.5)
    assert result.method is ScoringMethod.RULES
    assert metrics.get("importance.llm_calls") == 0


@pytest.mark.anyio
async def test_ordinary_small_talk_without_feeling_never_reaches_the_model() -> None:
    metrics = Metrics()
    result = await scorer(queued(), metrics).score(*SMALL_TALK, emotion_intensity=0.0)
    assert result.score == pytest.approx(0.32)
    assert metrics.get("importance.llm_calls") == 0


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"importance": 8, "reason": "a long day at work"}', 7 / 9),
        ('{"importance": 1, "reason": "small talk"}', 0.0),
        ('{"importance": 10, "reason": "a birthday"}', 1.0),
        ('{"importance": "7", "reason": "numeric string"}', 6 / 9),
        ('{"importance": 5.5}', 0.5),
        ('Sure!\n```json\n{"importance": 10, "reason": "fenced"}\n```', 1.0),
        ('My answer: {"importance": 4, "reason": "prose around it"} hope it helps', 3 / 9),
    ],
)
async def test_ambiguous_turns_are_scored_by_the_model(reply: str, expected: float) -> None:
    metrics = Metrics()
    result = await scorer(queued(reply), metrics).score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.LLM
    assert result.score == pytest.approx(expected)
    assert result.worth_storing == (result.score >= 0.3)
    assert "llm" in result.signals
    assert metrics.get("importance.llm_calls") == 1
    assert metrics.get("importance.unscored") == 0


@pytest.mark.anyio
async def test_the_model_is_asked_in_json_mode() -> None:
    model = queued('{"importance": 9, "reason": "ok"}')
    result = await scorer(model, Metrics()).score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.LLM
    assert model.last_call.options.json_mode


@pytest.mark.anyio
@pytest.mark.parametrize(
    "first",
    ["about seven", '{"importance": 11}', '{"importance": 0}', '{"score": 7}',
     '{"importance": NaN}', '{"importance": true}', "[7]", ""],
)  # fmt: skip
async def test_an_unusable_reply_is_retried_once(first: str) -> None:
    metrics = Metrics()
    model = queued(first, '{"importance": 10, "reason": "second try"}')
    result = await scorer(model, metrics).score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.LLM
    assert result.score == 1.0
    assert metrics.get("importance.llm_calls") == 2
    assert metrics.get("importance.unscored") == 0


@pytest.mark.anyio
async def test_two_unusable_replies_keep_the_rule_score_marked_unscored() -> None:
    metrics = Metrics()
    model = queued("seven", '{"importance": "very"}')
    result = await scorer(model, metrics).score(*AMBIGUOUS, emotion_intensity=0.5)
    rules = score_by_rules(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.UNSCORED
    assert result.score == rules.score
    assert result.worth_storing == rules.worth_storing
    assert metrics.get("importance.unscored") == 1
    assert metrics.get("importance.llm_calls") == 2


@pytest.mark.anyio
@pytest.mark.parametrize(
    "error", [BackendUnavailable("model offline"), BackendError("model refused the request")]
)
async def test_an_unreachable_model_does_not_lose_the_turn(error: BackendError) -> None:
    metrics = Metrics()
    result = await scorer(queued(error), metrics).score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.UNSCORED
    assert result.score == score_by_rules(*AMBIGUOUS, emotion_intensity=0.5).score
    assert metrics.get("importance.llm_errors") == 1
    assert metrics.get("importance.unscored") == 1


@pytest.mark.anyio
async def test_the_band_is_inclusive_at_both_ends() -> None:
    low_edge = ("오늘 점심 먹었어", "")  # 0.32 with no emotion
    high_edge = ("I love cats", "")  # 0.32 + 0.3 = 0.62
    for turn in (low_edge, high_edge):
        metrics = Metrics()
        model = queued('{"importance": 10, "reason": "edge"}')
        edges = ImportanceScorer(llm=model, metrics=metrics, ambiguous_band=(0.32, 0.62))
        result = await edges.score(*turn, emotion_intensity=0.0)
        assert result.method is ScoringMethod.LLM, turn
        assert metrics.get("importance.llm_calls") == 1


@pytest.mark.anyio
async def test_a_narrow_band_sends_fewer_turns() -> None:
    metrics = Metrics()
    narrow = ImportanceScorer(llm=queued(), metrics=metrics, ambiguous_band=(0.5, 0.55))
    result = await narrow.score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.method is ScoringMethod.RULES
    assert metrics.get("importance.llm_calls") == 0


@pytest.mark.anyio
async def test_the_store_threshold_applies_to_the_model_score() -> None:
    strict = ImportanceScorer(
        llm=queued('{"importance": 5, "reason": "meh"}'),
        metrics=Metrics(),
        store_threshold=0.5,
    )
    result = await strict.score(*AMBIGUOUS, emotion_intensity=0.5)
    assert result.score == pytest.approx(4 / 9)
    assert not result.worth_storing


@pytest.mark.parametrize("band", [(0.6, 0.3), (-0.1, 0.5), (0.2, 1.5)])
def test_invalid_bands_are_refused(band: tuple[float, float]) -> None:
    with pytest.raises(InvalidInput):
        ImportanceScorer(llm=None, metrics=Metrics(), ambiguous_band=band)


def test_an_invalid_threshold_is_refused() -> None:
    with pytest.raises(InvalidInput):
        ImportanceScorer(llm=None, metrics=Metrics(), store_threshold=1.2)


def test_results_refuse_scores_outside_the_unit_interval() -> None:
    with pytest.raises(InvalidInput):
        ImportanceResult(score=1.5, worth_storing=True, signals=(), method=ScoringMethod.LLM)


@settings(max_examples=40, deadline=None)
@given(first=st.integers(1, 10), second=st.integers(1, 10))
def test_model_scores_keep_their_order(first: int, second: int) -> None:
    async def score(value: int) -> float:
        model = queued(f'{{"importance": {value}, "reason": "r"}}')
        result = await scorer(model, Metrics()).score(*AMBIGUOUS, emotion_intensity=0.5)
        return result.score

    low, high = sorted((first, second))
    low_score, high_score = anyio.run(score, low), anyio.run(score, high)
    assert 0.0 <= low_score <= high_score <= 1.0

"""complete_json and extract_json: JSON out of messy replies, or a loud ParseFailure."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.errors import BackendUnavailable, InvalidInput, ParseFailure
from omoide.llm import ChatMessage, ChatOptions, ScriptedChatModel, complete_json, extract_json
from omoide.metrics import Metrics

PROMPT = [ChatMessage("user", 'Rate this exchange. Answer as JSON: {"importance": 0.0-1.0}')]


def importance(value: object) -> float:
    if not isinstance(value, dict):
        raise ParseFailure("expected an object", raw=json.dumps(value))
    score = value["importance"]
    if not isinstance(score, int | float) or not 0 <= score <= 1:
        raise ValueError(f"importance must be a number in [0, 1], got {score!r}")
    return float(score)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"importance": 0.8}', {"importance": 0.8}),
        (
            '```json\n[{"fact": "好きな食べ物はラーメン"}]\n```',
            [{"fact": "好きな食べ物はラーメン"}],
        ),
        ('Sure! Here you go:\n{"importance": 0.2}\nHope that helps.', {"importance": 0.2}),
        ('<think>maybe {"importance": 1}?</think>{"importance": 0.5}', {"importance": 0.5}),
        ("[EMOTION:happy] [1, 2]", [1, 2]),
        ("```\n{}\n```", {}),
        ("0.7", 0.7),
        ("  []  ", []),
    ],
)
def test_extracts_json_from_messy_replies(reply: str, expected: object) -> None:
    assert extract_json(reply) == expected


@pytest.mark.parametrize(
    "reply", ["", "   ", "I think it's important.", "{'single': 'quotes'}", "NaN", '{"a": NaN}']
)
def test_replies_without_json_fail_with_the_raw_text(reply: str) -> None:
    with pytest.raises(ParseFailure) as caught:
        extract_json(reply)
    assert caught.value.raw == reply


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)
containers = st.one_of(
    st.lists(json_values, max_size=3), st.dictionaries(st.text(max_size=5), json_values, max_size=3)
)
prose = st.text(alphabet=st.characters(exclude_characters="[]{}`<"), max_size=30)


@given(containers, prose, prose, st.booleans())
def test_any_object_or_array_survives_prose_and_fences(
    value: Any, before: str, after: str, fenced: bool
) -> None:
    encoded = json.dumps(value, ensure_ascii=False, indent=1 if fenced else None)
    body = f"```json\n{encoded}\n```" if fenced else encoded
    assert extract_json(f"{before}{body}{after}") == value


@pytest.mark.anyio
async def test_valid_first_reply_needs_one_call() -> None:
    model = ScriptedChatModel(['{"importance": 0.9}'])
    metrics = Metrics()
    assert await complete_json(model, PROMPT, parse=importance, metrics=metrics) == 0.9
    assert metrics.snapshot() == {"llm.calls": 1}
    assert model.last_call.options.json_mode is True


@pytest.mark.anyio
async def test_json_mode_is_forced_on_and_options_kept() -> None:
    model = ScriptedChatModel(['{"importance": 0.1}'])
    options = ChatOptions(max_tokens=20, temperature=0.1, json_mode=False)
    await complete_json(model, PROMPT, parse=importance, options=options)
    assert model.last_call.options == ChatOptions(max_tokens=20, temperature=0.1, json_mode=True)


@pytest.mark.anyio
async def test_one_corrective_retry_after_a_bad_reply() -> None:
    model = ScriptedChatModel(['{"importance": 7}', '```json\n{"importance": 0.7}\n```'])
    metrics = Metrics()
    assert await complete_json(model, PROMPT, parse=importance, metrics=metrics) == 0.7
    retry = model.calls[1].messages
    assert list(retry[: len(PROMPT)]) == PROMPT
    assert retry[-2] == ChatMessage("assistant", '{"importance": 7}')
    assert retry[-1].role == "user" and "importance must be a number in [0, 1]" in retry[-1].content
    assert metrics.snapshot() == {"llm.calls": 2, "llm.parse_retries": 1}


@pytest.mark.anyio
async def test_two_bad_replies_raise_parse_failure_never_a_default() -> None:
    model = ScriptedChatModel(["not json at all", '{"score": 0.5}', '{"importance": 0.5}'])
    metrics = Metrics()
    with pytest.raises(ParseFailure, match="scripted gave no usable JSON in 2") as caught:
        await complete_json(model, PROMPT, parse=importance, metrics=metrics)
    assert caught.value.raw == '{"score": 0.5}'
    assert model.call_count == 2 and model.remaining == 1
    assert metrics.get("llm.parse_failures") == 1
    assert metrics.get("llm.calls") == 2


@pytest.mark.anyio
@pytest.mark.parametrize("attempts", [1, 3])
async def test_attempts_are_configurable(attempts: int) -> None:
    model = ScriptedChatModel(default_reply="nope")
    with pytest.raises(ParseFailure):
        await complete_json(model, PROMPT, parse=importance, attempts=attempts)
    assert model.call_count == attempts


@pytest.mark.anyio
async def test_domain_validation_errors_count_as_wrong_shape() -> None:
    def refuse(value: object) -> object:
        raise InvalidInput(f"confidence must be in [0, 1] (got {value})")

    model = ScriptedChatModel(default_reply="[1.5]")
    with pytest.raises(ParseFailure, match="confidence must be in"):
        await complete_json(model, PROMPT, parse=refuse)


@pytest.mark.anyio
async def test_backend_errors_propagate_unchanged() -> None:
    down = BackendUnavailable("ollama is down")
    model = ScriptedChatModel([down])
    metrics = Metrics()
    with pytest.raises(BackendUnavailable) as caught:
        await complete_json(model, PROMPT, parse=importance, metrics=metrics)
    assert caught.value is down
    assert metrics.snapshot() == {"llm.calls": 1}


@pytest.mark.anyio
async def test_attempts_must_be_positive() -> None:
    with pytest.raises(InvalidInput):
        await complete_json(ScriptedChatModel(), PROMPT, parse=importance, attempts=0)

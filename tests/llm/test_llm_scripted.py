"""The scripted chat model and its demo responder."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.errors import BackendError, BackendUnavailable, InvalidInput
from omoide.llm import (
    ChatMessage,
    ChatModel,
    ChatOptions,
    ScriptedChatModel,
    demo_reply,
    demo_responder,
)
from omoide.llm.chunking import estimate_tokens

OPTIONS = ChatOptions()
TAG = re.compile(r"^\[EMOTION:(happy|sad|curious|excited)\] ")


def ask(text: str, system: str = "You are Haru, a cheerful VTuber.") -> list[ChatMessage]:
    return [ChatMessage("system", system), ChatMessage("user", text)]


async def streamed(model: ChatModel, messages: Sequence[ChatMessage]) -> list[str]:
    return [chunk async for chunk in model.stream(messages, OPTIONS)]


@pytest.mark.anyio
async def test_replies_are_used_in_order_then_the_default() -> None:
    model = ScriptedChatModel(["one", "two"], default_reply="again")
    answers = [await model.complete(ask("hi"), OPTIONS) for _ in range(4)]
    assert answers == ["one", "two", "again", "again"]


@pytest.mark.anyio
async def test_responder_follows_the_script_and_sees_the_messages() -> None:
    model = ScriptedChatModel(["first"], responder=lambda messages: messages[-1].content.upper())
    assert await model.complete(ask("hi"), OPTIONS) == "first"
    assert await model.complete(ask("ramen"), OPTIONS) == "RAMEN"
    model.enqueue("queued")
    assert await model.complete(ask("x"), OPTIONS) == "queued"


@pytest.mark.anyio
async def test_a_finished_script_without_fallback_raises() -> None:
    model = ScriptedChatModel(["only"])
    await model.complete(ask("hi"), OPTIONS)
    with pytest.raises(BackendError, match="ran out of scripted replies"):
        await model.complete(ask("hi"), OPTIONS)
    assert model.call_count == 2 and model.calls[1].reply is None


@pytest.mark.anyio
async def test_scripted_errors_are_raised_in_turn() -> None:
    model = ScriptedChatModel([BackendUnavailable("timeout"), "recovered"])
    with pytest.raises(BackendUnavailable, match="timeout"):
        await streamed(model, ask("hi"))
    assert await model.complete(ask("hi"), OPTIONS) == "recovered"
    assert [call.reply for call in model.calls] == [None, "recovered"]


@pytest.mark.anyio
async def test_invalid_output_is_returned_as_scripted() -> None:
    model = ScriptedChatModel(['{"importance": ', "```json\nnope```"])
    assert await model.complete(ask("x"), OPTIONS) == '{"importance": '
    assert await model.complete(ask("x"), OPTIONS) == "```json\nnope```"


@pytest.mark.anyio
async def test_stream_sends_small_chunks_that_join_to_the_reply() -> None:
    reply = "[EMOTION:happy] ラーメン好きなんだね! Me too."
    model = ScriptedChatModel([reply, reply], chunk_delay_seconds=0.001)
    chunks = await streamed(model, ask("hi"))
    assert "".join(chunks) == reply
    assert chunks[:3] == ["[EMOTION:happy]", " ラ", "ー"]
    assert max(len(chunk) for chunk in chunks) <= len("[EMOTION:happy]")
    assert await model.complete(ask("hi"), OPTIONS) == reply


@pytest.mark.anyio
async def test_calls_are_recorded_with_prompt_options_and_mode() -> None:
    model = ScriptedChatModel(default_reply="ok")
    system = "You are Haru.\n[What you remember]\n- likes ramen"
    options = ChatOptions(max_tokens=10, temperature=0.0, json_mode=True)
    await model.complete(ask("hello", system), options)
    await streamed(model, ask("again", system))
    first, second = model.calls
    assert first.system_prompt == system and first.last_user_message == "hello"
    assert first.options == options and not first.streamed
    assert second.streamed and second.reply == "ok" and model.last_call is second


@pytest.mark.anyio
async def test_token_counts_follow_the_traffic() -> None:
    model = ScriptedChatModel(default_reply="Sure thing, friend.")
    messages = ask("What's my favourite food?")
    await model.complete(messages, OPTIONS)
    await model.complete(messages, OPTIONS)
    expected_in = 2 * sum(estimate_tokens(m.content) for m in messages)
    assert (model.tokens_in, model.tokens_out) == (
        expected_in,
        2 * estimate_tokens("Sure thing, friend."),
    )


def test_last_call_before_any_call_is_an_error() -> None:
    with pytest.raises(BackendError):
        _ = ScriptedChatModel().last_call


def test_bad_script_items_are_refused() -> None:
    with pytest.raises(InvalidInput):
        ScriptedChatModel([42])  # type: ignore[list-item]
    with pytest.raises(InvalidInput):
        ScriptedChatModel(chunk_delay_seconds=-1)


@pytest.mark.anyio
async def test_requests_are_checked_like_real_backends() -> None:
    model = ScriptedChatModel(default_reply="x")
    with pytest.raises(InvalidInput):
        await model.complete([], OPTIONS)
    with pytest.raises(InvalidInput):
        await streamed(model, [ChatMessage("tool", "x")])  # type: ignore[arg-type]
    assert model.call_count == 0


@pytest.mark.anyio
async def test_demo_model_answers_in_character_with_an_emotion_tag() -> None:
    model = ScriptedChatModel()
    reply = await model.complete(ask("I got a new keyboard"), OPTIONS)
    assert TAG.match(reply)
    assert "I got a new keyboard" in reply
    assert "".join(await streamed(model, ask("I got a new keyboard"))) == reply


@pytest.mark.parametrize(
    ("text", "emotion", "script"),
    [
        ("I'm so tired today", "sad", r"[A-Za-z]"),
        ("What game should I play?", "curious", r"[A-Za-z]"),
        ("I finally passed the exam!", "excited", r"[A-Za-z]"),
        ("今日は疲れた…", "sad", r"[\u3040-\u30ff]"),
        ("ラーメン食べたよ", "happy", r"[\u3040-\u30ff]"),
        ("요즘 뭐하면서 놀아요?", "curious", r"[\uac00-\ud7af]"),
    ],
)
def test_demo_reply_follows_language_and_mood(text: str, emotion: str, script: str) -> None:
    reply = demo_responder(ask(text))
    assert reply.startswith(f"[EMOTION:{emotion}] ")
    assert re.search(script, reply.removeprefix(f"[EMOTION:{emotion}] ").replace(text, ""))


def test_demo_reply_uses_the_matching_remembered_fact() -> None:
    system = (
        "You are Haru.\n- 다정하고 장난기 많다\n<memories>\n[About the viewer]\n"
        "- 민준은 고양이를 키운다\n- 민준은 롤 게임 좋아한다 (확신도: 80%)\n</memories>"
    )
    reply = demo_responder(ask("요즘 롤 게임 해요", system))
    assert "민준은 롤 게임 좋아한다" in reply and "80%" not in reply and "고양이" not in reply
    assert "I remember: 민준은 고양이를 키운다" in demo_responder(ask("hello there", system))
    one_word = demo_responder(
        ask("요즘 고양이 영상 봐요?", system.replace("민준은 고양이", "고양이"))
    )
    assert "고양이를 키운다" in one_word, "the section's first line, not a one-word overlap"


def test_demo_reply_never_quotes_bullets_outside_the_memories() -> None:
    system = "You are Haru.\n- You and Sam: new face\n- 다정하고 장난기 많다"
    assert "remember" not in demo_responder(ask("hello there, new face Sam", system))


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ('Extract facts as JSON.\nFormat:\n[{"fact": "...", "category": "..."}]', "[]"),
        ('Rate importance. Reply in JSON like {"importance": 0.5}', "{}"),
        ("振り返りを踏まえて、変化した項目だけJSONで返して。", "{}"),
    ],
)
def test_demo_answers_json_requests_with_empty_valid_json(prompt: str, expected: str) -> None:
    assert demo_responder([ChatMessage("system", prompt), ChatMessage("user", "go")]) == expected
    json_mode = ChatOptions(json_mode=True)
    assert demo_reply([ChatMessage("user", prompt)], json_mode) == expected
    json.loads(expected)


def test_a_viewer_saying_json_gets_a_chat_reply() -> None:
    assert TAG.match(demo_responder(ask("I write JSON all day")))


@given(st.text(max_size=60), st.text(max_size=60))
def test_demo_reply_always_tags_and_quotes(system: str, said: str) -> None:
    reply = demo_reply(
        [ChatMessage("system", system.replace("json", "")), ChatMessage("user", said)], OPTIONS
    )
    if re.search("json", system.replace("json", ""), re.IGNORECASE):
        json.loads(reply)
    else:
        assert TAG.match(reply)

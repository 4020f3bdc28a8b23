"""The text rule (omoide.text_rules) in the library: refused from callers, cleaned where
nobody can be asked to fix the text (an old queued turn, a model's reply)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.chat.conversation import ChatRequest, DoneEvent
from omoide.clock import FixedClock
from omoide.domain import Scope, TurnInput, TurnState
from omoide.errors import InvalidInput
from omoide.llm.scripted import ScriptedChatModel
from omoide.store.queued_turns import turn_from_json
from omoide.text_rules import check_id, id_problem, text_problem, without_refused
from omoide.wiring import build
from tests.api.harness import NOW, make_settings

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("text", "one_line", "refused"),
    [
        ("plain, 한국어, 日本語, emoji 😀", False, False),
        ("two\nlines\tand\r\nreturns", False, False),
        ("two\nlines", True, True),
        ("nul \x00", False, True),
        ("del \x7f", False, True),
        ("c1 \x9b", False, True),
        ("lone \ud800", False, True),
        ("zero width \u200b joiner \u200d", True, False),
    ],
)
def test_the_written_text_rule(text: str, one_line: bool, refused: bool) -> None:
    assert (text_problem(text, one_line=one_line) is not None) is refused
    assert text_problem(without_refused(text, one_line=one_line), one_line=one_line) is None


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("twitch:민준", True),
        ("a b", True),
        ("a%2Fb", True),
        ("a/b", False),
        ("a\\b", False),
        ("..", False),
        ("\ufffd", False),
        ("tab\t", False),
        ("x" * 257, False),
    ],
)
def test_the_id_rule(value: str, ok: bool) -> None:
    assert (id_problem(value) is None) is ok
    if not ok:
        with pytest.raises(InvalidInput):
            check_id(value, name="user_id")


def test_the_library_refuses_what_the_api_refuses() -> None:
    with pytest.raises(InvalidInput, match="control character"):
        TurnInput(scope=Scope("haru", "v"), user_message="hi \x1b[31m")
    with pytest.raises(InvalidInput, match="surrogate"):
        TurnInput(scope=Scope("haru", "v"), user_message="hi", metadata={"k": "\udc00"})
    with pytest.raises(InvalidInput):
        TurnState("happy\n", 0.5)


def test_a_turn_queued_before_the_rule_is_cleaned_not_refused() -> None:
    queued = {
        "character_id": "haru",
        "user_id": "v",
        "user_message": "hello \x1b[31mworld\x00",
        "bot_message": "hi\x07",
        "emotion": "happy\n",
        "emotion_intensity": 0.5,
        "topics": ["games\x00"],
        "timestamp": None,
        "metadata": {"k\x01": "v\x02", "\x00": "dropped"},
        "force_store": False,
        "importance": None,
        "user_name": "Mo",
        "turn_id": "t1",
    }
    turn = turn_from_json(queued)
    assert turn.user_message == "hello [31mworld"
    assert turn.bot_message == "hi"
    assert turn.state.emotion == "happy" and turn.state.topics == ("games",)
    assert dict(turn.metadata) == {"k": "v"}


async def test_a_models_reply_with_control_characters_is_remembered_clean(
    tmp_path: Path,
) -> None:
    model = ScriptedChatModel(default_reply="[EMOTION:happy] Hi\x00 there\x1b!")
    built = await build(make_settings(tmp_path), clock=FixedClock(NOW), chat_model=model)
    try:
        conversation = built.conversation
        assert conversation is not None
        request = ChatRequest("haru", "v", "Mo", "s1", "I love Minecraft")
        events = [event async for event in conversation.stream(await conversation.prepare(request))]
        assert isinstance(events[-1], DoneEvent) and events[-1].turn_id
        await built.drainer.drain_all()
        (episode,) = (await built.memory.export_viewer(Scope("haru", "v"))).episodes
        assert episode.bot_message == "Hi there!"
    finally:
        await built.aclose()

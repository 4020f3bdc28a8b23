"""The demo model's answers to omoide's stream tasks, asked with the real prompts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from omoide.character import CharacterProfile
from omoide.character.identity_policy import IdentityPolicy, check_diff
from omoide.character.library import CharacterLibrary, builtin_characters_dir
from omoide.llm import ChatOptions, ScriptedChatModel, demo_tasks
from omoide.llm.base import ChatMessage
from omoide.store.records.stream import (
    CommentEntry,
    DiaryJob,
    DiaryReason,
    DiaryWindow,
    LoggedComment,
    ViewerBatch,
    WindowStats,
)
from omoide.stream.diary import DiaryEntry
from omoide.stream.diary_prompt import DIARY_TASK, diary_messages, parse_diary_reply
from omoide.stream.evolution import IDENTITY_TASK, identity_messages
from omoide.stream.viewer_prompt import (
    VIEWER_BATCH_TASK,
    parse_viewer_reply,
    viewer_batch_messages,
)

START = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)
JSON = ChatOptions(json_mode=True)


def test_the_task_lines_are_the_stream_prompts_own() -> None:
    assert demo_tasks.DIARY_TASK == DIARY_TASK
    assert demo_tasks.IDENTITY_TASK == IDENTITY_TASK
    assert demo_tasks.VIEWER_BATCH_TASK == VIEWER_BATCH_TASK


async def haru() -> CharacterProfile:
    return (await CharacterLibrary([builtin_characters_dir()]).load("haru")).profile


def logged(said: Sequence[tuple[str, str]]) -> tuple[LoggedComment, ...]:
    return tuple(
        LoggedComment(
            "s1",
            index + 1,
            index + 1,
            CommentEntry(
                name.lower(), name, text, START + timedelta(seconds=index), "twitch",
                None, True, True, 0.6,
            ),
        )
        for index, (name, text) in enumerate(said)
    )  # fmt: skip


def window(said: Sequence[tuple[str, str]], topics: tuple[tuple[str, int], ...]) -> DiaryWindow:
    job = DiaryJob(1, "haru", "s1", 1, DiaryReason.END, 1, len(said), START)
    viewers = sorted({name for name, _ in said})
    stats = WindowStats(
        comments=len(said),
        viewers=len(viewers),
        low_signal=0,
        stored=len(said),
        replied=0,
        first_time=START,
        last_time=START + timedelta(minutes=5),
        top_viewers=tuple((name, 1) for name in viewers),
        topics=topics,
        signals=(("preference", 2),),
    )
    return DiaryWindow(job, stats, logged(said), ())


async def ask(messages: Sequence[ChatMessage]) -> object:
    return json.loads(await ScriptedChatModel().complete(messages, JSON))


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("said", "words"),
    [
        ([("Sam", "I love Minecraft"), ("Amy", "Minecraft builds tonight!")], "talked most"),
        ([("민준", "마인크래프트 집 짓기 좋아해요"), ("Sam", "Minecraft!")], "제일 많이"),
        ([("ゆき", "マイクラ大好き"), ("ゆき", "今日も建築した")], "盛り上がった"),
        ([("小明", "我喜欢Minecraft"), ("小红", "今天也在建房子")], "聊得最多"),
    ],
)
async def test_the_diary_reflects_the_stream_in_its_language(
    said: list[tuple[str, str]], words: str
) -> None:
    profile = await haru()
    stretch = window(said, (("Minecraft", 2), ("games", 1)))
    reply = parse_diary_reply(await ask(diary_messages(profile, stretch, max_chars=6000)))
    assert reply.entry.startswith(demo_tasks.SCRIPTED_DIARY_PREFIX)
    assert words in reply.entry and "Minecraft" in reply.entry
    assert said[0][0] in reply.entry, "the most active viewer is named"
    assert reply.entry.endswith("Topics: Minecraft (2), games (1).")
    assert reply.mood == "excited" and reply.topics == ("Minecraft", "games")


def entry(text: str) -> DiaryEntry:
    return DiaryEntry("d1", "haru", "s1", 1, DiaryReason.END, text, "llm", START, 1, 2, 2, 2)


@pytest.mark.anyio
async def test_the_identity_proposal_adds_a_labelled_like_the_validator_accepts() -> None:
    profile, policy = await haru(), IdentityPolicy()
    text = "Scripted demo diary.\nTopics: games (3), Deadlock (2)."
    messages = identity_messages(
        profile.model_copy(update={"likes": (*profile.likes, "games with chat")}),
        entry(text),
        protected=policy.protected_fields,
        percent=50,
        items=3,
    )
    diff = await ask(messages)
    assert isinstance(diff, dict) and list(diff) == ["likes"]
    added = diff["likes"][-1]
    assert "Deadlock" in added and demo_tasks.SCRIPTED_LABEL in added, "games is liked already"
    assert "방송" in added, "written in the language of the likes"
    accepted, refused = check_diff(profile, diff, policy)
    assert [change.field for change in accepted] == ["likes"] and refused == ()


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("protected", "items", "text"),
    [
        (frozenset({"likes"}), 3, "Topics: Deadlock (2)."),
        (frozenset(), 0, "Topics: Deadlock (2)."),
        (frozenset(), 3, "Structured diary entry. No new comments since the previous entry."),
    ],
)
async def test_no_proposal_when_likes_may_not_change_or_nothing_was_talked_about(
    protected: frozenset[str], items: int, text: str
) -> None:
    messages = identity_messages(
        await haru(), entry(text), protected=protected, percent=50, items=items
    )
    assert await ask(messages) == {}


@pytest.mark.anyio
async def test_a_viewer_summary_is_labelled_and_valid() -> None:
    comments = logged([("Sam", "I love Minecraft"), ("Sam", "building a castle tonight")])
    batch = ViewerBatch("haru", "sam", comments, None, 2)
    reply = parse_viewer_reply(await ask(viewer_batch_messages(batch, [])), known_ids=frozenset())
    assert reply.decisions == []
    assert reply.summary is not None
    assert reply.summary.startswith(demo_tasks.SCRIPTED_SUMMARY_PREFIX)
    assert "Sam" in reply.summary and "building a castle tonight" in reply.summary

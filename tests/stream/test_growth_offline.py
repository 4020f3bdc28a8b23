"""The whole growth loop offline, with the default (scripted demo) model: a stream with
comments, its end, the diary entry, the identity proposal, approval, a version, rollback,
and per-viewer summaries; through the library and over HTTP. With no model, or a real
one, stream work is what it was."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import NotFound
from omoide.llm.demo_tasks import SCRIPTED_DIARY_PREFIX, SCRIPTED_LABEL, SCRIPTED_SUMMARY_PREFIX
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.events import StreamEvent
from omoide.stream.service import StreamService
from omoide.wiring import Omoide, build
from tests.api.harness import running_api
from tests.stream.harness import START, StreamScript

SAID = (
    ("sam", "Sam", "I love Minecraft so much, I build castles every night"),
    ("minjun", "민준", "나 마인크래프트 집 짓기 진짜 좋아해요!"),
    ("sam", "Sam", "Minecraft redstone is my favourite thing"),
    ("minjun", "민준", "오늘 마크에서 성 지었어요"),
    ("sam", "Sam", "thanks Haru, you're the best!"),
    ("minjun", "민준", "하루 덕분에 힘이 나요, 고마워요"),
)


def events() -> list[StreamEvent]:
    return [
        StreamEvent(viewer, name, text, START + timedelta(seconds=index), "twitch")
        for index, (viewer, name, text) in enumerate(SAID)
    ]


def wire_events() -> list[dict[str, Any]]:
    return [
        {
            "viewer_id": event.viewer_id,
            "display_name": event.display_name,
            "text": event.text,
            "time": event.time.isoformat(),
            "platform": event.platform,
        }
        for event in events()
    ]


@asynccontextmanager
async def offline(tmp_path: Path, **settings: Any) -> AsyncIterator[tuple[Omoide, StreamService]]:
    built = await build(
        Settings(data_dir=tmp_path, embedder="hashing", **settings),
        clock=FixedClock(START),
        embedder=HashingEmbedder(256),
    )
    try:
        yield built, built.streams
    finally:
        await built.aclose()


@pytest.mark.anyio
async def test_the_growth_loop_through_the_library(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).llm == "scripted", "the default model"
    async with offline(tmp_path) as (built, service):
        original = (await built.characters.load("haru")).profile
        await service.ingest("haru", "s1", events())
        end = await service.end_stream("haru", "s1")

        diary = end.diary
        assert diary.method == "llm" and not diary.llm_failed
        assert diary.text.startswith(SCRIPTED_DIARY_PREFIX)
        assert "Minecraft" in diary.text and "Sam" in diary.text and "민준" in diary.text
        assert "Minecraft" in diary.topics and diary.mood is not None
        assert [entry.id for entry in await service.diary("haru")] == [diary.id]

        (outcome,) = end.identity
        assert outcome.status == "pending" and outcome.diary_entry_id == diary.id
        (pending,) = await service.identity.changes("haru")
        (change,) = pending.changes
        assert change.field == "likes" and change.before == original.likes
        assert isinstance(change.after, tuple) and SCRIPTED_LABEL in change.after[-1]
        assert "Minecraft" in change.after[-1]

        version = await service.identity.approve("haru", pending.id)
        assert version.number == 1 and version.profile.likes == change.after
        assert (await service.identity.current_profile("haru")).likes == change.after
        rolled = await service.identity.rollback("haru", 0)
        assert rolled.number == 2 and rolled.profile == original
        assert (await service.identity.current_profile("haru")) == original

        await service.flush_due()  # not "everything": the ended stream's viewers are due
        summary = await service.viewer_summary("haru", "sam")
        assert summary.method == "llm" and summary.text.startswith(SCRIPTED_SUMMARY_PREFIX)
        assert "Sam" in summary.text
        with pytest.raises(NotFound):
            await service.viewer_summary("haru", "nobody")


@pytest.mark.anyio
async def test_viewers_of_a_running_stream_still_wait_for_their_batch(tmp_path: Path) -> None:
    async with offline(tmp_path) as (_, service):
        await service.ingest("haru", "s1", events())
        await service.flush_due()
        with pytest.raises(NotFound):
            await service.viewer_summary("haru", "sam")
        await service.end_stream("haru", "s1")
        await service.flush_due()
        assert (await service.viewer_summary("haru", "sam")).method == "llm"


@pytest.mark.anyio
async def test_the_growth_loop_over_http(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="hashing")
    async with running_api(settings) as api:
        client, base = api.client, "/v1/characters/haru"
        posted = await client.post(f"{base}/streams/s1/events", json={"events": wire_events()})
        assert posted.status_code == 200, posted.text
        end = await client.post(f"{base}/streams/s1/end")
        assert end.status_code == 200, end.text
        body = end.json()
        assert body["diary"]["method"] == "llm"
        assert body["diary"]["text"].startswith(SCRIPTED_DIARY_PREFIX)
        (outcome,) = body["identity"]
        assert outcome["status"] == "pending"

        diary = (await client.get(f"{base}/diary")).json()["entries"]
        assert [entry["id"] for entry in diary] == [body["diary"]["id"]]
        pending = (await client.get(f"{base}/identity/pending")).json()["changes"]
        assert [change["id"] for change in pending] == [outcome["change_id"]]
        assert SCRIPTED_LABEL in pending[0]["changes"][0]["after"][-1], "what the page shows"
        assert pending[0]["proposed_by"] == "scripted" and diary[0]["model"] == "scripted"

        approved = await client.post(f"{base}/identity/pending/{outcome['change_id']}/approve")
        assert approved.status_code == 200 and approved.json()["version"] == 1
        versions = (await client.get(f"{base}/identity/versions")).json()
        assert versions["current_version"] == 1
        rolled = await client.post(f"{base}/identity/rollback", json={"version": 0})
        assert rolled.status_code == 200 and rolled.json()["version"] == 2
        zero = (await client.get(f"{base}/identity/versions/0")).json()["profile"]
        assert rolled.json()["profile"] == zero
        assert (await client.get(f"{base}/identity/pending")).json()["changes"] == []

        await api.service.built.streams.drain()
        for viewer in ("sam", "minjun"):
            summary = await client.get(f"{base}/viewers/{viewer}/stream-summary")
            assert summary.status_code == 200, summary.text
            assert summary.json()["text"].startswith(SCRIPTED_SUMMARY_PREFIX)
        missing = await client.get(f"{base}/viewers/nobody/stream-summary")
        assert missing.status_code == 404


@pytest.mark.anyio
async def test_without_a_model_stream_work_is_structured(tmp_path: Path) -> None:
    async with offline(tmp_path, llm="none") as (_, service):
        assert not service.uses_llm
        await service.ingest("haru", "s1", events())
        end = await service.end_stream("haru", "s1")
        assert end.diary.method == "structured" and end.identity == ()
        assert end.diary.model is None


@pytest.mark.anyio
async def test_a_real_model_is_asked_and_the_demo_answers_are_not_used(tmp_path: Path) -> None:
    script = StreamScript()
    real = ScriptedChatModel(responder=script, name="openai:gpt-test")
    built = await build(
        Settings(data_dir=tmp_path, embedder="hashing", llm="openai", llm_model="gpt-test"),
        clock=FixedClock(START),
        embedder=HashingEmbedder(256),
        chat_model=real,
    )
    try:
        personality = (await built.characters.load("haru")).profile.personality
        script.identity_diff = {"personality": [*personality, "용감하다"]}
        await built.streams.ingest("haru", "s1", events())
        end = await built.streams.end_stream("haru", "s1")
    finally:
        await built.aclose()
    assert end.diary.text.startswith("What a stream tonight.")
    assert end.diary.model == "openai:gpt-test"
    assert SCRIPTED_DIARY_PREFIX not in end.diary.text
    (outcome,) = end.identity
    assert [change.field for change in outcome.accepted] == ["personality"]
    assert script.asked[:2] == ["diary", "identity"]


@pytest.mark.anyio
async def test_forgetting_a_viewer_takes_their_name_out_of_the_demo_diary(
    tmp_path: Path,
) -> None:
    said = [
        StreamEvent("yuki", "ゆき", "マイクラ大好き、今日も建築した", START, "twitch"),
        StreamEvent("yuki", "ゆき", "マイクラでお城を作ったよ", START, "twitch"),
        StreamEvent("sora", "そら", "ラーメン食べながら見てる", START, "twitch"),
    ]
    async with offline(tmp_path) as (built, service):
        await service.ingest("haru", "s1", said)
        end = await service.end_stream("haru", "s1")
        assert "「ゆき」" in end.diary.text and "「そら」" in end.diary.text
        await built.viewer_data.forget_viewer(Scope("haru", "yuki"))
        (entry,) = await service.diary("haru")
        assert "ゆき" not in entry.text and "「そら」" in entry.text

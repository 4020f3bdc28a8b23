"""The diary: written every N comments and at stream end, searchable in the character's
own memory, bounded prompts, structured when there is no model or the model fails."""

from __future__ import annotations

from datetime import timedelta

import anyio
import pytest

from omoide.character.identity import IdentityService
from omoide.character.identity_policy import IdentityPolicy
from omoide.clock import FixedClock
from omoide.domain import Scope
from omoide.errors import Conflict, NotFound
from omoide.llm.scripted import ScriptedChatModel
from omoide.store.claims import Claimant
from omoide.store.records.stream import (
    CLAIM_SECONDS,
    CommentEntry,
    DiaryJob,
    DiaryReason,
    DiaryWindow,
)
from omoide.stream.config import StreamConfig
from omoide.stream.diary import DiaryEntry, DiaryWriter
from omoide.stream.events import StreamEvent
from omoide.stream.logs import DiaryJobLog
from omoide.stream.summaries import STRUCTURED_DIARY_PREFIX
from omoide.wiring.storage import GrowthLogs, sqlite_growth
from tests.stream.harness import START, Parts, StreamScript, open_service

CONFIG = StreamConfig(diary_every=20, viewer_batch_size=50)


def chat(
    count: int, *, offset: int = 0, text: str = "I really love Minecraft building"
) -> list[StreamEvent]:
    return [
        StreamEvent(
            f"v{index % 4}", f"Fan{index % 4}", f"{text} {index}", START + timedelta(seconds=index)
        )
        for index in range(offset, offset + count)
    ]


@pytest.mark.anyio
async def test_without_a_model_entries_are_written_inline_and_structured(
    omoide: Parts, cid: str
) -> None:
    service = await open_service(omoide, use_llm=False, config=CONFIG)
    first = await service.ingest(cid, "s1", chat(15))
    assert (first.diary_entries_written, first.diary_entries_queued) == (0, 0)
    second = await service.ingest(cid, "s1", chat(30, offset=15))
    assert (second.diary_entries_written, second.diary_entries_queued) == (2, 0)
    entries = await service.diary(cid)
    assert [entry.number for entry in entries] == [2, 1], "newest first"
    entry = entries[-1]
    assert entry.method == "structured" and entry.text.startswith(STRUCTURED_DIARY_PREFIX)
    assert "20 comments" in entry.text and "from 4 viewers" in entry.text
    assert "Most active viewers: Fan0 (5), Fan1 (5)" in entry.text
    assert "Minecraft" in entry.text, "topics of the window"
    assert "thanks and affection" not in entry.text
    assert "enthusiasm about things they like" in entry.text


@pytest.mark.anyio
async def test_diary_entries_are_the_characters_searchable_memory(
    omoide: Parts, cid: str, clock: FixedClock
) -> None:
    service = await open_service(omoide, use_llm=False, config=CONFIG)
    await service.ingest(cid, "s1", chat(20, text="We all cheered for Valorant clutches"))
    later = START + timedelta(hours=1)
    found = await omoide.memory.search(Scope(cid), "Valorant", now=later)
    diaries = [hit.item for hit in found.episodes if hit.item.metadata.get("kind") == "diary"]
    assert diaries and diaries[0].metadata["stream_id"] == "s1"
    viewer_view = await omoide.memory.search(Scope(cid, "v1"), "Valorant", now=later)
    assert all(hit.item.scope.user_id == "v1" for hit in viewer_view.episodes)


@pytest.mark.anyio
async def test_with_a_model_entries_wait_for_the_worker(
    omoide: Parts, cid: str, model: ScriptedChatModel, script: StreamScript, clock: FixedClock
) -> None:
    service = await open_service(omoide, config=CONFIG)
    report = await service.ingest(cid, "s1", chat(45))
    assert (report.diary_entries_written, report.diary_entries_queued) == (0, 2)
    assert model.call_count == 0
    clock.set(START + timedelta(hours=1))
    end = await service.end_stream(cid, "s1")
    assert [e.number for e in end.earlier_entries] == [1, 2]
    assert (end.diary.number, end.diary.reason, end.diary.comment_count) == (3, DiaryReason.END, 5)
    assert end.diary.method == "llm" and end.diary.written_at == START + timedelta(hours=1)
    assert "Minecraft" in end.diary.text and end.diary.mood == "happy"
    with pytest.raises(Conflict):
        await service.end_stream(cid, "s1")
    with pytest.raises(NotFound):
        await service.end_stream(cid, "never-started")


@pytest.mark.anyio
async def test_the_digest_is_bounded_however_long_the_window(
    omoide: Parts, cid: str, model: ScriptedChatModel, clock: FixedClock
) -> None:
    config = StreamConfig(
        diary_every=600, digest_characters=1500, digest_comments=30, store_threshold=1.0
    )
    clock.set(START + timedelta(seconds=600))  # every comment below is in the clock's past
    service = await open_service(omoide, config=config)
    await service.ingest(cid, "s1", chat(600, text="long story about my day " * 12))
    await service.flush_due()
    diary_calls = [c for c in model.calls if "diary" in c.system_prompt.splitlines()[0]]
    (call,) = diary_calls
    prompt = call.last_user_message or ""
    assert len(prompt) <= config.digest_characters + 100
    assert "600 comments" in prompt


@pytest.mark.anyio
async def test_a_model_that_fails_twice_gets_a_structured_entry(
    omoide: Parts, cid: str, script: StreamScript
) -> None:
    script.diary_replies.extend(["Dear diary, no JSON today", '{"entry": ""}'])
    service = await open_service(omoide, config=CONFIG)
    await service.ingest(cid, "s1", chat(20))
    (entry,) = (await service.flush_due()).diary_entries
    assert entry.method == "structured" and entry.llm_failed
    assert entry.text.startswith(STRUCTURED_DIARY_PREFIX)
    assert omoide.metrics.get("stream.diary_llm_failures") == 1


@pytest.mark.anyio
async def test_ending_a_stream_with_nothing_new_still_closes_it(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide, use_llm=False, config=CONFIG)
    await service.ingest(cid, "s1", chat(20))
    end = await service.end_stream(cid, "s1")
    assert end.diary.comment_count == 0 and "No new comments" in end.diary.text
    reopened = await service.ingest(cid, "s1", chat(1, offset=20))
    assert reopened.comment_count == 21
    assert (await service.end_stream(cid, "s1")).diary.number == 3


class ClaimWatch:
    """An instance's diary jobs, telling the test each time the instance asked for some
    and came back empty-handed (another instance held them)."""

    def __init__(self, inner: DiaryJobLog) -> None:
        self._inner = inner
        self.found_none = anyio.Event()

    async def claim_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        jobs = await self._inner.claim_diary_jobs(
            character_id=character_id, stream_id=stream_id, limit=limit
        )
        if not jobs:
            self.found_none.set()
        return jobs

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        return await self._inner.diary_window(job, sample=sample, facts=facts, top=top)

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        await self._inner.finish_diary_job(job, episode_id=episode_id)


def diary_writer(omoide: Parts, log: GrowthLogs, *, jobs: DiaryJobLog | None = None) -> DiaryWriter:
    """A diary writer of one "instance": its own store object on the shared file."""
    profiles = IdentityService(
        versions=log.identity,
        changes=log.identity,
        characters=omoide.characters,
        policy=IdentityPolicy(),
        clock=omoide.clock,
        metrics=omoide.metrics,
    )
    return DiaryWriter(
        log=jobs or log.diary_jobs,
        store=omoide.store,
        embedder=omoide.embedder,
        profiles=profiles,
        llm=omoide.chat_model,
        config=CONFIG,
        clock=omoide.clock,
        metrics=omoide.metrics,
    )


@pytest.mark.anyio
async def test_an_entry_another_instance_holds_is_waited_for_not_written_twice(
    omoide: Parts, cid: str, script: StreamScript, clock: FixedClock
) -> None:
    one = sqlite_growth(omoide.growth_path, claimant=Claimant(clock=clock))
    two = sqlite_growth(omoide.growth_path, claimant=Claimant(clock=FixedClock(START)))
    try:
        said = [
            CommentEntry(
                f"v{n}", f"Fan{n}", "I love Minecraft", START, "twitch", None, True, False, 0.5
            )
            for n in range(6)
        ]
        held, dropped = (
            await one.stream.append(cid, "s1", said, diary_every=3, at=START)
        ).diary_jobs
        taken = await two.diary_jobs.claim_diary_jobs(character_id=cid, stream_id=None, limit=2)
        assert taken == [held, dropped], "instance two takes both jobs"
        waited: list[DiaryEntry] = []
        watch = ClaimWatch(one.diary_jobs)

        async def wait() -> None:
            try:
                waited.append(await diary_writer(omoide, one, jobs=watch).written(held))
            finally:
                watch.found_none.set()  # also if one did not wait at all (then it fails)

        async with anyio.create_task_group() as group:
            group.start_soon(wait)
            await watch.found_none.wait()  # one looked for the job and found it held
            assert waited == [] and script.asked == [], "one waits while two holds the job"
            (entry,) = await diary_writer(omoide, two).write_pending(stream_id="s1", limit=1)
        assert waited == [entry] and script.asked == ["diary"], "written once, by two"

        clock.set(START + timedelta(seconds=CLAIM_SECONDS))  # two died holding the other job
        mine = await diary_writer(omoide, one).written(dropped)
        assert mine.number == dropped.number and script.asked == ["diary", "diary"]
    finally:
        await one.aclose()
        await two.aclose()

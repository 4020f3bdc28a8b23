"""Per-viewer model work: batched by count or idle time, one call per batch."""

from __future__ import annotations

from datetime import timedelta

import pytest

from omoide.clock import FixedClock
from omoide.domain import FactCategory, Scope
from omoide.errors import NotFound
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.config import StreamConfig
from omoide.stream.summaries import STRUCTURED_VIEWER_PREFIX
from tests.stream.harness import START, Parts, StreamScript, comments, open_service

CONFIG = StreamConfig(viewer_batch_size=20, viewer_idle_seconds=300)


def chat(count: int) -> list[str]:
    return [f"Today I played Deadlock round {index} and it was fun" for index in range(count)]


@pytest.mark.anyio
async def test_a_viewer_batch_is_due_at_its_size_or_after_idle_time(
    omoide: Parts, cid: str, model: ScriptedChatModel, clock: FixedClock
) -> None:
    service = await open_service(omoide, config=CONFIG)
    await service.ingest(cid, "s1", comments(chat(45), viewer="v1"))
    await service.ingest(cid, "s1", comments(chat(3), viewer="v2"))
    first = await service.flush_due()
    assert (first.viewers.batches, first.viewers.comments) == (1, 20)
    second = await service.flush_due()
    assert (second.viewers.batches, second.viewers.comments) == (1, 20)
    assert (await service.flush_due()).viewers.batches == 0, "5 + 3 waiting, not idle yet"
    assert model.call_count == 2

    clock.set(START + timedelta(seconds=CONFIG.viewer_idle_seconds + 1))
    idle = await service.flush_due()
    assert (idle.viewers.batches, idle.viewers.comments) == (2, 8)
    assert model.call_count == 4
    assert service.stats().llm_calls == 4


@pytest.mark.anyio
async def test_one_call_reads_the_batch_and_keeps_facts_in_the_viewers_scope(
    omoide: Parts, cid: str, script: StreamScript, model: ScriptedChatModel
) -> None:
    service = await open_service(omoide, config=CONFIG)
    await service.ingest(cid, "s1", comments(chat(5), viewer="v1", name="Mika"))
    await service.ingest(cid, "s1", comments(chat(5), viewer="v2", name="Jun"))
    report = await service.drain()
    assert report.viewers.batches == 2 and model.call_count == 2
    prompt = model.calls[0].messages[1].content
    assert prompt.count("round") == 5, "all five comments go into one prompt"

    mika = [fact.text for fact in await omoide.memory.list_facts(Scope(cid, "v1"))]
    jun = [fact.text for fact in await omoide.memory.list_facts(Scope(cid, "v2"))]
    assert "goes by Mika" in mika and "goes by Mika" not in jun
    assert "goes by Jun" in jun and "goes by Jun" not in mika
    summary = await service.viewer_summary(cid, "v1")
    assert (summary.method, summary.text) == ("llm", "Mika chats in streams.")
    assert summary.message_count == 5


@pytest.mark.anyio
async def test_without_a_model_the_summary_is_structured_and_says_so(
    omoide: Parts, cid: str
) -> None:
    service = await open_service(omoide, use_llm=False, config=CONFIG)
    await omoide.memory.add_fact(Scope(cid, "v1"), "comes when tired", FactCategory.EMOTION)
    await service.ingest(cid, "s1", comments(["I love Deadlock so much"], viewer="v1"))
    with pytest.raises(NotFound):
        await service.viewer_summary(cid, "v1")
    await service.drain()
    summary = await service.viewer_summary(cid, "v1")
    assert summary.method == "structured"
    assert summary.text.startswith(STRUCTURED_VIEWER_PREFIX)
    assert "emotion: comes when tired" in summary.text
    assert "Deadlock" in summary.text


@pytest.mark.anyio
async def test_a_malformed_batch_answer_falls_back_and_is_counted(
    omoide: Parts, cid: str, script: StreamScript, model: ScriptedChatModel
) -> None:
    script.viewer_replies.extend(["not json at all", '{"facts": "nope"}'])
    service = await open_service(omoide, config=CONFIG)
    await service.ingest(cid, "s1", comments(chat(3), viewer="v1"))
    report = await service.drain()
    assert (report.viewers.batches, report.viewers.failures) == (1, 1)
    assert model.call_count == 2, "one corrective retry, then give up"
    assert omoide.metrics.get("stream.viewer_batch_failures") == 1
    assert omoide.metrics.get("llm.parse_failures") == 1
    summary = await service.viewer_summary(cid, "v1")
    assert summary.method == "structured"
    assert (await service.flush_due(everything=True)).viewers.batches == 0, "not retried"


@pytest.mark.anyio
async def test_model_calls_per_thousand_messages_follow_the_batch_size(
    omoide: Parts, cid: str, model: ScriptedChatModel
) -> None:
    config = StreamConfig(viewer_batch_size=10, diary_every=10_000)
    service = await open_service(omoide, config=config)
    for viewer in range(5):
        await service.ingest(cid, "s1", comments(chat(40), viewer=f"v{viewer}"))
    await service.drain()
    stats = service.stats()
    assert stats.events == 200
    assert stats.llm_calls == model.call_count == 5 * 40 // 10
    assert stats.llm_calls_per_1000_messages == pytest.approx(1000 / config.viewer_batch_size)


@pytest.mark.anyio
async def test_tiny_idle_batches_skip_the_model(
    omoide: Parts, cid: str, model: ScriptedChatModel
) -> None:
    service = await open_service(omoide, config=StreamConfig(viewer_min_llm_comments=3))
    await service.ingest(cid, "s1", comments(chat(2), viewer="quiet"))
    await service.ingest(cid, "s1", comments(chat(3), viewer="chatty"))
    report = await service.drain()
    assert report.viewers.batches == 2
    assert model.call_count == 1, "only the batch of three went to the model"
    assert (await service.viewer_summary(cid, "quiet")).method == "structured"
    assert (await service.viewer_summary(cid, "chatty")).method == "llm"

"""Ingestion: validation before writing, what is kept, what is only counted."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from omoide.domain import Scope
from omoide.errors import InvalidInput, NotFound
from omoide.llm.scripted import ScriptedChatModel
from omoide.store.base import EpisodeFilter
from omoide.stream.config import StreamConfig
from omoide.stream.events import StreamEvent, event_from_json, events_from_json
from tests.stream.harness import START, Parts, comments, open_service

LOW_SIGNAL = ["ㅋㅋㅋㅋ", "www", "lol", "888", "草", "哈哈哈"]
SIGNAL = ["I love Deadlock so much", "my birthday is next week!", "疲れてる時によくここに来るんだ"]


def raw(index: int, **changes: Any) -> dict[str, Any]:
    event = {
        "viewer_id": f"v{index}",
        "display_name": f"V{index}",
        "text": f"I love game number {index}",
        "time": (START + timedelta(seconds=index)).isoformat(),
        "platform": "youtube",
    }
    return event | changes


async def stored_episodes(omoide: Parts, cid: str, viewer: str) -> int:
    return await omoide.store.count_episodes(Scope(cid, viewer), where=EpisodeFilter())


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"time": "2026-03-02T20:00:00"}, "time"),
        ({"text": "   "}, "text"),
        ({"viewer_id": ""}, "viewer_id"),
        ({"reply": 42}, "reply"),
        ({"text": None}, "text"),
    ],
)
async def test_one_bad_event_names_its_index_and_field_and_nothing_is_written(
    omoide: Parts, cid: str, bad: dict[str, Any], field: str
) -> None:
    service = await open_service(omoide)
    batch = [raw(index) for index in range(6)]
    batch[3] |= bad
    with pytest.raises(InvalidInput, match=rf"event 3: .*{field}"):
        await service.ingest(cid, "s1", events_from_json(batch))
    with pytest.raises(NotFound):
        await omoide_status(service, cid)
    for index in range(6):
        assert await stored_episodes(omoide, cid, f"v{index}") == 0


async def omoide_status(service: Any, cid: str) -> None:
    """The stream's status in the log (NotFound while nothing was logged)."""
    await service._log.status(cid, "s1")


@pytest.mark.anyio
async def test_a_batch_with_a_non_event_is_refused_whole(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide)
    events: list[Any] = comments(SIGNAL)
    events.insert(2, {"viewer_id": "v9", "text": "not validated"})
    with pytest.raises(InvalidInput, match="event 2"):
        await service.ingest(cid, "s1", events)
    assert await stored_episodes(omoide, cid, "v1") == 0
    with pytest.raises(NotFound):
        await omoide_status(service, cid)


@pytest.mark.anyio
async def test_low_signal_comments_are_counted_but_not_stored(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide, use_llm=False)
    report = await service.ingest(cid, "s1", comments([*LOW_SIGNAL, *SIGNAL]))
    assert report.received == len(LOW_SIGNAL) + len(SIGNAL)
    assert report.skipped_low_signal == len(LOW_SIGNAL)
    assert report.stored == len(SIGNAL)
    assert report.comment_count == len(LOW_SIGNAL) + len(SIGNAL)
    episodes = await omoide.store.list_episodes(Scope(cid, "v1"), where=EpisodeFilter(), limit=50)
    assert sorted(e.user_message for e in episodes) == sorted(SIGNAL)


@pytest.mark.anyio
async def test_plain_comments_are_skipped_unless_answered(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide, use_llm=False)
    plain = [
        StreamEvent("v1", "A", "this map looks huge", START),
        StreamEvent("v2", "B", "this map looks huge", START, reply="Hi B, welcome!"),
        StreamEvent("v3", "C", "ㅋㅋ", START, reply="ㅋㅋ 왜 웃어요?"),
    ]
    report = await service.ingest(cid, "s1", plain)
    assert (report.stored, report.replied) == (2, 2)
    assert (report.skipped_below_threshold, report.skipped_low_signal) == (1, 0)
    assert [await stored_episodes(omoide, cid, v) for v in ("v1", "v2", "v3")] == [0, 1, 1]
    (answered,) = await omoide.store.list_episodes(Scope(cid, "v2"), where=EpisodeFilter(), limit=5)
    assert answered.bot_message == "Hi B, welcome!"
    assert answered.metadata["stream_id"] == "s1"


@pytest.mark.anyio
async def test_the_store_threshold_is_configurable(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide, use_llm=False, config=StreamConfig(store_threshold=0.3))
    report = await service.ingest(cid, "s1", comments(["this map looks huge"]))
    assert report.stored == 1


@pytest.mark.anyio
async def test_ingestion_never_calls_the_model(
    omoide: Parts, cid: str, model: ScriptedChatModel
) -> None:
    config = StreamConfig(viewer_batch_size=2, viewer_min_llm_comments=1)
    service = await open_service(omoide, config=config)
    many = comments(SIGNAL * 10)
    report = await service.ingest(cid, "s1", many)
    assert report.stored == len(many)
    assert model.call_count == 0
    flushed = await service.flush_due()
    assert flushed.viewers.batches == 1 and model.call_count == 1


@pytest.mark.anyio
async def test_unknown_characters_and_oversized_batches_are_refused(
    omoide: Parts, cid: str
) -> None:
    service = await open_service(omoide, config=StreamConfig(max_events_per_batch=2))
    with pytest.raises(NotFound):
        await service.ingest("nobody", "s1", comments(SIGNAL[:1]))
    with pytest.raises(InvalidInput, match="at most 2 events"):
        await service.ingest(cid, "s1", comments(SIGNAL))
    with pytest.raises(InvalidInput, match="stream_id"):
        await service.ingest(cid, "", comments(SIGNAL[:1]))


@pytest.mark.anyio
async def test_an_empty_batch_logs_nothing(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide)
    report = await service.ingest(cid, "s1", [])
    assert (report.received, report.comment_count) == (0, 0)
    with pytest.raises(NotFound):
        await omoide_status(service, cid)
    await service.ingest(cid, "s1", comments(SIGNAL))
    assert (await service.ingest(cid, "s1", [])).comment_count == len(SIGNAL)


def test_events_from_json_defaults_and_normalises() -> None:
    event = event_from_json(
        {"viewer_id": "v1", "text": "hi", "time": "2026-03-02T21:00:00+09:00", "reply": "  "}
    )
    assert event.display_name == "v1"
    assert event.platform == "unknown"
    assert event.reply is None
    assert event.time == datetime.fromisoformat("2026-03-02T12:00:00+00:00")
    assert event_from_json(raw(1, time="2026-03-02T12:00:00Z")).time.utcoffset() == timedelta(0)
    with pytest.raises(InvalidInput, match="time is not an ISO"):
        event_from_json(raw(1, time="yesterday"))
    with pytest.raises(InvalidInput, match="JSON object"):
        event_from_json(["v1"])

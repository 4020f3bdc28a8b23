from __future__ import annotations

import omoide.stream


def test_the_public_api_is_pinned() -> None:
    assert sorted(omoide.stream.__all__) == [
        "DEFAULT_DIARY_EVERY",
        "DiaryEntry",
        "DiaryJob",
        "DiaryJobLog",
        "DiaryReason",
        "DiaryWriter",
        "FlushReport",
        "IdentityEvolver",
        "IngestReport",
        "InteractionWriter",
        "RuleOnlyWriter",
        "StreamConfig",
        "StreamEnd",
        "StreamEvent",
        "StreamIngestor",
        "StreamLog",
        "StreamService",
        "StreamStats",
        "StreamStatus",
        "ViewerFlush",
        "ViewerSummaryRecord",
        "ViewerWorkLog",
        "ViewerWorker",
        "diary_entry_from_episode",
        "event_from_json",
        "events_from_json",
    ]
    for name in omoide.stream.__all__:
        assert getattr(omoide.stream, name) is not None

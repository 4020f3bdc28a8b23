from __future__ import annotations

import omoide.stream


def test_the_public_api_is_pinned() -> None:
    assert sorted(omoide.stream.__all__) == [
        "DEFAULT_DIARY_EVERY",
        "DiaryEntry",
        "DiaryJob",
        "DiaryReason",
        "DiaryWriter",
        "FlushReport",
        "GrowthStore",
        "IdentityEvolver",
        "IngestReport",
        "InteractionWriter",
        "RuleOnlyWriter",
        "StreamConfig",
        "StreamEnd",
        "StreamEvent",
        "StreamIngestor",
        "StreamService",
        "StreamStats",
        "StreamStatus",
        "ViewerFlush",
        "ViewerSummaryRecord",
        "ViewerWorker",
        "diary_entry_from_episode",
        "event_from_json",
        "events_from_json",
    ]
    for name in omoide.stream.__all__:
        assert getattr(omoide.stream, name) is not None

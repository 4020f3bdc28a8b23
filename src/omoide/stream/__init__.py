"""Live streams: comments in, per-viewer memory, a diary, and a character that grows.

::

    service = omoide.streams                                      # omoide.wiring.build(...)
    report = await service.ingest("haru", "stream-42", events)   # no model on this path
    await service.flush_due()                                      # the background worker
    end = await service.end_stream("haru", "stream-42")           # closing diary entry
    entries = await service.diary("haru")
    pending = await service.identity.changes("haru")              # proposed profile diffs

See :mod:`omoide.stream.ingest` (what is kept), :mod:`omoide.stream.viewers` (batched model
work per viewer), :mod:`omoide.stream.diary` and :mod:`omoide.character.identity`.
"""

from omoide.store.records.stream import DiaryJob, DiaryReason, StreamStatus, ViewerSummaryRecord
from omoide.stream.config import DEFAULT_DIARY_EVERY, StreamConfig
from omoide.stream.diary import DiaryEntry, DiaryWriter, diary_entry_from_episode
from omoide.stream.events import StreamEvent, event_from_json, events_from_json
from omoide.stream.evolution import IdentityEvolver
from omoide.stream.ingest import IngestReport, StreamIngestor
from omoide.stream.logs import DiaryJobLog, StreamLog, ViewerWorkLog
from omoide.stream.service import (
    FlushReport,
    StreamEnd,
    StreamService,
    StreamStats,
)
from omoide.stream.viewers import ViewerFlush, ViewerWorker
from omoide.stream.writer import InteractionWriter, RuleOnlyWriter

__all__ = [
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

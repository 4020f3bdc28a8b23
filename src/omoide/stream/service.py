"""The stream service: ingestion, the background worker, diary and identity, in one place.

::

    omoide = await build(settings)                           # omoide.wiring
    report = await omoide.streams.ingest("haru", "2026-03-02", events)
    ...                                                      # worker: await streams.run()
    end = await omoide.streams.end_stream("haru", "2026-03-02")   # closing diary entry
    profile = await omoide.streams.identity.current_profile("haru")

The service is built in :mod:`omoide.wiring.streams`, over the same store, embedder, fact
keeper and identity service as the rest of omoide, its logs (:mod:`omoide.stream.logs`)
each passed on its own, with the ``stream_*`` settings. Which model does stream work is
``OMOIDE_STREAM_LLM``: ``auto`` (default) the configured chat model, a real one or the
scripted demo model (``OMOIDE_LLM=scripted``), which writes deterministic diary entries,
identity proposals and viewer summaries labelled as scripted, so the whole growth loop can
be tried offline; ``on`` whatever chat model is configured (a scripted one in tests and
benchmarks); ``off`` none. Without a model, diary entries at comment thresholds are
written on the ingestion path (structured, no model involved); with one, they are queued
for the worker.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import anyio

from omoide.character.identity import IdentityOutcome, IdentityService
from omoide.clock import Clock
from omoide.errors import NotFound, OmoideError
from omoide.metrics import Metrics
from omoide.store.records.identity import PendingChange
from omoide.store.records.stream import ViewerSummaryRecord
from omoide.stream.diary import DiaryEntry, DiaryWriter
from omoide.stream.events import StreamEvent
from omoide.stream.evolution import IdentityEvolver
from omoide.stream.ingest import IngestReport, StreamIngestor
from omoide.stream.logs import StreamLog, ViewerWorkLog
from omoide.stream.viewers import LLM_CALLS_METRIC, ViewerFlush, ViewerWorker

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StreamEnd:
    """The closing diary entry, entries written before it, and the identity outcomes."""

    diary: DiaryEntry
    earlier_entries: tuple[DiaryEntry, ...] = ()
    identity: tuple[IdentityOutcome, ...] = ()


@dataclass(frozen=True, slots=True)
class FlushReport:
    diary_entries: tuple[DiaryEntry, ...] = ()
    identity: tuple[IdentityOutcome, ...] = ()
    viewers: ViewerFlush = field(default_factory=ViewerFlush)

    @property
    def did_work(self) -> bool:
        return bool(self.diary_entries) or self.viewers.batches > 0

    def __add__(self, other: FlushReport) -> FlushReport:
        viewers = ViewerFlush(
            self.viewers.batches + other.viewers.batches,
            self.viewers.comments + other.viewers.comments,
            self.viewers.failures + other.viewers.failures,
        )
        return FlushReport(
            self.diary_entries + other.diary_entries, self.identity + other.identity, viewers
        )


@dataclass(frozen=True, slots=True)
class StreamStats:
    """Counters since the service started; model calls per 1,000 comments included."""

    events: int
    stored: int
    llm_calls: int
    viewer_batches: int
    diary_entries: int

    @property
    def llm_calls_per_1000_messages(self) -> float:
        return 1000.0 * self.llm_calls / self.events if self.events else 0.0


class StreamService:
    """Streams of one omoide instance; see the module docstring."""

    def __init__(
        self,
        *,
        ingestor: StreamIngestor,
        viewers: ViewerWorker,
        diaries: DiaryWriter,
        identity: IdentityService,
        evolver: IdentityEvolver | None,
        log: StreamLog,
        viewer_log: ViewerWorkLog,
        uses_llm: bool,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._ingestor = ingestor
        self._viewers = viewers
        self._diaries = diaries
        self._identity = identity
        self._evolver = evolver
        self._log = log
        self._viewer_log = viewer_log
        self._uses_llm = uses_llm
        self._clock = clock
        self._metrics = metrics
        self._wake = anyio.Event()

    @property
    def identity(self) -> IdentityService:
        return self._identity

    @property
    def uses_llm(self) -> bool:
        return self._uses_llm

    async def ingest(
        self, character_id: str, stream_id: str, events: Sequence[StreamEvent]
    ) -> IngestReport:
        """Remember a batch of comments; never waits for a model (see StreamIngestor)."""
        report = await self._ingestor.ingest(character_id, stream_id, events)
        written = 0
        if report.diary_jobs and not self._uses_llm:
            entries = await self._diaries.write_pending(
                character_id=character_id, stream_id=stream_id
            )
            written = len(entries)
        self.notify()
        return replace(report, diary_entries_written=written)

    async def end_stream(
        self, character_id: str, stream_id: str, *, now: datetime | None = None
    ) -> StreamEnd:
        """Write the stream's remaining diary entries and its closing one (waits for the
        model), then let the character propose changes to its profile. The stream's
        viewers with comments waiting are summarised by the worker's next round."""
        job = await self._log.end(character_id, stream_id, at=now or self._clock.now())
        self._viewers.stream_ended(character_id)
        self.notify()
        entries = await self._diaries.write_pending(character_id=character_id, stream_id=stream_id)
        outcomes = [outcome for entry in entries if (outcome := await self._evolve(entry))]
        closing = next((e for e in entries if e.number == job.number), None)
        if closing is None:  # a worker, here or in another instance, took it first
            closing = await self._diaries.written(job)
        earlier = tuple(entry for entry in entries if entry.id != closing.id)
        return StreamEnd(closing, earlier, tuple(outcomes))

    async def diary(
        self, character_id: str, *, limit: int = 20, offset: int = 0
    ) -> list[DiaryEntry]:
        return await self._diaries.entries(character_id, limit=limit, offset=offset)

    async def pending_changes(
        self, character_id: str
    ) -> list[tuple[PendingChange, DiaryEntry | None]]:
        """Identity changes waiting for a person, each with the diary entry it followed
        (whose ``model`` proposed it too), ``None`` when there is none."""
        changes = await self._identity.changes(character_id)
        return [(c, await self._diaries.find(character_id, c.diary_entry_id)) for c in changes]

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord:
        summary = await self._viewer_log.viewer_summary(character_id, viewer_id)
        if summary is None:
            raise NotFound(f"no stream summary of viewer {viewer_id!r} for {character_id!r} yet")
        return summary

    async def flush_due(
        self, now: datetime | None = None, *, everything: bool = False
    ) -> FlushReport:
        """The worker's step: queued diary entries (and identity proposals), then one batch
        from each due viewer (``everything``: from each viewer with comments waiting)."""
        entries = await self._diaries.write_pending()
        outcomes = [outcome for entry in entries if (outcome := await self._evolve(entry))]
        viewers = await self._viewers.flush_due(now, everything=everything)
        return FlushReport(tuple(entries), tuple(outcomes), viewers)

    async def drain(self) -> FlushReport:
        """Flush until nothing is waiting (tests, replays, shutdown)."""
        total = FlushReport()
        while (report := await self.flush_due(everything=True)).did_work:
            total += report
        return total

    def notify(self) -> None:
        """Wake the worker: work may be waiting."""
        self._wake.set()

    async def run(self, *, poll_seconds: float = 1.0) -> None:
        """Work until cancelled; failures are logged and retried on the next round."""
        while True:
            try:
                report = await self.flush_due()
            except OmoideError:
                logger.exception("stream worker round failed; retrying")
                report = FlushReport()
            if not report.did_work:
                with anyio.move_on_after(poll_seconds):
                    await self._wake.wait()
                self._wake = anyio.Event()

    def stats(self) -> StreamStats:
        metrics = self._metrics
        return StreamStats(
            events=metrics.get("stream.events"),
            stored=metrics.get("stream.stored"),
            llm_calls=metrics.get(LLM_CALLS_METRIC),
            viewer_batches=metrics.get("stream.viewer_batches"),
            diary_entries=metrics.get("stream.diary_entries"),
        )

    async def _evolve(self, entry: DiaryEntry) -> IdentityOutcome | None:
        if self._evolver is None:
            return None
        return await self._evolver.evolve(entry)

"""The stream service: ingestion, the background worker, diary and identity, in one place.

::

    service = await open_stream_service(omoide)             # omoide = await build(settings)
    report = await service.ingest("haru", "2026-03-02", events)
    ...                                                      # worker: await service.run()
    end = await service.end_stream("haru", "2026-03-02")    # closing diary entry
    profile = await service.identity.current_profile("haru")

Which model does stream work: ``use_llm=None`` (default) uses the configured chat model
only when it is a real one (``Settings.uses_real_llm``), like the memory pipeline;
``True`` uses whatever chat model is configured (a scripted one in tests and benchmarks);
``False`` none. Without a model, diary entries at comment thresholds are written on the
ingestion path (structured, no model involved); with one, they are queued for the worker.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Protocol

import anyio

from omoide.character.identity import IdentityOutcome, IdentityPolicy, IdentityService
from omoide.character.identity_store import IdentityStore
from omoide.character.library import CharacterLibrary
from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.embed.threshold_cache import ThresholdCache, cached_duplicate_threshold
from omoide.errors import ConfigError, NotFound, OmoideError
from omoide.llm.base import ChatModel
from omoide.memory.facts import FactKeeper
from omoide.metrics import Metrics
from omoide.store.base import MemoryStore
from omoide.store.records.stream import ViewerStreamData, ViewerSummaryRecord
from omoide.stream.config import StreamConfig
from omoide.stream.diary import DiaryEntry, DiaryWriter
from omoide.stream.events import StreamEvent
from omoide.stream.evolution import IdentityEvolver
from omoide.stream.ingest import IngestReport, StreamIngestor
from omoide.stream.logs import DiaryJobLog, StreamLog, ViewerWorkLog
from omoide.stream.viewers import LLM_CALLS_METRIC, ViewerFlush, ViewerWorker
from omoide.stream.writer import RuleOnlyWriter

logger = logging.getLogger(__name__)


class GrowthStore(StreamLog, DiaryJobLog, ViewerWorkLog, Protocol):
    """Everything the stream service keeps beside the memory store."""

    @property
    def identity(self) -> IdentityStore:
        """The characters' identity histories, kept beside the logs."""
        ...

    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Everything kept about one viewer: comments, noted facts, summary, work."""
        ...

    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Delete what :meth:`viewer_data` shows; what was removed."""
        ...

    async def close(self) -> None: ...


class OmoideParts(Protocol):
    """What the service needs from :class:`omoide.wiring.Omoide` (which satisfies it)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def metrics(self) -> Metrics: ...
    @property
    def embedder(self) -> Embedder: ...
    @property
    def store(self) -> MemoryStore: ...
    @property
    def characters(self) -> CharacterLibrary: ...
    @property
    def chat_model(self) -> ChatModel | None: ...
    @property
    def growth(self) -> GrowthStore | None:
        """The instance's growth store, which the service shares in the server profile."""


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
        growth: GrowthStore,
        uses_llm: bool,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._ingestor = ingestor
        self._viewers = viewers
        self._diaries = diaries
        self._identity = identity
        self._evolver = evolver
        self._growth = growth
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
        model), then let the character propose changes to its profile."""
        job = await self._growth.end(character_id, stream_id, at=now or self._clock.now())
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

    async def viewer_summary(self, character_id: str, viewer_id: str) -> ViewerSummaryRecord:
        summary = await self._growth.viewer_summary(character_id, viewer_id)
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

    async def aclose(self) -> None:
        await self._growth.close()

    async def _evolve(self, entry: DiaryEntry) -> IdentityOutcome | None:
        if self._evolver is None:
            return None
        return await self._evolver.evolve(entry)


def _chat_model(parts: OmoideParts, use_llm: bool | None) -> ChatModel | None:
    if use_llm is False:
        return None
    if use_llm is None:
        return parts.chat_model if parts.settings.uses_real_llm else None
    if parts.chat_model is None:
        raise ConfigError("use_llm=True needs a chat model (set OMOIDE_LLM)")
    return parts.chat_model


async def open_stream_service(
    parts: OmoideParts,
    *,
    config: StreamConfig | None = None,
    policy: IdentityPolicy | None = None,
    use_llm: bool | None = None,
    growth: GrowthStore | None = None,
) -> StreamService:
    """Build the stream service over an omoide instance's store, embedder and characters.

    ``growth`` defaults to :class:`~omoide.store.sqlite.growth.SqliteGrowthStore` at
    ``data_dir/growth.sqlite3``; in the server profile, to ``parts.growth`` (PostgreSQL).
    """
    config = config or StreamConfig()
    llm = _chat_model(parts, use_llm)
    if growth is None:
        growth = _default_growth(parts)
    cache = ThresholdCache(Path(parts.settings.data_dir) / "calibration.json")
    duplicate = await cached_duplicate_threshold(parts.embedder, cache)
    facts = FactKeeper(
        store=parts.store,
        embedder=parts.embedder,
        duplicate_threshold=duplicate.threshold,
        metrics=parts.metrics,
    )
    identity = IdentityService(
        store=growth.identity,
        characters=parts.characters,
        policy=policy or IdentityPolicy(),
        clock=parts.clock,
        metrics=parts.metrics,
    )
    return _assemble(parts, config, llm, growth, facts, identity)


def _default_growth(parts: OmoideParts) -> GrowthStore:
    """The server profile shares the instance's PostgreSQL store (its ``close`` leaves the
    pool alone) and writes no file; the embedded profile opens its own file connection."""
    if parts.settings.store == "server":
        if parts.growth is None:
            raise ConfigError("the server profile keeps stream logs in PostgreSQL: pass growth")
        return parts.growth
    from omoide.store.sqlite.growth import GROWTH_FILE, SqliteGrowthStore

    return SqliteGrowthStore(Path(parts.settings.data_dir) / GROWTH_FILE)


def _assemble(
    parts: OmoideParts,
    config: StreamConfig,
    llm: ChatModel | None,
    growth: GrowthStore,
    facts: FactKeeper,
    identity: IdentityService,
) -> StreamService:
    clock, metrics = parts.clock, parts.metrics
    writer = RuleOnlyWriter(
        store=parts.store,
        embedder=parts.embedder,
        facts=facts,
        clock=clock,
        metrics=metrics,
        store_threshold=config.store_threshold,
        fact_extraction_threshold=config.fact_extraction_threshold,
    )
    evolver = None
    if llm is not None and config.evolve_identity:
        evolver = IdentityEvolver(identity=identity, llm=llm, metrics=metrics)
    ingestor = StreamIngestor(
        writer=writer,
        log=growth,
        characters=parts.characters,
        config=config,
        clock=clock,
        metrics=metrics,
    )
    viewers, diaries = _workers(parts, config, llm, growth, facts, identity)
    return StreamService(
        ingestor=ingestor,
        viewers=viewers,
        diaries=diaries,
        identity=identity,
        evolver=evolver,
        growth=growth,
        uses_llm=llm is not None,
        clock=clock,
        metrics=metrics,
    )


def _workers(
    parts: OmoideParts,
    config: StreamConfig,
    llm: ChatModel | None,
    growth: GrowthStore,
    facts: FactKeeper,
    identity: IdentityService,
) -> tuple[ViewerWorker, DiaryWriter]:
    store, embedder, clock, metrics = parts.store, parts.embedder, parts.clock, parts.metrics
    viewers = ViewerWorker(
        log=growth,
        store=store,
        embedder=embedder,
        facts=facts,
        llm=llm,
        config=config,
        clock=clock,
        metrics=metrics,
    )
    diaries = DiaryWriter(
        log=growth,
        store=store,
        embedder=embedder,
        profiles=identity,
        llm=llm,
        config=config,
        clock=clock,
        metrics=metrics,
    )
    return viewers, diaries

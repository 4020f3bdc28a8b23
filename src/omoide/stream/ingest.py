"""Stream ingestion: validate a batch of comments, remember what carries signal, log all.

The ingestion path never waits for a language model: importance and facts come from the
rules (:class:`~omoide.stream.writer.RuleOnlyWriter`), the batch's episodes are embedded
in one call and written in one transaction, and the comments go to the stream log, which
queues per-viewer model work and diary jobs for the background worker.

What happens to one comment:

* answered by the character (``reply`` present): an exchange, always kept as an episode;
* laughter and short reactions ("ㅋㅋ", "www", "lol", "888"): logged and counted for the
  diary, never stored;
* anything else: kept when its rule importance reaches ``StreamConfig.store_threshold``
  or (``StreamConfig.read_disclosures``) the disclosure model reads something the viewer
  told about themselves in it, otherwise logged and counted only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from omoide.character.library import CharacterLibrary
from omoide.character.topics import TopicTracker
from omoide.clock import Clock
from omoide.domain import Scope, TurnInput, TurnState, check_identifier, check_not_future
from omoide.errors import InvalidInput, NotFound
from omoide.memory.importance import ImportanceResult, is_low_signal, score_by_rules
from omoide.memory.turns import StoredTurn
from omoide.metrics import Metrics
from omoide.store.records.profile import check_character_id
from omoide.store.records.stream import CommentEntry, DiaryJob, LearnedFact
from omoide.stream.config import StreamConfig
from omoide.stream.events import StreamEvent
from omoide.stream.logs import StreamLog
from omoide.stream.writer import InteractionWriter

MAX_TOPICS_PER_COMMENT = 8
STREAM_EMOTION = TurnState(emotion="neutral", emotion_intensity=0.0)
"""Chat comments come without an emotion reading; intensity 0 adds nothing to the score."""


@dataclass(frozen=True, slots=True)
class IngestReport:
    """What one batch did. ``diary_entries_written`` is filled by the service."""

    character_id: str
    stream_id: str
    received: int
    stored: int
    replied: int
    skipped_low_signal: int
    skipped_below_threshold: int
    comment_count: int
    diary_jobs: tuple[DiaryJob, ...] = ()
    diary_entries_written: int = 0

    @property
    def diary_entries_queued(self) -> int:
        """Entries this batch made due that wait for the worker (written ones excluded)."""
        return max(0, len(self.diary_jobs) - self.diary_entries_written)


@dataclass(frozen=True, slots=True)
class _Plan:
    event: StreamEvent
    signal: bool
    rules: ImportanceResult
    turn: TurnInput | None


class StreamIngestor:
    """Turns batches of stream comments into memories and stream-log entries."""

    def __init__(
        self,
        *,
        writer: InteractionWriter,
        log: StreamLog,
        characters: CharacterLibrary,
        config: StreamConfig,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._writer = writer
        self._clock = clock
        self._log = log
        self._characters = characters
        self._config = config
        self._metrics = metrics
        self._trackers: dict[tuple[str, str], TopicTracker] = {}

    async def ingest(
        self, character_id: str, stream_id: str, events: Sequence[StreamEvent]
    ) -> IngestReport:
        """Validate every event first (InvalidInput names the index; nothing is written),
        then store the batch's kept comments in one transaction and log them all."""
        check_character_id(character_id)
        check_identifier(stream_id, name="stream_id")
        if len(events) > self._config.max_events_per_batch:
            limit = self._config.max_events_per_batch
            raise InvalidInput(f"events: at most {limit} events per batch (got {len(events)})")
        tracker = await self._tracker(character_id)
        if not events:
            return IngestReport(
                character_id, stream_id, 0, 0, 0, 0, 0, await self._count(character_id, stream_id)
            )
        plans = [
            self._checked_plan(index, event, character_id, stream_id, tracker)
            for index, event in enumerate(events)
        ]
        turns = [plan.turn for plan in plans if plan.turn is not None]
        stored = await self._writer.store_interactions(character_id, turns) if turns else []
        entries = _entries(plans, iter(stored))
        appended = await self._log.append(
            character_id,
            stream_id,
            entries,
            diary_every=self._config.diary_every,
            at=self._clock.now(),
        )
        status = appended.status
        return self._report(
            character_id, stream_id, entries, status.comment_count, appended.diary_jobs
        )

    async def _count(self, character_id: str, stream_id: str) -> int:
        try:
            return (await self._log.status(character_id, stream_id)).comment_count
        except NotFound:
            return 0

    async def _tracker(self, character_id: str) -> TopicTracker:
        character = await self._characters.load(character_id)
        key = (character_id, character.profile.name)
        if key not in self._trackers:
            self._trackers[key] = TopicTracker.for_profile(character.profile)
        return self._trackers[key]

    def _checked_plan(
        self,
        index: int,
        event: object,
        character_id: str,
        stream_id: str,
        tracker: TopicTracker,
    ) -> _Plan:
        try:
            if not isinstance(event, StreamEvent):
                raise InvalidInput(f"must be a StreamEvent (got {type(event).__name__})")
            check_not_future(event.time, now=self._clock.now(), name="time")
            return self._plan(event, character_id, stream_id, tracker)
        except InvalidInput as exc:
            raise InvalidInput(f"event {index}: {exc}") from exc

    def _plan(
        self, event: StreamEvent, character_id: str, stream_id: str, tracker: TopicTracker
    ) -> _Plan:
        reply = event.reply or ""
        signal = not is_low_signal(event.text)
        rules = score_by_rules(
            event.text,
            reply,
            emotion_intensity=STREAM_EMOTION.emotion_intensity,
            store_threshold=self._config.store_threshold,
        )
        read = rules.worth_storing or self._config.read_disclosures  # the writer decides
        if not (event.answered or (signal and read)):
            return _Plan(event, signal, rules, None)
        topics: tuple[str, ...] = ()
        if self._config.extract_topics:
            found = tracker.extract(event.text, reply, viewer_name=event.display_name)
            topics = found[:MAX_TOPICS_PER_COMMENT]
        turn = TurnInput(
            scope=Scope(character_id, event.viewer_id),
            user_message=event.text,
            bot_message=reply,
            state=TurnState(STREAM_EMOTION.emotion, STREAM_EMOTION.emotion_intensity, topics),
            timestamp=event.time,
            metadata={
                "source": "stream",
                "stream_id": stream_id,
                "platform": event.platform,
                "display_name": event.display_name,
            },
            force_store=event.answered,
            user_name=event.display_name,
        )
        return _Plan(event, signal, rules, turn)

    def _report(
        self,
        character_id: str,
        stream_id: str,
        entries: Sequence[CommentEntry],
        comment_count: int,
        jobs: tuple[DiaryJob, ...],
    ) -> IngestReport:
        stored = sum(1 for entry in entries if entry.stored)
        low_signal = sum(1 for entry in entries if not entry.signal and not entry.stored)
        below = len(entries) - stored - low_signal
        for name, amount in (
            ("stream.events", len(entries)),
            ("stream.stored", stored),
            ("stream.skipped_low_signal", low_signal),
            ("stream.skipped_below_threshold", below),
        ):
            self._metrics.increment(name, amount)
        return IngestReport(
            character_id=character_id,
            stream_id=stream_id,
            received=len(entries),
            stored=stored,
            replied=sum(1 for entry in entries if entry.reply is not None),
            skipped_low_signal=low_signal,
            skipped_below_threshold=below,
            comment_count=comment_count,
            diary_jobs=jobs,
        )


def _entries(plans: Sequence[_Plan], outcomes: Iterator[StoredTurn]) -> list[CommentEntry]:
    """Log entries for every plan, in order, taking the next StoredTurn for kept ones."""
    entries = []
    for plan in plans:
        outcome: StoredTurn | None = next(outcomes) if plan.turn is not None else None
        entries.append(_entry(plan, outcome))
    return entries


def _entry(plan: _Plan, outcome: StoredTurn | None) -> CommentEntry:
    event = plan.event
    learned: tuple[LearnedFact, ...] = ()
    if outcome is not None:
        learned = tuple(
            LearnedFact(
                event.viewer_id, event.display_name, change.action, change.fact_id, change.text
            )
            for change in outcome.fact_changes
        )
    topics = plan.turn.state.topics if plan.turn is not None else ()
    return CommentEntry(
        viewer_id=event.viewer_id,
        display_name=event.display_name,
        text=event.text,
        time=event.time,
        platform=event.platform,
        reply=event.reply,
        signal=plan.signal,
        stored=outcome is not None and outcome.stored,
        importance=plan.rules.score,
        signals=tuple(name for name in plan.rules.signals if name != "low_signal"),
        topics=topics,
        episode_id=outcome.episode_id if outcome is not None else None,
        learned=learned,
    )

"""What the stream log keeps (the seams it is kept behind: :mod:`omoide.stream.logs`).

The stream log is separate from the memory store: it holds every comment of every stream
(for the diary), per-stream counters, the per-viewer queue of work waiting for the
language model, the viewers' rolling summaries and the diary jobs. The embedded
implementations are in the growth file (:mod:`omoide.store.sqlite.growth`); the server
ones, in PostgreSQL (:mod:`omoide.store.server.growth`).

Work is *claimed*: a diary job or a viewer's batch handed to one store object (one
service instance) is held by it for a lease of :data:`CLAIM_SECONDS`, and other instances
pass over it until the work is finished or the lease runs out (its instance died). A
claim never hides work from the object that holds it, so an instance that failed half-way
takes the same work again on its next round.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass
from datetime import datetime

CLAIM_SECONDS = 300.0
"""How long a claimed diary job or viewer batch stays with the instance that took it."""


@dataclass(frozen=True, slots=True)
class LearnedFact:
    """A change to a viewer's facts, noted in the stream log for the diary."""

    viewer_id: str
    display_name: str
    action: str
    fact_id: str
    text: str


@dataclass(frozen=True, slots=True)
class CommentEntry:
    """One comment as the ingestor hands it to the log.

    ``signal`` is False for laughter and short reactions; ``stored`` says whether it became
    an episode (``episode_id``); ``signals`` are the rule signal groups it matched.
    """

    viewer_id: str
    display_name: str
    text: str
    time: datetime
    platform: str
    reply: str | None
    signal: bool
    stored: bool
    importance: float
    signals: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    episode_id: str | None = None
    learned: tuple[LearnedFact, ...] = ()


@dataclass(frozen=True, slots=True)
class LoggedComment:
    """A comment read back from the log: its stream, its number there and its log id."""

    stream_id: str
    seq: int
    log_id: int
    entry: CommentEntry


@dataclass(frozen=True, slots=True)
class StreamStatus:
    character_id: str
    stream_id: str
    comment_count: int
    diary_through: int
    """Comments up to this number are covered by a diary entry written or queued."""
    started_at: datetime
    last_comment_at: datetime | None
    ended_at: datetime | None

    def threshold_windows(self, diary_every: int) -> list[int]:
        """Where each diary window not yet queued starts (after comment number ``n``): one
        for every ``diary_every`` comments past :attr:`diary_through`."""
        waiting = (self.comment_count - self.diary_through) // diary_every
        return [self.diary_through + n * diary_every for n in range(waiting)]


class DiaryReason(enum.StrEnum):
    """Why a diary entry was written: a comment threshold was crossed, or the stream ended."""

    THRESHOLD = "threshold"
    END = "end"


@dataclass(frozen=True, slots=True)
class DiaryJob:
    """A diary entry to write about comments ``from_seq..to_seq`` of one stream."""

    id: int
    character_id: str
    stream_id: str
    number: int
    reason: DiaryReason
    from_seq: int
    to_seq: int
    created_at: datetime
    episode_id: str | None = None


@dataclass(frozen=True, slots=True)
class Appended:
    """The stream after a batch was logged, and the diary jobs the batch queued."""

    status: StreamStatus
    diary_jobs: tuple[DiaryJob, ...]


@dataclass(frozen=True, slots=True)
class WindowStats:
    """Aggregates over one diary window of the stream log."""

    comments: int
    viewers: int
    low_signal: int
    stored: int
    replied: int
    first_time: datetime | None
    last_time: datetime | None
    top_viewers: tuple[tuple[str, int], ...]
    topics: tuple[tuple[str, int], ...]
    signals: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class DiaryWindow:
    """What a diary entry is written from: stats, a bounded sample, facts learned."""

    job: DiaryJob
    stats: WindowStats
    sample: tuple[LoggedComment, ...]
    learned: tuple[LearnedFact, ...]


@dataclass(frozen=True, slots=True)
class ViewerSummaryRecord:
    """A viewer's rolling summary; ``method`` is ``llm`` or ``structured``."""

    character_id: str
    viewer_id: str
    display_name: str
    text: str
    method: str
    message_count: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class ViewerBatch:
    """A viewer's comments waiting for the model, oldest first (at most one batch)."""

    character_id: str
    viewer_id: str
    comments: tuple[LoggedComment, ...]
    previous: ViewerSummaryRecord | None
    messages_seen: int

    @property
    def through_log_id(self) -> int:
        return self.comments[-1].log_id

    @property
    def display_name(self) -> str:
        return self.comments[-1].entry.display_name


@dataclass(frozen=True, slots=True)
class ViewerWork:
    """Where a viewer's queue of comments for the model stands (counts, no text)."""

    processed_through: int
    pending_count: int
    messages_seen: int


@dataclass(frozen=True, slots=True)
class ViewerStreamData:
    """Everything the stream log keeps about one viewer of one character: their comments,
    the facts noted from them, their rolling summary and their work row."""

    character_id: str
    viewer_id: str
    comments: tuple[LoggedComment, ...] = ()
    learned: tuple[LearnedFact, ...] = ()
    summary: ViewerSummaryRecord | None = None
    work: ViewerWork | None = None


_DIARY_NAMESPACE = uuid.UUID("0b8f6f1e-6a53-4c0e-9d43-2d6c1f7e5a10")


def diary_episode_id(job: DiaryJob) -> str:
    """The id of the diary entry ``job`` writes: the same for every attempt (and instance)."""
    return uuid.uuid5(_DIARY_NAMESPACE, f"{job.character_id}\x00{job.stream_id}\x00{job.id}").hex

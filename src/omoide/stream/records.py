"""What the stream log keeps, and the small seams it is kept behind.

The stream log is separate from the memory store: it holds every comment of every stream
(for the diary), per-stream counters, the per-viewer queue of work waiting for the
language model, the viewers' rolling summaries and the diary jobs. The embedded
implementation is :class:`omoide.store.growth_sqlite.SqliteGrowthStore`; the server one,
:class:`omoide.store.server.growth.PostgresGrowthStore`, implements the same Protocols.

Work is *claimed*: a diary job or a viewer's batch handed to one store object (one
service instance) is held by it for a lease of :data:`CLAIM_SECONDS`, and other instances
pass over it until the work is finished or the lease runs out (its instance died). A
claim never hides work from the object that holds it, so an instance that failed half-way
takes the same work again on its next round.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

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


class StreamLog(Protocol):
    """Comments and per-stream counters."""

    async def append(
        self,
        character_id: str,
        stream_id: str,
        comments: Sequence[CommentEntry],
        *,
        diary_every: int,
        at: datetime,
    ) -> Appended:
        """In one transaction: number and log the comments, note their facts, queue
        per-viewer work for comments with signal, and queue one diary job for every
        ``diary_every`` comments not yet covered. ``at`` is when the batch arrived: a
        viewer's idle time is counted from it, not from the comments' own times."""
        ...

    async def end(self, character_id: str, stream_id: str, *, at: datetime) -> DiaryJob:
        """Mark the stream ended and queue its closing diary job (NotFound if unknown;
        Conflict if it already ended with no comment since)."""
        ...

    async def status(self, character_id: str, stream_id: str) -> StreamStatus: ...


class DiaryJobLog(Protocol):
    """Diary jobs and the stream windows they cover."""

    async def claim_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        """Jobs not yet written that no other instance holds, oldest first, claimed for
        this one; ``None`` filters nothing."""
        ...

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow: ...

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        """Note the job's entry and release the claim."""
        ...


class ViewerWorkLog(Protocol):
    """The per-viewer queue of comments waiting for the model, and rolling summaries."""

    async def due_viewers(
        self, *, batch_size: int, idle_before: datetime | None, limit: int
    ) -> list[tuple[str, str]]:
        """(character, viewer) pairs with ``batch_size`` comments waiting, or any waiting
        since before ``idle_before`` (``None``: every viewer with waiting comments); the
        viewers whose work another instance holds are left out."""
        ...

    async def claim_viewer_batch(
        self, character_id: str, viewer_id: str, *, limit: int
    ) -> ViewerBatch | None:
        """The viewer's oldest waiting comments, claimed for this instance; ``None`` when
        none wait or another instance holds the viewer's work."""
        ...

    async def finish_viewer_batch(
        self,
        batch: ViewerBatch,
        *,
        summary: ViewerSummaryRecord | None,
        learned: Sequence[LearnedFact],
    ) -> bool:
        """Mark the batch done, save the summary, note the facts under its last comment,
        and release the claim; ``False`` (keeping nothing) when the viewer was forgotten
        while the batch was out."""
        ...

    async def viewer_summary(
        self, character_id: str, viewer_id: str
    ) -> ViewerSummaryRecord | None: ...

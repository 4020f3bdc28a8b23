"""The seams the stream logs are kept behind, one per log (their records:
:mod:`omoide.store.records.stream`), each passed on its own to what uses it.

* ``StreamLog``: :class:`~omoide.store.sqlite.growth.SqliteStreamLog` (the growth file),
  :class:`~omoide.store.server.growth.PostgresStreamLog`;
* ``DiaryJobLog``: :class:`~omoide.store.sqlite.diary_jobs.SqliteDiaryJobs`,
  :class:`~omoide.store.server.diary_jobs.PostgresDiaryJobs`;
* ``ViewerWorkLog``: :class:`~omoide.store.sqlite.viewer_work.SqliteViewerWork`,
  :class:`~omoide.store.server.viewer_work.PostgresViewerWork`.

The character's identity history is the fourth log
(:mod:`omoide.character.identity_store`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from omoide.store.records.stream import (
    Appended,
    CommentEntry,
    DiaryJob,
    DiaryWindow,
    LearnedFact,
    StreamStatus,
    ViewerBatch,
    ViewerSummaryRecord,
)


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

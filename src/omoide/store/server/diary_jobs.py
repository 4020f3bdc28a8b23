"""The diary jobs in the server store's PostgreSQL, and the stream windows they cover:
implements :class:`~omoide.stream.logs.DiaryJobLog` (queued by
:class:`~omoide.store.server.growth.PostgresStreamLog` as comments arrive).

Jobs are *claimed* with ``FOR UPDATE SKIP LOCKED`` by the instance that takes them until
its clock reads the lease later (:class:`~omoide.store.claims.Claimant`), so two instances
asking at once never take the same job, and a job whose instance died is taken again once
the lease is over.
"""

from __future__ import annotations

from omoide.store.claims import Claimant
from omoide.store.records.stream import DiaryJob, DiaryWindow, LearnedFact, WindowStats
from omoide.store.server import growth_sql as sql
from omoide.store.server.database import Connection, Database, execute, fetch_all
from omoide.store.server.growth_rows import (
    claim_parameters,
    comment_from_row,
    job_from_row,
    record,
    records,
    with_utc,
)


class PostgresDiaryJobs:
    """Diary jobs in ``database``, claimed under ``claimant``'s name."""

    def __init__(self, database: Database, claimant: Claimant) -> None:
        self._database = database
        self._claimant = claimant

    async def claim_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        wanted = claim_parameters(self._claimant)
        wanted |= {"character": character_id, "stream": stream_id, "limit": limit}
        async with self._database.transaction() as connection:
            rows = await records(connection, sql.CLAIM_JOBS, wanted)
        return sorted((job_from_row(row) for row in rows), key=lambda job: job.id)

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        async with self._database.transaction() as connection:
            await execute(connection, sql.FINISH_JOB, (episode_id, job.id))

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        async with self._database.transaction() as connection:
            return await _window(connection, job, sample, facts, top)


async def _window(
    connection: Connection, job: DiaryJob, sample: int, facts: int, top: int
) -> DiaryWindow:
    window = (job.character_id, job.stream_id, job.from_seq, job.to_seq)
    row = await record(connection, sql.WINDOW_TOTALS, window)
    assert row is not None  # an aggregate always has one row
    totals = with_utc(row, "first_time", "last_time")
    counted = {
        name: tuple(
            (str(label), int(count))
            for label, count in await fetch_all(connection, query, (*window, top))
        )
        for name, query in sql.RANKINGS.items()
    }
    stats = WindowStats(
        **{name: int(totals[name]) for name in ("comments", "viewers", "low_signal", "stored")},
        replied=int(totals["replied"]),
        first_time=totals["first_time"],
        last_time=totals["last_time"],
        top_viewers=counted["top_viewers"],
        topics=counted["topics"],
        signals=counted["signals"],
    )
    step = max(1, (job.to_seq - job.from_seq + 1) // max(1, sample))
    picked = await records(
        connection, sql.SAMPLE, (*window, job.from_seq, step, sample, *window, sample)
    )
    learned = await fetch_all(connection, sql.LEARNED, (*window, facts))
    return DiaryWindow(
        job,
        stats,
        tuple(comment_from_row(row) for row in picked),
        tuple(LearnedFact(*(str(value) for value in row)) for row in learned),
    )

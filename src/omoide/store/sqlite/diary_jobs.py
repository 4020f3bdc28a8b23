"""The diary jobs in the growth file (``data_dir/growth.sqlite3``), and the stream windows
they cover: implements :class:`~omoide.stream.logs.DiaryJobLog`.

Jobs are queued by :class:`~omoide.store.sqlite.growth.SqliteStreamLog` as comments
arrive; here they are claimed (as in the server store: one process holds the file, so a
claim only ever meets its own holder), read and finished.
"""

from __future__ import annotations

import apsw

from omoide.store.claims import Claimant
from omoide.store.records.stream import DiaryJob, DiaryWindow, LearnedFact, WindowStats
from omoide.store.sqlite import growth_rows as db
from omoide.store.sqlite.connection import Database
from omoide.store.sqlite.growth_viewers import comment_from_row
from omoide.store.sqlite.stream_sql import (
    CLAIM_JOBS,
    FINISH_JOB,
    LEARNED,
    RANKINGS,
    SAMPLE,
    TOTAL_COUNTS,
    WINDOW_TOTALS,
)


class SqliteDiaryJobs:
    """Diary jobs on the growth file, claimed under ``claimant``'s name."""

    def __init__(self, database: Database, claimant: Claimant) -> None:
        self._database = database
        self._claimant = claimant

    async def claim_diary_jobs(
        self, *, character_id: str | None, stream_id: str | None, limit: int
    ) -> list[DiaryJob]:
        wanted = db.claim_parameters(self._claimant)
        wanted |= {"character": character_id, "stream": stream_id, "limit": limit}
        rows = await self._database.write(lambda c: db.rows(c, CLAIM_JOBS, wanted))
        return sorted((db.job_from_row(row) for row in rows), key=lambda job: job.id)

    async def finish_diary_job(self, job: DiaryJob, *, episode_id: str) -> None:
        await self._database.write(lambda c: c.execute(FINISH_JOB, (episode_id, job.id)))

    async def diary_window(
        self, job: DiaryJob, *, sample: int, facts: int, top: int
    ) -> DiaryWindow:
        return await self._database.write(lambda c: _window(c, job, sample, facts, top))


def _window(c: apsw.Connection, job: DiaryJob, sample: int, facts: int, top: int) -> DiaryWindow:
    window = (job.character_id, job.stream_id, job.from_seq, job.to_seq)
    row = db.one(c, WINDOW_TOTALS, window)
    assert row is not None  # an aggregate always has one row
    totals = db.with_times(row, "first_time", "last_time")
    counted = {
        name: tuple((str(row[0]), int(row[1])) for row in c.execute(sql, (*window, top)))
        for name, sql in RANKINGS.items()
    }
    count = {name: int(totals[name] or 0) for name in TOTAL_COUNTS}
    stats = WindowStats(
        comments=count["comments"],
        viewers=count["viewers"],
        low_signal=count["low_signal"],
        stored=count["stored"],
        replied=count["replied"],
        first_time=totals["first_time"],
        last_time=totals["last_time"],
        top_viewers=counted["top_viewers"],
        topics=counted["topics"],
        signals=counted["signals"],
    )
    step = max(1, (job.to_seq - job.from_seq + 1) // max(1, sample))
    picked = db.rows(c, SAMPLE, (*window, job.from_seq, step, sample, *window, sample))
    learned = c.execute(LEARNED, (*window, facts)).fetchall()
    return DiaryWindow(
        job,
        stats,
        tuple(comment_from_row(row) for row in picked),
        tuple(LearnedFact(*(str(value) for value in row)) for row in learned),
    )

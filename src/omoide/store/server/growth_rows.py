"""Reading the growth logs' PostgreSQL rows as dictionaries and their values as records.

Times are ``timestamptz`` and come back in UTC whatever the session's time zone; lists are
``text[]``. The decoders here are the growth logs' own (the memory store's column
encodings are :mod:`omoide.store.server.codec`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from psycopg.rows import dict_row

from omoide.domain import as_utc
from omoide.store.claims import Claimant
from omoide.store.records.stream import CommentEntry, DiaryJob, DiaryReason, LoggedComment
from omoide.store.server.database import Connection

Record = dict[str, Any]


async def records(
    connection: Connection, query: str, parameters: Sequence[object] | dict[str, object] = ()
) -> list[Record]:
    """Every row of ``query`` as a dictionary keyed by column name."""
    async with connection.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(query, parameters)
        return await cursor.fetchall()


async def record(
    connection: Connection, query: str, parameters: Sequence[object] | dict[str, object] = ()
) -> Record | None:
    found = await records(connection, query, parameters)
    return found[0] if found else None


def with_utc(row: Record, *names: str) -> Record:
    """``row`` with the named columns in UTC (NULL stays None)."""
    return row | {name: None if row[name] is None else row[name].astimezone(UTC) for name in names}


def utc(moment: datetime) -> datetime:
    return as_utc(moment)


def comment_from_row(row: Record) -> LoggedComment:
    fields = with_utc(row, "time")
    place = {name: fields.pop(name) for name in ("stream_id", "seq", "log_id")}
    fields |= {name: tuple(row[name]) for name in ("signals", "topics")}
    return LoggedComment(**place, entry=CommentEntry(**fields))


def comment_values(
    key: tuple[str, str], seq: int, entry: CommentEntry, at: datetime
) -> tuple[object, ...]:
    e = entry
    return (
        *key,
        seq,
        e.viewer_id,
        e.display_name,
        e.text,
        utc(e.time),
        e.platform,
        e.reply,
        e.signal,
        e.stored,
        e.importance,
        list(e.signals),
        list(e.topics),
        e.episode_id,
        at,
    )


def job_from_row(row: Record) -> DiaryJob:
    return DiaryJob(**with_utc(row, "created_at") | {"reason": DiaryReason(row["reason"])})


def viewer_counts(
    character_id: str, comments: Sequence[CommentEntry], at: datetime
) -> list[tuple[object, ...]]:
    """Per viewer, in viewer order (the order their rows are locked in, so concurrent
    batches never deadlock): (character, viewer, comments with signal, arrival time if
    any, comments)."""
    counts: dict[str, list[int]] = {}
    for entry in comments:
        seen = counts.setdefault(entry.viewer_id, [0, 0])
        seen[0] += int(entry.signal)
        seen[1] += 1
    return [
        (character_id, viewer, signal, at if signal else None, total)
        for viewer, (signal, total) in sorted(counts.items())
    ]


def claim_parameters(claimant: Claimant) -> dict[str, object]:
    """What a claim is checked and taken with: who, now, and until when."""
    now, until = claimant.lease()
    return {"claimant": claimant.id, "now": utc(now), "until": utc(until)}

"""Reading the growth file's rows: as dictionaries, with their times.

Times are stored as fixed-width UTC ISO 8601 text, so text order is time order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import apsw

from omoide.domain import as_utc
from omoide.store.claims import Claimant
from omoide.store.records.stream import DiaryJob, DiaryReason


def time_text(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def with_times(row: dict[str, Any], *names: str) -> dict[str, Any]:
    """``row`` with the named columns read back as aware datetimes (NULL stays None)."""
    return row | {
        name: None if row[name] is None else datetime.fromisoformat(row[name]).astimezone(UTC)
        for name in names
    }


def rows(
    c: apsw.Connection, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()
) -> list[dict[str, Any]]:
    cursor = c.execute(sql, parameters)
    try:
        names = [column[0] for column in cursor.getdescription()]
    except apsw.ExecutionCompleteError:  # no rows at all
        return []
    return [dict(zip(names, row, strict=True)) for row in cursor]


def scalar(c: apsw.Connection, sql: str, parameters: Sequence[Any] = ()) -> Any:
    row = c.execute(sql, parameters).fetchone()
    assert row is not None
    return row[0]


def one(
    c: apsw.Connection, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()
) -> dict[str, Any] | None:
    found = rows(c, sql, parameters)
    return found[0] if found else None


def job_from_row(row: dict[str, Any]) -> DiaryJob:
    return DiaryJob(**with_times(row, "created_at") | {"reason": DiaryReason(row["reason"])})


def claim_parameters(claimant: Claimant) -> dict[str, Any]:
    """What a claim is checked and taken with: who, now, and until when."""
    now, until = claimant.lease()
    return {"claimant": claimant.id, "now": time_text(now), "until": time_text(until)}

"""One viewer's rows in the growth file: read them all, or delete them all.

What :meth:`SqliteViewerRows.viewer_data` exports and :meth:`SqliteViewerRows.forget_viewer`
removes (the stream logs' side of :class:`~omoide.privacy.viewer_data.ViewerLog`): the
viewer's comments, the facts noted from them, their rolling summary and their work row. The file's
connection deletes securely (``PRAGMA secure_delete``), and a checkpoint empties the
write-ahead log afterwards, so the words leave the files too.
"""

from __future__ import annotations

import json
from typing import Any

import apsw

from omoide.store.records.stream import (
    CommentEntry,
    LearnedFact,
    LoggedComment,
    ViewerStreamData,
    ViewerSummaryRecord,
    ViewerWork,
)
from omoide.store.sqlite import growth_rows as db
from omoide.store.sqlite.connection import Database
from omoide.store.sqlite.stream_sql import COMMENT_COLUMNS, SUMMARY_FIELDS, VIEWER_KEY

VIEWER_TABLES = ("stream_comments", "stream_facts", "viewer_summaries", "viewer_work")
_COMMENTS = f"SELECT {COMMENT_COLUMNS} FROM stream_comments WHERE {VIEWER_KEY} ORDER BY id"
_FACTS = (
    "SELECT viewer_id, display_name, action, fact_id, text FROM stream_facts "
    f"WHERE {VIEWER_KEY} ORDER BY id"
)
_WORK = (
    f"SELECT processed_through, pending_count, messages_seen FROM viewer_work WHERE {VIEWER_KEY}"
)
_SUMMARY = (
    f"SELECT {', '.join((*SUMMARY_FIELDS, 'updated_at'))} FROM viewer_summaries WHERE {VIEWER_KEY}"
)


def comment_from_row(row: dict[str, Any]) -> LoggedComment:
    fields = db.with_times(row, "time")
    place = {name: fields.pop(name) for name in ("stream_id", "seq", "log_id")}
    fields |= {"signal": bool(row["signal"]), "stored": bool(row["stored"])}
    fields |= {name: tuple(json.loads(row[name])) for name in ("signals", "topics")}
    return LoggedComment(**place, entry=CommentEntry(**fields))


def summary_of(c: apsw.Connection, key: tuple[str, str]) -> ViewerSummaryRecord | None:
    row = db.one(c, _SUMMARY, key)
    return None if row is None else ViewerSummaryRecord(**db.with_times(row, "updated_at"))


def read_viewer(c: apsw.Connection, key: tuple[str, str]) -> ViewerStreamData:
    """Every row the file holds about the viewer ``key`` = (character, viewer)."""
    work = db.one(c, _WORK, key)
    return ViewerStreamData(
        *key,
        comments=tuple(comment_from_row(row) for row in db.rows(c, _COMMENTS, key)),
        learned=tuple(LearnedFact(*(str(v) for v in row)) for row in c.execute(_FACTS, key)),
        summary=summary_of(c, key),
        work=None if work is None else ViewerWork(**work),
    )


def delete_viewer(c: apsw.Connection, key: tuple[str, str]) -> ViewerStreamData:
    """Delete the viewer's rows (in the caller's transaction); what was removed."""
    removed = read_viewer(c, key)
    for table in VIEWER_TABLES:
        c.execute(f"DELETE FROM {table} WHERE {VIEWER_KEY}", key)
    return removed


class SqliteViewerRows:
    """One viewer's rows in the growth file, each call one transaction."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Everything the logs keep about the viewer (what :meth:`forget_viewer` removes)."""
        return await self._database.write(lambda c: read_viewer(c, (character_id, viewer_id)))

    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Delete the viewer's comments, noted facts, summary and work; what was removed."""
        return await self._database.write(lambda c: delete_viewer(c, (character_id, viewer_id)))

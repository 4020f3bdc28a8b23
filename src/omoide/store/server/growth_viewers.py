"""One viewer's rows in the server growth logs: read them all, or delete them all
(:class:`PostgresViewerRows`, the server side of :class:`~omoide.privacy.viewer_data.ViewerLog`).

The PostgreSQL twin of :mod:`omoide.store.sqlite.growth_viewers`: the viewer's comments, the
facts noted from them, their rolling summary and their work row, read (for an export) or
deleted (when the viewer is forgotten) in the caller's transaction. The work row is locked
first, as every writer of a viewer's rows does, so a batch finishing meanwhile waits.
"""

from __future__ import annotations

from omoide.store.records.stream import (
    LearnedFact,
    ViewerStreamData,
    ViewerSummaryRecord,
    ViewerWork,
)
from omoide.store.server import growth_sql as sql
from omoide.store.server.database import Connection, Database, execute, fetch_all
from omoide.store.server.growth_rows import comment_from_row, record, records, with_utc

VIEWER_TABLES = ("stream_comments", "stream_facts", "viewer_summaries", "viewer_work")
_COMMENTS = f"SELECT {sql.COMMENT_COLUMNS} FROM stream_comments WHERE {sql.VIEWER_KEY} ORDER BY id"
_FACTS = (
    "SELECT viewer_id, display_name, action, fact_id, text FROM stream_facts "
    f"WHERE {sql.VIEWER_KEY} ORDER BY id"
)
_WORK = (
    "SELECT processed_through, pending_count, messages_seen FROM viewer_work "
    f"WHERE {sql.VIEWER_KEY} FOR UPDATE"
)


async def read_viewer(connection: Connection, key: tuple[str, str]) -> ViewerStreamData:
    """Every row the store holds about the viewer ``key`` = (character, viewer)."""
    work = await record(connection, _WORK, key)
    comments = await records(connection, _COMMENTS, key)
    learned = await fetch_all(connection, _FACTS, key)
    summary = await record(connection, sql.SELECT_SUMMARY, key)
    return ViewerStreamData(
        *key,
        comments=tuple(comment_from_row(row) for row in comments),
        learned=tuple(LearnedFact(*(str(value) for value in row)) for row in learned),
        summary=None if summary is None else ViewerSummaryRecord(**with_utc(summary, "updated_at")),
        work=None if work is None else ViewerWork(**work),
    )


async def delete_viewer(connection: Connection, key: tuple[str, str]) -> ViewerStreamData:
    """Delete the viewer's rows (in the caller's transaction); what was removed."""
    removed = await read_viewer(connection, key)
    for table in VIEWER_TABLES:
        await execute(connection, f"DELETE FROM {table} WHERE {sql.VIEWER_KEY}", key)
    return removed


class PostgresViewerRows:
    """One viewer's rows in ``database``, each call one transaction."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Everything the logs keep about the viewer (what :meth:`forget_viewer` removes)."""
        async with self._database.transaction() as connection:
            return await read_viewer(connection, (character_id, viewer_id))

    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        """Delete the viewer's comments, noted facts, summary and work; what was removed."""
        async with self._database.transaction() as connection:
            return await delete_viewer(connection, (character_id, viewer_id))

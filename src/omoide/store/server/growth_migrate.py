"""Moving the embedded growth store (``growth.sqlite3``) into PostgreSQL, then counting it.

:func:`copy_growth` copies, character by character and each in one transaction, what the
embedded profile keeps beside its memory store: streams with their comments and noted
facts, viewers' work and rolling summaries, diary jobs, identity versions and pending
changes. Profiles and diffs are copied as the JSON text the file holds, so versions and
rollbacks read back exactly. Comment and job ids are the target's own (a server may
already hold other characters' streams); a viewer's work is re-pointed at the same
comments, and a job whose entry the memory store already holds is copied finished.

A character the target already holds growth data for is left as it is, so a migration run
again copies nothing twice and never mixes two histories; :func:`count_growth` then tells
whether what is there matches the file (it does after an earlier run; if the server's
history was its own, the counts differ and the migration is not verified).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

import apsw

from omoide.domain import Episode, Scope
from omoide.errors import NotFound
from omoide.store.records.stream import DiaryJob, DiaryReason, diary_episode_id
from omoide.store.server.database import Connection, Database, execute, fetch_all, fetch_one
from omoide.store.sqlite import growth_rows
from omoide.store.sqlite.files import open_sqlite_file
from omoide.store.sqlite.growth import MIGRATIONS

Row = dict[str, Any]
MIGRATION_LOCK = 0x6F6D6F67  # pg_advisory_xact_lock key: one growth copy at a time


@dataclass(frozen=True, slots=True)
class _Table:
    """One growth table: the columns copied, how to order them, and how values convert."""

    name: str
    columns: tuple[str, ...]
    order: str
    times: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    documents: tuple[str, ...] = ()

    def select(self) -> str:
        return (
            f"SELECT {', '.join(self.columns)} FROM {self.name} "
            f"WHERE character_id = ? ORDER BY {self.order}"
        )

    def insert(self) -> str:
        values = ", ".join("%s::json" if c in self.documents else "%s" for c in self.columns)
        return f"INSERT INTO {self.name} ({', '.join(self.columns)}) VALUES ({values})"

    def values(self, row: Row) -> tuple[object, ...]:
        """A file row as PostgreSQL values (JSON documents stay the text they were)."""
        converted = growth_rows.with_times(row, *self.times)
        converted |= {name: bool(row[name]) for name in self.flags}
        converted |= {name: json.loads(row[name]) for name in self.lists}
        return tuple(converted[name] for name in self.columns)


STREAMS = _Table(
    "streams",
    (
        "character_id",
        "stream_id",
        "comment_count",
        "diary_through",
        "diary_jobs",
        "started_at",
        "last_comment_at",
        "ended_at",
    ),
    "stream_id",
    times=("started_at", "last_comment_at", "ended_at"),
)
COMMENTS = _Table(
    "stream_comments",
    (
        "character_id",
        "stream_id",
        "seq",
        "viewer_id",
        "display_name",
        "text",
        "time",
        "platform",
        "reply",
        "signal",
        "stored",
        "importance",
        "signals",
        "topics",
        "episode_id",
        "received_at",
    ),
    "id",
    times=("time", "received_at"),
    flags=("signal", "stored"),
    lists=("signals", "topics"),
)
FACTS = _Table(
    "stream_facts",
    ("character_id", "stream_id", "seq", "viewer_id", "display_name", "action", "fact_id", "text"),
    "id",
)
WORK = _Table(
    "viewer_work",
    (
        "character_id",
        "viewer_id",
        "processed_through",
        "pending_count",
        "oldest_pending_at",
        "messages_seen",
    ),
    "viewer_id",
    times=("oldest_pending_at",),
)
SUMMARIES = _Table(
    "viewer_summaries",
    ("character_id", "viewer_id", "display_name", "text", "method", "message_count", "updated_at"),
    "viewer_id",
    times=("updated_at",),
)
JOBS = _Table(
    "diary_jobs",
    (
        "character_id",
        "stream_id",
        "number",
        "reason",
        "from_seq",
        "to_seq",
        "created_at",
        "episode_id",
    ),
    "id",
    times=("created_at",),
)
VERSIONS = _Table(
    "identity_versions",
    (
        "character_id",
        "number",
        "profile",
        "changes",
        "reason",
        "created_at",
        "diary_entry_id",
        "change_id",
    ),
    "number",
    times=("created_at",),
    documents=("profile", "changes"),
)
CHANGES = _Table(
    "identity_changes",
    (
        "id",
        "character_id",
        "base_version",
        "changes",
        "refused",
        "created_at",
        "status",
        "diary_entry_id",
        "decided_at",
        "version",
    ),
    "created_at, rowid",  # the file's listing order, kept as the target's insertion order
    times=("created_at", "decided_at"),
    documents=("changes", "refused"),
)
TABLES = (STREAMS, COMMENTS, FACTS, WORK, SUMMARIES, JOBS, VERSIONS, CHANGES)


@dataclass(frozen=True, slots=True)
class GrowthCounts:
    """Rows of one character (or of all), table by table, in the order of :data:`TABLES`."""

    streams: int = 0
    comments: int = 0
    facts: int = 0
    viewers: int = 0
    summaries: int = 0
    diary_jobs: int = 0
    versions: int = 0
    changes: int = 0

    def __add__(self, other: GrowthCounts) -> GrowthCounts:
        return GrowthCounts(
            *(getattr(self, name.name) + getattr(other, name.name) for name in fields(self))
        )


@dataclass(frozen=True, slots=True)
class CharacterGrowth:
    character_id: str
    source: GrowthCounts
    target: GrowthCounts


@dataclass(frozen=True, slots=True)
class GrowthMigration:
    """What was copied from the growth file, what was left, and what the count check found."""

    source: Path | None
    characters: int = 0
    copied: GrowthCounts = field(default_factory=GrowthCounts)
    total: GrowthCounts = field(default_factory=GrowthCounts)
    kept: tuple[str, ...] = ()
    """Characters the target already held growth data for, left as they were."""
    mismatched: tuple[CharacterGrowth, ...] = ()

    @property
    def verified(self) -> bool:
        return not self.mismatched


class DiaryEntries(Protocol):
    """How the copy recognises a diary job finished just before the move (the memory
    store the file belonged to holds its entry)."""

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode: ...


class GrowthSource:
    """The embedded growth file, read character by character (brought to the current
    schema first, as the embedded service would on opening it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._database = open_sqlite_file(path, MIGRATIONS)

    async def characters(self) -> list[str]:
        union = " UNION ".join(f"SELECT character_id FROM {table.name}" for table in TABLES)
        rows = await self._database.write(lambda c: c.execute(f"{union} ORDER BY 1").fetchall())
        return [str(row[0]) for row in rows]

    async def read(self, character_id: str) -> dict[str, list[Row]]:
        """Every table's rows of one character, with the file's ids of comments and jobs."""

        def read(connection: apsw.Connection) -> dict[str, list[Row]]:
            found = {
                t.name: growth_rows.rows(connection, t.select(), (character_id,)) for t in TABLES
            }
            for table in (COMMENTS, JOBS):
                found[f"{table.name}.id"] = growth_rows.rows(
                    connection,
                    f"SELECT id, {table.columns[1]}, {table.columns[2]} FROM {table.name} "
                    "WHERE character_id = ? ORDER BY id",
                    (character_id,),
                )
            return found

        return await self._database.write(read)

    async def counts(self, character_id: str) -> GrowthCounts:
        wanted = [character_id] * len(TABLES)
        row = await self._database.write(lambda c: growth_rows.one(c, _count_query("?"), wanted))
        assert row is not None  # aggregates always give one row
        return GrowthCounts(*(int(value) for value in row.values()))

    async def close(self) -> None:
        await self._database.close()


def _count_query(placeholder: str) -> str:
    """One row: the character's rows in each table of :data:`TABLES`."""
    counts = [
        f"(SELECT count(*) FROM {table.name} WHERE character_id = {placeholder}) AS {table.name}"
        for table in TABLES
    ]
    return f"SELECT {', '.join(counts)}"


async def target_counts(connection: Connection, character_id: str) -> GrowthCounts:
    row = await fetch_one(connection, _count_query("%s"), [character_id] * len(TABLES))
    assert row is not None
    return GrowthCounts(*(int(value) for value in row))


def _job(character_id: str, file_id: int, row: Row) -> DiaryJob:
    return DiaryJob(
        id=file_id,
        character_id=character_id,
        stream_id=str(row["stream_id"]),
        number=int(row["number"]),
        reason=DiaryReason(row["reason"]),
        from_seq=int(row["from_seq"]),
        to_seq=int(row["to_seq"]),
        created_at=growth_rows.with_times(row, "created_at")["created_at"],
    )


async def _finished_jobs(
    character_id: str, read: dict[str, list[Row]], memories: DiaryEntries
) -> list[Row]:
    """The file's jobs; one still pending whose entry the memory store holds is finished
    (its entry id derives from the file's job id, which the target does not keep)."""
    jobs = []
    file_ids = [int(row["id"]) for row in read["diary_jobs.id"]]
    for file_id, row in zip(file_ids, read[JOBS.name], strict=True):
        if row["episode_id"] is None:
            entry_id = diary_episode_id(_job(character_id, file_id, row))
            try:
                await memories.get_episode(Scope(character_id), entry_id)
                row = row | {"episode_id": entry_id}
            except NotFound:
                pass
        jobs.append(row)
    return jobs


def _work(read: dict[str, list[Row]], new_ids: dict[tuple[str, int], int]) -> list[Row]:
    """Viewers' work rows, re-pointed: "processed through comment N" becomes the target's
    id of the viewer's newest comment at or before N (ids keep their order)."""
    by_viewer: dict[str, list[tuple[int, int]]] = {}
    for place, row in zip(read["stream_comments.id"], read[COMMENTS.name], strict=True):
        new_id = new_ids[(str(place["stream_id"]), int(place["seq"]))]
        by_viewer.setdefault(str(row["viewer_id"]), []).append((int(place["id"]), new_id))
    rows = []
    for row in read[WORK.name]:
        through = int(row["processed_through"])
        done = [new for old, new in by_viewer.get(str(row["viewer_id"]), []) if old <= through]
        rows.append(row | {"processed_through": max(done, default=0)})
    return rows


async def _insert(connection: Connection, table: _Table, rows: Sequence[Row]) -> None:
    async with connection.cursor() as cursor:
        await cursor.executemany(table.insert(), [table.values(row) for row in rows])


async def _copy_character(
    connection: Connection, character_id: str, read: dict[str, list[Row]], memories: DiaryEntries
) -> None:
    for table in (STREAMS, COMMENTS, FACTS):
        await _insert(connection, table, read[table.name])
    placed = await fetch_all(
        connection,
        "SELECT stream_id, seq, id FROM stream_comments WHERE character_id = %s",
        (character_id,),
    )
    new_ids = {(str(stream), int(seq)): int(new) for stream, seq, new in placed}
    await _insert(connection, WORK, _work(read, new_ids))
    await _insert(connection, SUMMARIES, read[SUMMARIES.name])
    await _insert(connection, JOBS, await _finished_jobs(character_id, read, memories))
    for table in (VERSIONS, CHANGES):
        await _insert(connection, table, read[table.name])


async def copy_growth(
    source: GrowthSource, database: Database, memories: DiaryEntries
) -> GrowthMigration:
    """Copy every character the target holds no growth data for; ``memories`` is the
    embedded memory store (for diary entries written whose jobs were not yet finished)."""
    characters = await source.characters()
    copied, total, kept = GrowthCounts(), GrowthCounts(), []
    for character_id in characters:
        read = await source.read(character_id)
        counts = GrowthCounts(*(len(read[table.name]) for table in TABLES))
        total = total + counts
        async with database.transaction() as connection:
            await execute(connection, "SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            if await target_counts(connection, character_id) != GrowthCounts():
                kept.append(character_id)
                continue
            await _copy_character(connection, character_id, read, memories)
        copied = copied + counts
    return GrowthMigration(source.path, len(characters), copied, total, tuple(kept))


async def count_growth(source: GrowthSource, database: Database) -> tuple[CharacterGrowth, ...]:
    """Characters whose rows in the target differ in number from the file's."""
    mismatched = []
    for character_id in await source.characters():
        expected = await source.counts(character_id)
        async with database.transaction() as connection:
            found = await target_counts(connection, character_id)
        if found != expected:
            mismatched.append(CharacterGrowth(character_id, expected, found))
    return tuple(mismatched)

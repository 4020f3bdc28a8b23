"""Moving an embedded store to the server profile, vectors included, then proving it moved.

:func:`migrate_sqlite` copies every scope of an embedded store file (episodes with their
vectors, emotion records, facts with their vectors and provenance links, tombstones) into
the server store, character by character: first every scope's episodes, emotions and
tombstones, then every scope's facts (a character's diary may cite its viewers'
episodes). Each scope is one PostgreSQL transaction, published to Qdrant like any write.
Records whose id is already there are skipped, so an interrupted migration can be run
again. Nothing is re-embedded: the vectors are the file's own.

The growth store beside the file (``growth.sqlite3``: identity versions and changes,
stream logs, diary jobs, viewers' work) is copied too (:mod:`omoide.store.server.growth_migrate`).

Then it checks: the counts of every scope match, for a sample of scopes the same
searches (vector and keyword, episodes and facts) return the same memories in both, and
every character's growth rows are as many in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from omoide.domain import EmotionRecord, Episode, Fact, Scope, ScopeExport, Tombstone
from omoide.store.base import MemoryStore
from omoide.store.server import episodes, facts
from omoide.store.server.database import Connection, Database, fetch_all
from omoide.store.server.endpoints import ServerConfig
from omoide.store.server.engines import Changes, Engines
from omoide.store.server.growth_migrate import (
    GrowthMigration,
    GrowthSource,
    copy_growth,
    count_growth,
)
from omoide.store.server.migrate_check import SearchComparison, compare_searches
from omoide.store.server.scopes import ensure_scope_id
from omoide.store.server.sqlite_source import SourceScope, SqliteSource, open_sqlite_source
from omoide.store.server.store import ServerMemoryStore
from omoide.store.server.tombstones import write_tombstones
from omoide.store.sqlite.store import open_sqlite_store
from omoide.stream.service import GROWTH_FILE

DEFAULT_SAMPLE = 20


@dataclass(frozen=True, slots=True)
class Counts:
    episodes: int = 0
    facts: int = 0
    emotions: int = 0
    tombstones: int = 0

    @classmethod
    def of(cls, scope: SourceScope | ScopeExport) -> Counts:
        export = scope.export if isinstance(scope, SourceScope) else scope
        return cls(
            len(export.episodes), len(export.facts), len(export.emotions), len(export.tombstones)
        )

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.episodes + other.episodes,
            self.facts + other.facts,
            self.emotions + other.emotions,
            self.tombstones + other.tombstones,
        )


@dataclass(frozen=True, slots=True)
class ScopeCounts:
    scope: Scope
    source: Counts
    target: Counts


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What was copied and what the check found."""

    source: Path
    scopes: int
    copied: Counts
    total: Counts
    mismatched: tuple[ScopeCounts, ...] = ()
    searches: tuple[SearchComparison, ...] = field(default=())
    growth: GrowthMigration = field(default_factory=lambda: GrowthMigration(None))

    @property
    def verified(self) -> bool:
        searched = all(search.matched for search in self.searches)
        return not self.mismatched and searched and self.growth.verified


async def _existing(
    connection: Connection, table: Literal["episodes", "emotions", "facts"], ids: Sequence[str]
) -> set[str]:
    rows = await fetch_all(connection, f"SELECT id FROM {table} WHERE id = ANY(%s)", (list(ids),))
    return {str(row[0]) for row in rows}


async def _copy_records(engines: Engines, source: SourceScope) -> Counts:
    """Episodes, emotions and tombstones of one scope, in one transaction."""
    export = source.export

    async def work(connection: Connection, changes: Changes) -> Counts:
        scope_id = await ensure_scope_id(connection, export.scope)
        known = await _existing(connection, "episodes", [item.id for item in export.episodes])
        fresh: list[Episode] = [item for item in export.episodes if item.id not in known]
        rows = [(item, source.episode_vectors.get(item.id)) for item in fresh]
        changes.episodes.extend(await episodes.insert_episodes(connection, scope_id, rows))
        felt = await _existing(connection, "emotions", [item.id for item in export.emotions])
        new_emotions: list[EmotionRecord] = [m for m in export.emotions if m.id not in felt]
        for record in new_emotions:
            await episodes.insert_emotion(connection, scope_id, record)
        copied = await _copy_tombstones(connection, scope_id, export.tombstones)
        return Counts(len(fresh), 0, len(new_emotions), copied)

    return await engines.change(work)


async def _copy_tombstones(
    connection: Connection, scope_id: int, tombstones: Sequence[Tombstone]
) -> int:
    rows = await fetch_all(
        connection,
        "SELECT memory_id, kind, deleted_at FROM tombstones WHERE scope_id = %s",
        (scope_id,),
    )
    present = {(str(row[0]), str(row[1]), row[2]) for row in rows}
    copied = 0
    for tombstone in tombstones:
        key = (tombstone.memory_id, tombstone.kind.value, tombstone.deleted_at)
        if key not in present:
            await write_tombstones(
                connection,
                scope_id,
                tombstone.kind,
                [tombstone.memory_id],
                reason=tombstone.reason,
                at=tombstone.deleted_at,
            )
            copied += 1
    return copied


async def _copy_facts(engines: Engines, source: SourceScope) -> Counts:
    export = source.export

    async def work(connection: Connection, changes: Changes) -> Counts:
        scope_id = await ensure_scope_id(connection, export.scope)
        known = await _existing(connection, "facts", [item.id for item in export.facts])
        fresh: list[Fact] = [item for item in export.facts if item.id not in known]
        for item in fresh:
            vector = source.fact_vectors.get(item.id)
            changes.facts.append(
                await facts.insert_fact(connection, export.scope, scope_id, item, vector)
            )
        return Counts(facts=len(fresh))

    return await engines.change(work)


async def copy_store(source: SqliteSource, engines: Engines) -> tuple[Counts, Counts, int]:
    """Copy every scope; returns what was copied, the source's totals and the scope count."""
    scopes = await source.scopes()
    copied, total = Counts(), Counts()
    for character in sorted({scope.character_id for scope in scopes}):
        mine = [scope for scope in scopes if scope.character_id == character]
        for scope in mine:
            read = await source.read_scope(scope)
            total = total + Counts.of(read)
            copied = copied + await _copy_records(engines, read)
        for scope in mine:
            copied = copied + await _copy_facts(engines, await source.read_scope(scope))
    return copied, total, len(scopes)


async def verify(
    source: SqliteSource, source_store: MemoryStore, target: ServerMemoryStore, *, sample: int
) -> tuple[tuple[ScopeCounts, ...], tuple[SearchComparison, ...]]:
    """Compare every scope's counts, and searches over a sample of scopes."""
    scopes = await source.scopes()
    mismatched: list[ScopeCounts] = []
    for scope in scopes:
        expected = Counts.of(await source.read_scope(scope))
        found = Counts.of(await target.export_scope(scope))
        if expected != found:
            mismatched.append(ScopeCounts(scope, expected, found))
    with_memories = [scope for scope in scopes if (await source.read_scope(scope)).export.episodes]
    step = max(1, len(with_memories) // max(1, sample))
    searches: list[SearchComparison] = []
    for scope in with_memories[::step][:sample]:
        read = await source.read_scope(scope)
        searches.extend(await compare_searches(read, source_store, target))
    return tuple(mismatched), tuple(searches)


async def migrate_growth(path: Path, database: Database, memories: MemoryStore) -> GrowthMigration:
    """Copy the growth file at ``path`` (if there is one), then count both sides."""
    if not path.is_file():
        return GrowthMigration(None)
    source = GrowthSource(path)
    try:
        report = await copy_growth(source, database, memories)
        return replace(report, mismatched=await count_growth(source, database))
    finally:
        source.close()


async def migrate_sqlite(
    path: Path,
    config: ServerConfig,
    *,
    sample: int = DEFAULT_SAMPLE,
    growth_path: Path | None = None,
) -> MigrationReport:
    """Copy the embedded store at ``path``, and the growth file beside it (or at
    ``growth_path``), into the server store of ``config``, then check."""
    from omoide.store.server.connect import open_server_store

    growth_file = growth_path or Path(path).parent / GROWTH_FILE
    source = await open_sqlite_source(path)
    try:
        target = await open_server_store(config, embedding=source.embedding)
        try:
            copied, total, scope_count = await copy_store(source, target.engines)
            source_store = await open_sqlite_store(source.path, embedding=source.embedding)
            try:
                growth = await migrate_growth(growth_file, target.engines.database, source_store)
                mismatched, searches = await verify(source, source_store, target, sample=sample)
            finally:
                await source_store.close()
        finally:
            await target.close()
    finally:
        await source.close()
    return MigrationReport(source.path, scope_count, copied, total, mismatched, searches, growth)

"""Moving an embedded store to the server profile, vectors included, then proving it moved.

:func:`migrate_sqlite` copies every scope of an embedded store file (episodes with their
vectors, emotion records, facts with their vectors and provenance links, tombstones) into
the server store. Scopes are read once each, in batches of about :data:`DEFAULT_BATCH`
records; a batch is one PostgreSQL transaction (inserts in bulk) and one publish to
Qdrant, through :meth:`Engines.change` like any write, so a crash between the commit and
the publish leaves outbox entries that the next start publishes. A character's diary
(character-wide facts) may cite its viewers' episodes, so it waits for the batch holding
the character's last scope. Records whose id is already there are skipped, so an
interrupted migration can be run again. Nothing is re-embedded: the vectors are the file's
own.

The growth store beside the file (``growth.sqlite3``: identity versions and changes,
stream logs, diary jobs, viewers' work) is copied too (:mod:`omoide.store.server.growth_migrate`),
and so are the API keys of the key file beside it (``keys.json``: ids, secrets' hashes,
characters; :mod:`omoide.store.server.keys_migrate`), so every client secret keeps working.

Then it checks: the counts of every scope match (one count query on each side), for a
sample of scopes the same searches (vector and keyword, episodes and facts) return the
same memories in both, every character's growth rows are as many in both, and every key of
the file is on the server with the same secret and characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from omoide.domain import Scope, ScopeExport
from omoide.store.server import episodes, facts, names
from omoide.store.server.database import Connection, Database, fetch_all
from omoide.store.server.endpoints import ServerConfig
from omoide.store.server.engines import Changes, Engines
from omoide.store.server.growth_migrate import (
    GrowthMigration,
    GrowthSource,
    copy_growth,
    count_growth,
)
from omoide.store.server.keys import PostgresKeyStore
from omoide.store.server.keys_migrate import KeyMigration, migrate_keys
from omoide.store.server.migrate_check import SearchComparison, compare_searches, target_counts
from omoide.store.server.scopes import ensure_scope_id
from omoide.store.server.sqlite_source import (
    CountsByScope,
    SourceScope,
    SqliteSource,
    open_sqlite_source,
)
from omoide.store.server.store import ServerMemoryStore
from omoide.store.server.tombstones import write_tombstones
from omoide.store.sqlite.growth import GROWTH_FILE
from omoide.store.sqlite.key_file import KEY_FILE_NAME
from omoide.store.sqlite.store import SqliteMemoryStore, open_sqlite_store

DEFAULT_SAMPLE = 20
DEFAULT_BATCH = 4_000
"""Records (episodes, facts, emotion records) per transaction and per Qdrant publish."""
NOTHING = (0, 0, 0, 0)

ScopeIds = dict[Scope, int]


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
    keys: KeyMigration = field(default_factory=lambda: KeyMigration(None))

    @property
    def verified(self) -> bool:
        searched = all(search.matched for search in self.searches)
        moved = self.growth.verified and self.keys.verified
        return not self.mismatched and searched and moved


async def _existing(
    connection: Connection, table: Literal["episodes", "emotions", "facts"], ids: Sequence[str]
) -> set[str]:
    rows = await fetch_all(connection, f"SELECT id FROM {table} WHERE id = ANY(%s)", (list(ids),))
    return {str(row[0]) for row in rows}


def plan_batches(scopes: Sequence[Scope], counts: CountsByScope, size: int) -> list[list[Scope]]:
    """Consecutive scopes in batches of about ``size`` records (a larger scope goes alone)."""
    batches: list[list[Scope]] = []
    current: list[Scope] = []
    filled = 0
    for scope in scopes:
        records = sum(counts.get(scope, NOTHING)[:3])
        if current and filled + records > size:
            batches.append(current)
            current, filled = [], 0
        current.append(scope)
        filled += records
    return [*batches, current] if current else batches


async def _copy_records(
    connection: Connection, changes: Changes, reads: Sequence[SourceScope], ids: ScopeIds
) -> Counts:
    """Episodes, emotions and tombstones of the scopes not there yet, in bulk."""
    rows = [
        (ids[read.export.scope], item, read.episode_vectors.get(item.id))
        for read in reads
        for item in read.export.episodes
    ]
    known = await _existing(connection, "episodes", [item.id for _, item, _ in rows])
    fresh = [row for row in rows if row[1].id not in known]
    changes.episodes.extend(await episodes.insert_episode_rows(connection, fresh))
    felt = [(ids[read.export.scope], item) for read in reads for item in read.export.emotions]
    present = await _existing(connection, "emotions", [item.id for _, item in felt])
    new_emotions = [row for row in felt if row[1].id not in present]
    await episodes.insert_emotions(connection, new_emotions)
    copied = await _copy_tombstones(connection, reads, ids)
    for read in reads:
        await names.copy_names(connection, ids[read.export.scope], read.export.display_names)
    return Counts(len(fresh), 0, len(new_emotions), copied)


async def _copy_tombstones(
    connection: Connection, reads: Sequence[SourceScope], ids: ScopeIds
) -> int:
    wanted = [(ids[read.export.scope], item) for read in reads for item in read.export.tombstones]
    if not wanted:
        return 0
    rows = await fetch_all(
        connection,
        "SELECT scope_id, memory_id, kind, deleted_at FROM tombstones WHERE scope_id = ANY(%s)",
        (sorted({scope_id for scope_id, _ in wanted}),),
    )
    present = {(int(row[0]), str(row[1]), str(row[2]), row[3]) for row in rows}
    copied = 0
    for scope_id, tombstone in wanted:
        key = (scope_id, tombstone.memory_id, tombstone.kind.value, tombstone.deleted_at)
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


async def _copy_facts(
    connection: Connection, changes: Changes, reads: Sequence[SourceScope], ids: ScopeIds
) -> Counts:
    rows: list[facts.FactRow] = [
        (read.export.scope, ids[read.export.scope], item, read.fact_vectors.get(item.id))
        for read in reads
        for item in read.export.facts
    ]
    known = await _existing(connection, "facts", [item.id for _, _, item, _ in rows])
    fresh = [row for row in rows if row[2].id not in known]
    changes.facts.extend(await facts.insert_facts(connection, fresh))
    return Counts(facts=len(fresh))


async def _copy_batch(
    engines: Engines, reads: Sequence[SourceScope], cited: Sequence[SourceScope]
) -> Counts:
    """One transaction and one publish: the records of ``reads``, then the facts of
    ``cited`` (whose episodes are all copied by then)."""

    async def work(connection: Connection, changes: Changes) -> Counts:
        ids: ScopeIds = {}
        for read in (*reads, *cited):
            scope = read.export.scope
            if scope not in ids:
                ids[scope] = await ensure_scope_id(connection, scope)
        copied = await _copy_records(connection, changes, reads, ids)
        return copied + await _copy_facts(connection, changes, cited, ids)

    return await engines.change(work)


async def copy_store(
    source: SqliteSource, engines: Engines, *, batch: int = DEFAULT_BATCH
) -> tuple[Counts, Counts, int]:
    """Copy every scope, each read once, in batches of about ``batch`` records; returns what
    was copied, the source's totals and the scope count.

    A viewer's facts cite only its own episodes, so they go in their scope's batch; a
    character-wide scope's facts (its diary cites the viewers' episodes) wait for the batch
    holding the character's last scope (``scopes()`` keeps a character's scopes together).
    """
    scopes = await source.scopes()
    last = {scope.character_id: scope for scope in scopes}
    copied, total = Counts(), Counts()
    waiting: list[SourceScope] = []
    for planned in plan_batches(scopes, await source.counts(), batch):
        reads = await source.read_scopes(planned)
        done = {scope.character_id for scope in planned if last[scope.character_id] == scope}
        waiting.extend(read for read in reads if read.export.scope.is_character_wide)
        ready = [read for read in waiting if read.export.scope.character_id in done]
        waiting = [read for read in waiting if read.export.scope.character_id not in done]
        viewers = [read for read in reads if not read.export.scope.is_character_wide]
        for read in reads:
            total = total + Counts.of(read)
        copied = copied + await _copy_batch(engines, reads, [*viewers, *ready])
    return copied, total, len(scopes)


async def verify(
    source: SqliteSource, source_store: SqliteMemoryStore, target: ServerMemoryStore, *, sample: int
) -> tuple[tuple[ScopeCounts, ...], tuple[SearchComparison, ...]]:
    """Compare every scope's counts (one count query on each side), and searches over a
    sample of scopes (only those are read)."""
    scopes = await source.scopes()
    expected = await source.counts()
    found = await target_counts(target.engines.database)
    mismatched = [
        ScopeCounts(
            scope, Counts(*expected.get(scope, NOTHING)), Counts(*found.get(scope, NOTHING))
        )
        for scope in scopes
        if expected.get(scope, NOTHING) != found.get(scope, NOTHING)
    ]
    with_memories = [scope for scope in scopes if expected.get(scope, NOTHING)[0]]
    step = max(1, len(with_memories) // max(1, sample))
    searches: list[SearchComparison] = []
    for read in await source.read_scopes(with_memories[::step][:sample]):
        searches.extend(await compare_searches(read, source_store, target))
    return tuple(mismatched), tuple(searches)


async def migrate_growth(
    path: Path, database: Database, memories: SqliteMemoryStore
) -> GrowthMigration:
    """Copy the growth file at ``path`` (if there is one), then count both sides."""
    if not path.is_file():
        return GrowthMigration(None)
    source = GrowthSource(path)
    try:
        report = await copy_growth(source, database, memories)
        return replace(report, mismatched=await count_growth(source, database))
    finally:
        await source.close()


async def migrate_sqlite(
    path: Path,
    config: ServerConfig,
    *,
    sample: int = DEFAULT_SAMPLE,
    growth_path: Path | None = None,
    keys_path: Path | None = None,
) -> MigrationReport:
    """Copy the embedded store at ``path``, and the growth file and key file beside it (or
    at ``growth_path`` and ``keys_path``), into the server store of ``config``, then check."""
    from omoide.store.server.connect import open_server_store

    growth_file = growth_path or Path(path).parent / GROWTH_FILE
    key_file = keys_path or Path(path).parent / KEY_FILE_NAME
    source = await open_sqlite_source(path)
    try:
        target = await open_server_store(config, embedding=source.embedding)
        try:
            copied, total, scope_count = await copy_store(source, target.engines)
            source_store = await open_sqlite_store(source.path, embedding=source.embedding)
            try:
                growth = await migrate_growth(growth_file, target.engines.database, source_store)
                keys = await migrate_keys(key_file, PostgresKeyStore(target.engines.database))
                mismatched, searches = await verify(source, source_store, target, sample=sample)
            finally:
                await source_store.close()
        finally:
            await target.close()
    finally:
        await source.close()
    return MigrationReport(
        source.path, scope_count, copied, total, mismatched, searches, growth, keys
    )

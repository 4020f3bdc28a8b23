"""Keeping Qdrant derived from PostgreSQL: the drift check, its repair, and a full rebuild.

* :func:`check_drift` compares, per scope and record kind, the points the records call
  for with the points Qdrant holds: *missing* (a record's point is absent), *orphaned* (a
  point without a record, or whose record calls for none) and *stale* (a point whose
  filter payload no longer matches its record). It reads both engines a batch at a time.
  It also compares the keyword analyzer that built the sparse vectors with the current one
  (:mod:`.keyword_index`): a stale keyword index is drift that only :func:`reindex` fixes.
* :func:`repair_drift` re-publishes exactly the drifted points through the outbox.
* :func:`reindex` drops and rebuilds both collections from the records (vectors are
  stored in PostgreSQL, so nothing is re-embedded), then repairs what changed meanwhile,
  and records the analyzer version it built the keyword vectors with.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from omoide.store.server.database import Connection, Database
from omoide.store.server.engines import Changes, Engines
from omoide.store.server.keyword_index import (
    KeywordIndexVersion,
    keyword_index_version,
    record_rebuilt,
)
from omoide.store.server.outbox import current_points
from omoide.store.server.points import (
    POINT_KINDS,
    PointKind,
    build_point,
    point_alias,
    point_columns,
    point_source,
)

BATCH = 1000


@dataclass
class _Tally:
    records: int = 0
    missing: list[int] = field(default_factory=list)
    orphaned: list[int] = field(default_factory=list)
    stale: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ScopeDrift:
    """How one scope's points of one kind differ from its records (ids are point ids)."""

    kind: PointKind
    scope_key: str
    records: int
    missing: tuple[int, ...]
    orphaned: tuple[int, ...]
    stale: tuple[int, ...]

    @property
    def drifted(self) -> bool:
        return bool(self.missing or self.orphaned or self.stale)


@dataclass(frozen=True, slots=True)
class DriftReport:
    """Every scope with points or records, the outbox entries still pending, and the
    analyzer version of the keyword index (stale: every keyword vector needs a rebuild)."""

    scopes: tuple[ScopeDrift, ...]
    pending: int
    keyword_index: KeywordIndexVersion

    @property
    def drifted(self) -> tuple[ScopeDrift, ...]:
        return tuple(scope for scope in self.scopes if scope.drifted)

    @property
    def in_step(self) -> bool:
        return not self.drifted and self.pending == 0 and not self.keyword_index.stale

    def counts(self) -> dict[str, int]:
        return {
            "scopes": len(self.scopes),
            "drifted_scopes": len(self.drifted),
            "missing": sum(len(scope.missing) for scope in self.scopes),
            "orphaned": sum(len(scope.orphaned) for scope in self.scopes),
            "stale": sum(len(scope.stale) for scope in self.scopes),
            "pending": self.pending,
        }


async def _record_batches(
    database: Database, kind: PointKind, batch: int
) -> AsyncIterator[list[int]]:
    """Every record's internal id, in id order, a batch at a time."""
    alias, after = point_alias(kind), 0
    while True:
        rows = await database.fetch_all(
            f"SELECT {alias}.internal_id FROM {point_source(kind)} "
            f"WHERE {alias}.internal_id > %s ORDER BY {alias}.internal_id LIMIT %s",
            (after, batch),
        )
        if not rows:
            return
        yield [int(row[0]) for row in rows]
        after = int(rows[-1][0])


async def _check_records(
    engines: Engines, kind: PointKind, tallies: dict[tuple[PointKind, str], _Tally], batch: int
) -> None:
    dimensions = engines.embedding.dimensions
    async for ids in _record_batches(engines.database, kind, batch):
        async with engines.database.transaction() as connection:
            expected = await current_points(connection, kind, ids, dimensions)
        present = await engines.index.payloads(kind, list(expected))
        for internal_id, point in expected.items():
            payload = dict(point.payload or {})
            tally = tallies.setdefault((kind, str(payload["scope"])), _Tally())
            tally.records += 1
            if internal_id not in present:
                tally.missing.append(internal_id)
            elif present[internal_id] != payload:
                tally.stale.append(internal_id)


async def _check_points(
    engines: Engines, kind: PointKind, tallies: dict[tuple[PointKind, str], _Tally]
) -> None:
    dimensions = engines.embedding.dimensions
    alias = point_alias(kind)
    async for page in engines.index.scan(kind):
        ids = [internal_id for internal_id, _ in page]
        rows = await engines.database.fetch_all(
            f"SELECT {point_columns(kind)} FROM {point_source(kind)} "
            f"WHERE {alias}.internal_id = ANY(%s)",
            (ids,),
        )
        wanted = {int(row[0]) for row in rows if build_point(kind, row, dimensions) is not None}
        for internal_id, payload in page:
            if internal_id not in wanted:
                key = (kind, str(payload.get("scope", "")))
                tallies.setdefault(key, _Tally()).orphaned.append(internal_id)


async def check_drift(engines: Engines, *, batch: int = BATCH) -> DriftReport:
    """Compare both engines, scope by scope; changes nothing."""
    tallies: dict[tuple[PointKind, str], _Tally] = {}
    for kind in POINT_KINDS:
        await _check_records(engines, kind, tallies, batch)
        await _check_points(engines, kind, tallies)
    scopes = tuple(
        ScopeDrift(
            kind,
            key,
            tally.records,
            tuple(tally.missing),
            tuple(tally.orphaned),
            tuple(tally.stale),
        )
        for (kind, key), tally in sorted(tallies.items())
    )
    pending = await engines.outbox.pending()
    return DriftReport(scopes, pending, await keyword_index_version(engines.database))


async def repair_drift(engines: Engines, report: DriftReport) -> int:
    """Re-publish every drifted point and the pending outbox; returns how many points."""
    changes = Changes()
    for scope in report.drifted:
        ids = [*scope.missing, *scope.orphaned, *scope.stale]
        (changes.episodes if scope.kind == "episode" else changes.facts).extend(ids)

    async def queue(connection: Connection, pending: Changes) -> None:
        pending.episodes.extend(changes.episodes)
        pending.facts.extend(changes.facts)

    await engines.change(queue)
    await engines.catch_up()
    return len(changes.episodes) + len(changes.facts)


@dataclass(frozen=True, slots=True)
class ReindexReport:
    episodes: int
    facts: int
    repaired: int


async def reindex(engines: Engines, *, batch: int = BATCH) -> ReindexReport:
    """Rebuild both Qdrant collections from PostgreSQL (no re-embedding).

    Searches find nothing while a collection is rebuilt: run it in a quiet hour, or with
    the service stopped. Writes during the rebuild are caught by the final repair. The
    current analyzer version is recorded only once everything is rebuilt: an interrupted
    rebuild leaves a stale keyword index stale.
    """
    await engines.index.recreate(engines.embedding.dimensions)
    published: dict[PointKind, int] = {"episode": 0, "fact": 0}
    for kind in POINT_KINDS:
        async for ids in _record_batches(engines.database, kind, batch):
            async with engines.database.transaction() as connection:
                await engines.outbox.sync_points(connection, kind, ids)
            published[kind] += len(ids)
    await engines.catch_up()
    repaired = await repair_drift(engines, await check_drift(engines, batch=batch))
    await record_rebuilt(engines.database)
    return ReindexReport(published["episode"], published["fact"], repaired)

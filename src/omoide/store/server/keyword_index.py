"""Which keyword analyzer built a server store's sparse vectors, recorded in ``store_meta``.

Qdrant holds BM25 sparse vectors that omoide computes (:mod:`.sparse`) from the tokens of
:mod:`omoide.store.keywords`. When that analysis changes (``ANALYZER_VERSION`` is bumped),
the vectors already stored stop matching the queries' tokens until ``omoide reindex``
rebuilds them. The row ``keyword_analyzer_version`` says which version built them:

* a store without records (a new one) records the current version whenever it is opened:
  its index is trivially current, and every point it publishes uses that version;
* ``omoide reindex`` records the current version once its rebuild is complete;
* a store with records and no row predates the recording and counts as stale.

A stale store still opens (with a warning) and ``omoide check`` reports it as drift; neither
rebuilds anything, because a rebuild can take minutes on a big collection.
"""

from __future__ import annotations

from dataclasses import dataclass

from omoide.store.keywords import ANALYZER_VERSION
from omoide.store.server.database import Connection, Database, execute, fetch_all
from omoide.store.server.schema import MIGRATION_LOCK

ANALYZER_KEY = "keyword_analyzer_version"

_HAS_RECORDS = "SELECT EXISTS (SELECT 1 FROM episodes) OR EXISTS (SELECT 1 FROM facts)"
_RECORDED = "SELECT value FROM store_meta WHERE key = %s"
_RECORD = (
    "INSERT INTO store_meta (key, value) VALUES (%s, %s) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


@dataclass(frozen=True, slots=True)
class KeywordIndexVersion:
    """The analyzer version recorded for the stored keyword vectors, and the current one."""

    recorded: int | None
    current: int
    has_records: bool

    @property
    def stale(self) -> bool:
        return self.has_records and self.recorded != self.current

    def describe(self) -> str:
        built = "an unrecorded version" if self.recorded is None else f"version {self.recorded}"
        return (
            f"the keyword index was built by keyword analyzer {built}, but this omoide "
            f"analyses with version {self.current}: keyword searches miss words until "
            "`omoide reindex` rebuilds it"
        )


async def _read(connection: Connection) -> KeywordIndexVersion:
    rows = await fetch_all(connection, _RECORDED, (ANALYZER_KEY,))
    has_records = await fetch_all(connection, _HAS_RECORDS)
    recorded = int(rows[0][0]) if rows else None
    return KeywordIndexVersion(recorded, ANALYZER_VERSION, bool(has_records[0][0]))


async def keyword_index_version(database: Database) -> KeywordIndexVersion:
    """What the store records, compared with this omoide's analyzer; changes nothing."""
    async with database.transaction() as connection:
        return await _read(connection)


async def record_if_empty(database: Database) -> KeywordIndexVersion:
    """Record the current version when the store has no records yet (at every open)."""
    async with database.transaction() as connection:
        await execute(connection, "SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        version = await _read(connection)
        if version.has_records or version.recorded == version.current:
            return version
        await execute(connection, _RECORD, (ANALYZER_KEY, str(version.current)))
    return KeywordIndexVersion(version.current, version.current, has_records=False)


async def record_rebuilt(database: Database) -> None:
    """Record the current version: every keyword vector was just rebuilt with it."""
    async with database.transaction() as connection:
        await execute(connection, _RECORD, (ANALYZER_KEY, str(ANALYZER_VERSION)))

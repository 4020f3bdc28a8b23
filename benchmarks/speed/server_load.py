"""The server profile's engines for the benchmark: a local PostgreSQL and Qdrant node,
loaded from the embedded benchmark stores.

The servers are started with ``scripts/local_servers.py`` under ``<work>/server`` and
stopped at the end of the section; their data stays there. Each store size gets its own
namespace (a PostgreSQL schema through the connection's ``search_path`` and Qdrant
collections ``episodes_<N>_*``) and is copied from the embedded store file with
``migrate_sqlite``, which also checks the copy (counts of every scope, and the same
searches in both stores for a sample of scopes). Then the Qdrant collections are
awaited until their optimisers are done (status green), so the index build is timed
apart. A finished load is recorded in ``<work>/server/loads/<namespace>.json`` with the
embedded store's manifest; a later run on the same store reuses it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import anyio
import anyio.to_thread

from benchmarks.speed.corpus import MANIFEST, store_path
from benchmarks.speed.stats import Stopwatch, per_second
from omoide.errors import BackendError, ConfigError

if TYPE_CHECKING:
    from omoide.store.server.endpoints import ServerConfig

logger = logging.getLogger(__name__)

KINDS = ("episodes", "facts")
INDEX_POLL_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class ServerLoad:
    """One embedded store copied into PostgreSQL + Qdrant, and how long that took."""

    episodes: int
    namespace: str
    reused: bool
    loaded_at: str
    load_seconds: float
    """``migrate_sqlite``: the copy and its check."""
    index_seconds: float
    """Waiting for Qdrant's optimisers (index build) after the copy."""
    copied_episodes: int
    copied_facts: int
    copied_emotions: int
    verified: bool
    episode_points: int
    fact_points: int
    indexed_vectors: int

    @property
    def episodes_per_second(self) -> float:
        return per_second(self.episodes, self.load_seconds)


@dataclass(frozen=True, slots=True)
class LocalEngines:
    """Running PostgreSQL and Qdrant, and their versions."""

    database_url: str
    qdrant_url: str
    qdrant_grpc_port: int
    postgres_version: str
    qdrant_version: str

    def config(self, namespace: str) -> ServerConfig:
        """The server store of one namespace, talking gRPC to Qdrant as in production."""
        from omoide.store.server.endpoints import ServerConfig

        return ServerConfig(
            database_url=with_search_path(self.database_url, namespace),
            qdrant_url=self.qdrant_url,
            qdrant_grpc_port=self.qdrant_grpc_port,
            collection_prefix=namespace,
        )


def namespace_for(episodes: int) -> str:
    return f"episodes_{episodes}"


def with_search_path(database_url: str, schema: str) -> str:
    """``database_url`` with every connection's search_path set to ``schema``."""
    separator = "&" if "?" in database_url else "?"
    return f"{database_url}{separator}options={quote(f'-csearch_path={schema}')}"


@asynccontextmanager
async def local_engines(base_dir: Path) -> AsyncIterator[LocalEngines]:
    """Start PostgreSQL and one Qdrant node under ``base_dir``; stop them afterwards.

    Raises :class:`ConfigError` (the section is then reported as not run, with the reason)
    when the server extra is missing or the servers cannot start.
    """
    try:
        import psycopg  # noqa: F401  (the server extra)

        from scripts import local_servers
    except ModuleNotFoundError as exc:
        raise ConfigError(
            f"the server profile needs the server extra and scripts/local_servers.py ({exc})"
        ) from exc
    cache = local_servers.default_cache_dir()
    try:
        running = await anyio.to_thread.run_sync(local_servers.up, base_dir, cache)
    except (local_servers.ServerSetupError, OSError) as exc:
        raise ConfigError(f"the local PostgreSQL + Qdrant could not start: {exc}") from exc
    try:
        version = await _postgres_version(running.postgres.url)
        yield LocalEngines(
            database_url=running.postgres.url,
            qdrant_url=running.qdrant.url,
            qdrant_grpc_port=running.qdrant.grpc_port,
            postgres_version=version,
            qdrant_version=local_servers.QDRANT_VERSION,
        )
    finally:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(running.stop)


async def _postgres_version(database_url: str) -> str:
    import psycopg

    async with await psycopg.AsyncConnection.connect(database_url) as connection:
        cursor = await connection.execute("SHOW server_version")
        row = await cursor.fetchone()
    return str(row[0]) if row else "unknown"


def store_fingerprint(directory: Path) -> str:
    """Identifies the embedded store a load was copied from (its build manifest)."""
    return hashlib.sha256((directory / MANIFEST).read_bytes()).hexdigest()[:16]


def recorded_load(base_dir: Path, directory: Path, episodes: int) -> ServerLoad | None:
    """The load recorded for this embedded store, if there is one."""
    record = _record_path(base_dir, namespace_for(episodes))
    if not record.exists() or not (directory / MANIFEST).exists():
        return None
    saved = json.loads(record.read_text(encoding="utf-8"))
    if saved.get("store") != store_fingerprint(directory):
        return None
    return ServerLoad(**{**saved["load"], "reused": True})


def _record_path(base_dir: Path, namespace: str) -> Path:
    return base_dir / "loads" / f"{namespace}.json"


async def load_store(
    engines: LocalEngines, base_dir: Path, directory: Path, episodes: int, *, index_bound: float
) -> ServerLoad:
    """Copy the embedded store in ``directory`` into a fresh namespace, or reuse the copy."""
    from omoide.store.server.migrate import migrate_sqlite

    found = recorded_load(base_dir, directory, episodes)
    if found is not None:
        return found
    namespace = namespace_for(episodes)
    await _reset_namespace(engines, namespace)
    logger.info("server profile: copying the store of %d episodes", episodes)
    watch = Stopwatch()
    report = await migrate_sqlite(store_path(directory), engines.config(namespace))
    load_seconds = watch.elapsed()
    logger.info("server profile: copied in %.0f s; waiting for the index", load_seconds)
    watch = Stopwatch()
    points, indexed = await _wait_for_index(engines, namespace, index_bound)
    load = ServerLoad(
        episodes=episodes,
        namespace=namespace,
        reused=False,
        loaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        load_seconds=load_seconds,
        index_seconds=watch.elapsed(),
        copied_episodes=report.copied.episodes,
        copied_facts=report.copied.facts,
        copied_emotions=report.copied.emotions,
        verified=report.verified,
        episode_points=points["episodes"],
        fact_points=points["facts"],
        indexed_vectors=indexed,
    )
    record = _record_path(base_dir, namespace)
    record.parent.mkdir(parents=True, exist_ok=True)
    saved = {"store": store_fingerprint(directory), "load": asdict(load)}
    record.write_text(json.dumps(saved, indent=2) + "\n", encoding="utf-8")
    return load


async def _reset_namespace(engines: LocalEngines, namespace: str) -> None:
    """An empty PostgreSQL schema and no Qdrant collections for ``namespace``."""
    import psycopg
    from psycopg import sql
    from qdrant_client import AsyncQdrantClient

    async with await psycopg.AsyncConnection.connect(
        engines.database_url, autocommit=True
    ) as connection:
        schema = sql.Identifier(namespace)
        await connection.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(schema))
        await connection.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    client = AsyncQdrantClient(url=engines.qdrant_url)
    try:
        for kind in KINDS:
            await client.delete_collection(f"{namespace}_{kind}")
    finally:
        await client.close()


async def _wait_for_index(
    engines: LocalEngines, namespace: str, bound: float
) -> tuple[dict[str, int], int]:
    """Wait until both collections are green; their point counts and indexed vectors."""
    from qdrant_client import AsyncQdrantClient
    from qdrant_client.models import CollectionStatus

    client = AsyncQdrantClient(url=engines.qdrant_url)
    watch = Stopwatch()
    try:
        while True:
            infos = {kind: await client.get_collection(f"{namespace}_{kind}") for kind in KINDS}
            if all(info.status == CollectionStatus.GREEN for info in infos.values()):
                points = {kind: info.points_count or 0 for kind, info in infos.items()}
                indexed = sum(info.indexed_vectors_count or 0 for info in infos.values())
                return points, indexed
            if watch.elapsed() > bound:
                raise BackendError(f"Qdrant's index of {namespace} not ready after {bound:.0f} s")
            await anyio.sleep(INDEX_POLL_SECONDS)
    finally:
        await client.close()

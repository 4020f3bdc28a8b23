"""A migration in batches: many scopes per transaction and per Qdrant publish, each scope
read once, every record copied exactly once, a re-run copying nothing, and a crash between
a batch's PostgreSQL commit and its Qdrant publish healed by the next run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from omoide.store.server import ServerConfig, open_server_store
from omoide.store.server.maintenance import check_drift
from omoide.store.server.migrate import Counts, copy_store, migrate_sqlite, plan_batches
from omoide.store.server.sqlite_source import open_sqlite_source
from omoide.store.sqlite import open_sqlite_store
from tests.server.servers import LocalServers
from tests.server.test_crash_healing import (
    REPOSITORY,
    WRITER_NAME,
    kill,
    points,
    proxy_for,
    query,
    read_line,
    send,
    wait_until,
)
from tests.server.test_migrate import CHARACTER, ELSEWHERE, OTHER, SCOPES, VIEWER, embedded_store
from tests.store.builders import EMBEDDING

pytestmark = pytest.mark.anyio

TOTAL = Counts(episodes=5, facts=3, emotions=1, tombstones=1)
RECORDS = ("episodes", "facts", "emotions", "tombstones", "fact_sources")


@contextmanager
def crasher_process(source: Path, config: ServerConfig) -> Iterator[subprocess.Popen[str]]:
    """``tests.server.migrate_crasher``, named like the crash tests' writer (see ``kill``)."""
    fields = asdict(config)
    fields["database_url"] = f"{config.database_url}&application_name={WRITER_NAME}"
    environment = {"OMOIDE_CRASH_CONFIG": json.dumps(fields), "OMOIDE_CRASH_SOURCE": str(source)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.server.migrate_crasher"],
        cwd=REPOSITORY,
        env={**os.environ, **environment},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


async def row_counts(servers: LocalServers, namespace: str) -> dict[str, int]:
    return {
        table: await query(servers, namespace, f"SELECT count(*) FROM {table}") for table in RECORDS
    }


async def test_batches_follow_the_scopes_and_keep_a_large_scope_whole(tmp_path: Path) -> None:
    path = tmp_path / "omoide.sqlite3"
    await embedded_store(path)
    source = await open_sqlite_source(path)
    try:
        scopes, counts = await source.scopes(), await source.counts()
    finally:
        await source.close()

    assert scopes == [ELSEWHERE, CHARACTER, VIEWER, OTHER]
    assert plan_batches(scopes, counts, 1) == [[scope] for scope in scopes]
    assert plan_batches(scopes, counts, 4) == [[ELSEWHERE, CHARACTER], [VIEWER], [OTHER]]
    assert plan_batches(scopes, counts, 1_000) == [scopes]


async def test_a_migration_in_batches_copies_everything_once_and_again_nothing(
    servers: LocalServers, namespace: str, config: ServerConfig, tmp_path: Path
) -> None:
    path = tmp_path / "omoide.sqlite3"
    await embedded_store(path)
    source = await open_sqlite_source(path)
    target = await open_server_store(config, embedding=EMBEDDING)
    try:
        # One scope per batch: the diary of CHARACTER (read second) cites episodes of
        # VIEWER and OTHER (read after it), so its facts wait for the character's last batch.
        first = await copy_store(source, target.engines, batch=1)
        rows = await row_counts(servers, namespace)
        second = await copy_store(source, target.engines, batch=1)
        drift = await check_drift(target.engines)
        exported = [await target.export_scope(scope) for scope in SCOPES]
    finally:
        await target.close()
        await source.close()
    embedded = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        expected = [await embedded.export_scope(scope) for scope in SCOPES]
    finally:
        await embedded.close()

    assert first == (TOTAL, TOTAL, 4)
    assert second == (Counts(), TOTAL, 4)
    assert rows == {"episodes": 5, "facts": 3, "emotions": 1, "tombstones": 1, "fact_sources": 4}
    assert await row_counts(servers, namespace) == rows
    assert exported == expected
    assert drift.in_step
    assert await points(servers, namespace) == 5


async def test_a_migration_killed_between_a_commit_and_its_publish_is_healed_by_a_rerun(
    servers: LocalServers, namespace: str, config: ServerConfig, tmp_path: Path
) -> None:
    path = tmp_path / "omoide.sqlite3"
    await embedded_store(path)
    async with proxy_for(servers) as proxy:
        proxied = replace(config, qdrant_url=proxy.url, qdrant_grpc_port=None)
        with crasher_process(path, proxied) as crasher:
            assert await read_line(crasher) == "ready\n"
            proxy.mode = "hang"
            await send(crasher, "go")
            # The first batch (aoi's one viewer, one episode) committed, its publish stalled.
            await wait_until(servers, namespace, "SELECT count(*) FROM vector_outbox", 1)
            await kill(crasher, servers, namespace)

    assert await row_counts(servers, namespace) == {
        "episodes": 1,
        "facts": 0,
        "emotions": 0,
        "tombstones": 0,
        "fact_sources": 0,
    }
    assert await points(servers, namespace) == 0
    report = await migrate_sqlite(path, config)
    store = await open_server_store(config, embedding=EMBEDDING)
    try:
        drift = await check_drift(store.engines)
    finally:
        await store.close()

    assert report.verified
    assert report.copied == replace(TOTAL, episodes=4)
    assert report.total == TOTAL
    assert drift.in_step
    assert await points(servers, namespace) == 5

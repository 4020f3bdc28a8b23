"""A crash between the PostgreSQL commit and the Qdrant write is healed on the next start.

The writer is a real process talking to Qdrant through a local proxy; the test stalls the
proxy so the writer hangs after its commit, kills it with SIGKILL, then opens a store:
the outbox left by the dead writer is published and both engines agree again. While the
index lags, searches never return a record PostgreSQL no longer has.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import psycopg
import pytest
from qdrant_client import AsyncQdrantClient

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter
from omoide.store.server import ServerConfig, ServerMemoryStore, open_engines, open_server_store
from omoide.store.server.maintenance import check_drift
from tests.server.proxy import QdrantProxy
from tests.server.servers import LocalServers
from tests.store.backends import with_search_path
from tests.store.builders import EMBEDDING, episode, turn

pytestmark = pytest.mark.anyio

REPOSITORY = Path(__file__).resolve().parents[2]
VIEWER = Scope("haru", "minjun")
WRITER_NAME = "omoide-crash-writer"


@asynccontextmanager
async def proxy_for(servers: LocalServers) -> AsyncIterator[QdrantProxy]:
    proxy = QdrantProxy(urlsplit(servers.qdrant_url).port or 6333)
    async with anyio.create_task_group() as group:
        await group.start(proxy.serve)
        yield proxy
        group.cancel_scope.cancel()


@contextmanager
def writer_process(config: ServerConfig) -> Iterator[subprocess.Popen[str]]:
    fields = asdict(config)
    fields["database_url"] = f"{config.database_url}&application_name={WRITER_NAME}"
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.server.crash_writer"],
        cwd=REPOSITORY,
        env={**os.environ, "OMOIDE_CRASH_CONFIG": json.dumps(fields)},
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


async def read_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    with anyio.fail_after(60):
        return await anyio.to_thread.run_sync(process.stdout.readline, abandon_on_cancel=True)


async def send(process: subprocess.Popen[str], command: str) -> None:
    assert process.stdin is not None
    process.stdin.write(command + "\n")
    process.stdin.flush()


async def query(servers: LocalServers, namespace: str, sql: str, *values: object) -> int:
    url = with_search_path(servers.database_url, namespace)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        cursor = await connection.execute(sql, values)
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def wait_until(servers: LocalServers, namespace: str, sql: str, expected: int) -> None:
    with anyio.fail_after(60):
        while await query(servers, namespace, sql) != expected:
            await anyio.sleep(0.05)


async def kill(process: subprocess.Popen[str], servers: LocalServers, namespace: str) -> None:
    """SIGKILL the writer and wait until PostgreSQL has rolled back its open transaction."""
    process.send_signal(signal.SIGKILL)
    await anyio.to_thread.run_sync(process.wait)
    await wait_until(
        servers,
        namespace,
        f"SELECT count(*) FROM pg_stat_activity WHERE application_name = '{WRITER_NAME}'",
        0,
    )


async def points(servers: LocalServers, namespace: str) -> int:
    client = AsyncQdrantClient(url=servers.qdrant_url, check_compatibility=False)
    try:
        return (await client.count(f"{namespace}_episodes", exact=True)).count
    finally:
        await client.close()


async def test_a_write_killed_after_its_commit_is_published_on_the_next_start(
    servers: LocalServers, namespace: str, config: ServerConfig
) -> None:
    async with proxy_for(servers) as proxy:
        with writer_process(replace(config, qdrant_url=proxy.url, qdrant_grpc_port=None)) as writer:
            assert await read_line(writer) == "ready\n"
            await send(writer, "write e0 apple pie")
            assert await read_line(writer) == "done\n"
            proxy.mode = "hang"
            await send(writer, "write e1 pineapple tart")
            await wait_until(servers, namespace, "SELECT count(*) FROM episodes", 2)
            await kill(writer, servers, namespace)

    assert await query(servers, namespace, "SELECT count(*) FROM vector_outbox") == 1
    assert await points(servers, namespace) == 1
    store = await open_server_store(config, embedding=EMBEDDING)
    try:
        hits = await store.search_episode_keywords(
            VIEWER, "pineapple", where=EpisodeFilter(), limit=5
        )
        report = await check_drift(store.engines)
    finally:
        await store.close()

    assert [hit.item.id for hit in hits] == ["e1"]
    assert report.in_step
    assert await points(servers, namespace) == 2


async def test_a_delete_killed_before_qdrant_heard_of_it_is_never_a_hit(
    servers: LocalServers, namespace: str, config: ServerConfig
) -> None:
    async with proxy_for(servers) as proxy:
        with writer_process(replace(config, qdrant_url=proxy.url, qdrant_grpc_port=None)) as writer:
            assert await read_line(writer) == "ready\n"
            for command in ("write e0 secret plan", "write e1 open plan"):
                await send(writer, command)
                assert await read_line(writer) == "done\n"
            proxy.mode = "hang"
            await send(writer, "delete e0")
            await wait_until(servers, namespace, "SELECT count(*) FROM episodes", 1)
            await kill(writer, servers, namespace)

    assert await points(servers, namespace) == 2  # Qdrant still has the deleted episode
    lagging = ServerMemoryStore(await open_engines(config, embedding=EMBEDDING))
    try:
        before = await lagging.search_episode_keywords(
            VIEWER, "plan", where=EpisodeFilter(), limit=5
        )
        drift = await check_drift(lagging.engines)
        await lagging.engines.catch_up()
        after = await check_drift(lagging.engines)
    finally:
        await lagging.close()

    assert [hit.item.id for hit in before] == ["e1"]
    assert not drift.in_step and drift.pending == 1
    assert [scope.orphaned for scope in drift.drifted] == [(1,)]
    assert after.in_step
    assert await points(servers, namespace) == 1


async def test_writes_while_qdrant_is_down_are_acknowledged_and_catch_up(
    servers: LocalServers, config: ServerConfig
) -> None:
    async with proxy_for(servers) as proxy:
        store = await open_server_store(
            replace(config, qdrant_url=proxy.url, qdrant_grpc_port=None), embedding=EMBEDDING
        )
        try:
            proxy.mode = "refuse"
            await store.write_turns("haru", [turn(episode(VIEWER, "down", "written in the dark"))])
            proxy.mode = "forward"
            lagging = await store.search_episode_keywords(
                VIEWER, "dark", where=EpisodeFilter(), limit=5
            )
            await store.write_turns("haru", [turn(episode(VIEWER, "up", "written in the light"))])
            caught_up = await store.search_episode_keywords(
                VIEWER, "written", where=EpisodeFilter(), limit=5
            )
            report = await check_drift(store.engines)
        finally:
            await store.close()

    assert lagging == []
    assert sorted(hit.item.id for hit in caught_up) == ["down", "up"]
    assert report.in_step

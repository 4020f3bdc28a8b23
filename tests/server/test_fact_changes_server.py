"""The server side of ``write_fact_changes`` and ``current_facts``: the Qdrant points of a
batch go through the vector outbox like every other write (published after the commit,
nothing for a batch that failed, healed when Qdrant was down), and current facts carry the
vectors PostgreSQL records, not Qdrant's normalised copies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from urllib.parse import urlsplit

import anyio
import numpy as np
import pytest

from omoide.domain import Scope, TrustState
from omoide.errors import NotFound
from omoide.store.base import FactFilter, FactSupersession, FactUpdate, FactWrite
from omoide.store.server import ServerConfig, ServerMemoryStore, open_server_store
from omoide.store.server.maintenance import check_drift
from tests.server.proxy import QdrantProxy
from tests.server.servers import LocalServers
from tests.store.builders import EMBEDDING, at, fact, text_vector

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")


def write(scope: Scope, fact_id: str, text: str) -> FactWrite:
    vector = (text_vector(fact_id) * np.float32(3.0)).astype(np.float32)
    return FactWrite(fact(scope, fact_id, text), vector)


def batch() -> list[FactWrite | FactUpdate | FactSupersession]:
    first = write(VIEWER, "v1", "lives in Seoul")
    return [
        first,
        write(OTHER, "o1", "likes rhythm games"),
        FactUpdate(replace(first.fact, trust=TrustState.CONFIRMED, confirmation_count=2)),
        FactSupersession("v1", write(VIEWER, "v2", "lives in Busan"), at(1)),
    ]


async def fact_points(store: ServerMemoryStore) -> int:
    return await store.engines.index.count("fact")


async def test_a_batch_is_published_after_its_commit(server_store: ServerMemoryStore) -> None:
    await server_store.write_fact_changes("haru", batch())

    report = await check_drift(server_store.engines)
    assert report.in_step
    assert await fact_points(server_store) == 3
    hits = await server_store.search_fact_keywords(VIEWER, "busan", where=FactFilter(), limit=5)
    assert [hit.item.id for hit in hits] == ["v2"]


async def test_a_failed_batch_queues_and_publishes_nothing(
    server_store: ServerMemoryStore,
) -> None:
    failing = [*batch(), FactUpdate(fact(VIEWER, "nowhere"))]

    with pytest.raises(NotFound):
        await server_store.write_fact_changes("haru", failing)

    assert await server_store.engines.outbox.pending() == 0
    assert await fact_points(server_store) == 0
    assert (await check_drift(server_store.engines)).in_step


async def test_current_facts_carry_the_recorded_vectors_not_qdrants(
    server_store: ServerMemoryStore,
) -> None:
    first = write(VIEWER, "v1", "lives in Seoul")
    await server_store.write_fact_changes("haru", [first])

    found = (await server_store.current_facts([VIEWER], limit=5))[VIEWER]

    assert found is not None
    assert np.linalg.norm(found.vectors[0]) == pytest.approx(3.0, rel=1e-5)
    np.testing.assert_allclose(found.vectors[0], first.vector, rtol=1e-6)


@asynccontextmanager
async def proxy_for(servers: LocalServers) -> AsyncIterator[QdrantProxy]:
    proxy = QdrantProxy(urlsplit(servers.qdrant_url).port or 6333)
    async with anyio.create_task_group() as group:
        await group.start(proxy.serve)
        yield proxy
        group.cancel_scope.cancel()


async def test_a_batch_written_while_qdrant_is_down_catches_up(
    servers: LocalServers, config: ServerConfig
) -> None:
    async with proxy_for(servers) as proxy:
        store = await open_server_store(
            replace(config, qdrant_url=proxy.url, qdrant_grpc_port=None), embedding=EMBEDDING
        )
        try:
            proxy.mode = "refuse"
            await store.write_fact_changes("haru", batch())
            pending = await store.engines.outbox.pending()
            current = await store.current_facts([VIEWER, OTHER], limit=5)
            proxy.mode = "forward"
            await store.engines.catch_up()
            report = await check_drift(store.engines)
            hits = await store.search_fact_keywords(VIEWER, "busan", where=FactFilter(), limit=5)
        finally:
            await store.close()

    assert pending == 3  # v1, o1, v2: one entry per point, whatever changed it
    assert {
        scope: [item.id for item in found.facts] for scope, found in current.items() if found
    } == {
        VIEWER: ["v2"],
        OTHER: ["o1"],
    }
    assert report.in_step
    assert [hit.item.id for hit in hits] == ["v2"]

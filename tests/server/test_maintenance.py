"""Drift between PostgreSQL and Qdrant is found scope by scope, repaired, and rebuilt away."""

from __future__ import annotations

import json

import anyio
import pytest
import typer
from qdrant_client import AsyncQdrantClient, models
from typer.testing import CliRunner, Result

from omoide.cli.server import register
from omoide.domain import Scope
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.server import Engines, ServerConfig, ServerMemoryStore
from omoide.store.server.maintenance import check_drift, reindex, repair_drift
from omoide.store.server.scopes import scope_key
from tests.server.servers import LocalServers
from tests.store.builders import add_facts, episode, fact, fact_write, turn, unit

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")


async def fill(store: ServerMemoryStore) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "e1", "red apple"), unit(0)),
            turn(episode(VIEWER, "e2", "green tree"), unit(1)),
            turn(episode(OTHER, "e3", "blue sky"), unit(2)),
        ],
    )
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", "likes apples"), unit(3))])


async def internal_id(engines: Engines, episode_id: str) -> int:
    rows = await engines.database.fetch_all(
        "SELECT internal_id FROM episodes WHERE id = %s", (episode_id,)
    )
    return int(rows[0][0])


async def test_a_store_in_step_reports_no_drift(server_store: ServerMemoryStore) -> None:
    await fill(server_store)

    report = await check_drift(server_store.engines)

    assert report.in_step
    assert {(scope.kind, scope.scope_key, scope.records) for scope in report.scopes} == {
        ("episode", scope_key(VIEWER), 2),
        ("episode", scope_key(OTHER), 1),
        ("fact", scope_key(VIEWER), 1),
    }


async def test_missing_orphaned_and_stale_points_are_found_per_scope_and_repaired(
    server_store: ServerMemoryStore, namespace: str, servers: LocalServers
) -> None:
    await fill(server_store)
    engines = server_store.engines
    missing, stale = await internal_id(engines, "e1"), await internal_id(engines, "e3")
    client = AsyncQdrantClient(url=servers.qdrant_url, check_compatibility=False)
    collection = f"{namespace}_episodes"
    try:
        await client.delete(collection, points_selector=models.PointIdsList(points=[missing]))
        await client.set_payload(collection, payload={"archived": True}, points=[stale], wait=True)
        orphan = models.PointStruct(
            id=999, vector={"dense": unit(4).tolist()}, payload={"scope": scope_key(VIEWER)}
        )
        await client.upsert(collection, points=[orphan], wait=True)
    finally:
        await client.close()

    report = await check_drift(engines)
    repaired = await repair_drift(engines, report)
    after = await check_drift(engines)

    drifted = {
        (scope.scope_key, scope.missing, scope.orphaned, scope.stale) for scope in report.drifted
    }
    assert drifted == {
        (scope_key(VIEWER), (missing,), (999,), ()),
        (scope_key(OTHER), (), (), (stale,)),
    }
    assert repaired == 3
    assert after.in_step
    hits = await server_store.search_episode_vectors(
        VIEWER, unit(0), where=EpisodeFilter(), limit=1
    )
    assert [hit.item.id for hit in hits] == ["e1"]


async def test_reindex_rebuilds_lost_collections_from_postgresql(
    server_store: ServerMemoryStore, namespace: str, servers: LocalServers
) -> None:
    await fill(server_store)
    client = AsyncQdrantClient(url=servers.qdrant_url, check_compatibility=False)
    try:
        await client.delete(
            f"{namespace}_facts", points_selector=models.FilterSelector(filter=models.Filter())
        )
        await client.delete(
            f"{namespace}_episodes", points_selector=models.FilterSelector(filter=models.Filter())
        )
    finally:
        await client.close()

    report = await reindex(server_store.engines)

    assert (report.episodes, report.facts, report.repaired) == (3, 1, 0)
    assert (await check_drift(server_store.engines)).in_step
    facts = await server_store.search_fact_keywords(VIEWER, "apples", where=FactFilter(), limit=5)
    assert [hit.item.id for hit in facts] == ["f1"]
    hits = await server_store.search_episode_vectors(OTHER, unit(2), where=EpisodeFilter(), limit=5)
    assert [hit.item.id for hit in hits] == ["e3"]


def run_command(config: ServerConfig, *arguments: str) -> Result:
    """``omoide <arguments>`` with the settings of the test's store, in the environment."""
    app = typer.Typer()
    register(app)
    environment = {
        "OMOIDE_DATABASE_URL": config.database_url,
        "OMOIDE_QDRANT_URL": config.qdrant_url,
        "OMOIDE_QDRANT_COLLECTION_PREFIX": config.collection_prefix,
    }
    return CliRunner().invoke(app, list(arguments), env=environment)


async def test_the_check_command_exits_1_on_drift_and_0_once_repaired(
    server_store: ServerMemoryStore, config: ServerConfig, servers: LocalServers, namespace: str
) -> None:
    await fill(server_store)
    lost = await internal_id(server_store.engines, "e2")
    client = AsyncQdrantClient(url=servers.qdrant_url, check_compatibility=False)
    try:
        selector = models.PointIdsList(points=[lost])
        await client.delete(f"{namespace}_episodes", points_selector=selector, wait=True)
    finally:
        await client.close()

    drifted = await anyio.to_thread.run_sync(run_command, config, "check", "--json")
    repaired = await anyio.to_thread.run_sync(run_command, config, "check", "--repair", "--json")
    clean = await anyio.to_thread.run_sync(run_command, config, "check")

    assert drifted.exit_code == 1, drifted.output
    assert json.loads(drifted.output)["counts"]["missing"] == 1
    assert repaired.exit_code == 0, repaired.output
    assert json.loads(repaired.output)["repaired"] == 1
    assert clean.exit_code == 0 and "in step" in clean.output


async def test_the_reindex_command_rebuilds_from_postgresql(
    server_store: ServerMemoryStore, config: ServerConfig
) -> None:
    await fill(server_store)

    result = await anyio.to_thread.run_sync(run_command, config, "reindex", "--json")

    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"episodes": 3, "facts": 1, "repaired": 0}

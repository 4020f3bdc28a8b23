"""A three-node Qdrant cluster (replication factor 2) loses a node and loses nothing.

Three real Qdrant peers on 127.0.0.1 (one config file each; the first started with
``--uri``, the others with ``--bootstrap``). The store writes through the first peer; the
third is killed with SIGKILL; searches keep answering and writes keep being accepted;
the peer restarts, catches up, and every acknowledged memory is found through it.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import anyio
import pytest

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter
from omoide.store.server import ServerConfig, ServerMemoryStore, open_server_store
from omoide.store.server.maintenance import check_drift
from scripts import local_servers
from scripts.local_servers import QdrantNode
from tests.server.servers import LocalServers
from tests.store.builders import EMBEDDING, episode, text_vector, turn

pytestmark = pytest.mark.anyio

VIEWERS = [Scope("haru", f"viewer{index}") for index in range(4)]
EVERYTHING = EpisodeFilter(include_archived=True)


def get(node: QdrantNode, path: str) -> Any:
    with urllib.request.urlopen(f"{node.url}{path}", timeout=5) as response:
        return json.loads(response.read())["result"]


@dataclass
class Cluster:
    binary: Path
    nodes: list[QdrantNode]

    def restart(self, index: int) -> QdrantNode:
        """Start a stopped peer again on its own data, ports and cluster identity."""
        node = self.nodes[index]
        self.nodes[index] = local_servers.start_qdrant(
            self.binary, node.node_dir, http_port=node.http_port, p2p_port=node.p2p_port
        )
        return self.nodes[index]


@pytest.fixture
def cluster(servers: LocalServers, tmp_path: Path) -> Iterator[Cluster]:
    started = Cluster(servers.qdrant_binary(), [])
    ports = [local_servers.free_port() for _ in range(3)]
    try:
        for index, port in enumerate(ports):
            bootstrap = None if index == 0 else ports[0]
            started.nodes.append(
                local_servers.start_qdrant(
                    started.binary,
                    tmp_path / f"node{index}",
                    p2p_port=port,
                    bootstrap_p2p_port=bootstrap,
                )
            )
        yield started
    finally:
        for node in started.nodes:
            node.stop(hard=True)


async def wait_for(condition: Any, what: str, seconds: float = 90) -> None:
    with anyio.fail_after(seconds):
        while not await anyio.to_thread.run_sync(condition):
            await anyio.sleep(0.2)


def all_replicas_active(node: QdrantNode, collection: str) -> bool:
    try:
        state = get(node, f"/collections/{collection}/cluster")
    except OSError:
        return False
    replicas = [*state["local_shards"], *state["remote_shards"]]
    return bool(replicas) and all(shard["state"] == "Active" for shard in replicas)


async def write(store: ServerMemoryStore, start: int, count: int) -> list[str]:
    ids = [f"memory{index:03d}" for index in range(start, start + count)]
    for index, memory_id in enumerate(ids):
        scope = VIEWERS[index % len(VIEWERS)]
        text = f"word{memory_id} shared"
        await store.write_turns(
            "haru", [turn(episode(scope, memory_id, text), text_vector(memory_id))]
        )
    return ids


async def found(store: ServerMemoryStore, ids: list[str]) -> list[str]:
    """The ids found by their own vector and by their own keyword."""
    present = []
    for index, memory_id in enumerate(ids):
        scope = VIEWERS[index % len(VIEWERS)]
        by_vector = await store.search_episode_vectors(
            scope, text_vector(memory_id), where=EVERYTHING, limit=1
        )
        by_keyword = await store.search_episode_keywords(
            scope, f"word{memory_id}", where=EVERYTHING, limit=1
        )
        if [hit.item.id for hit in by_vector + by_keyword] == [memory_id, memory_id]:
            present.append(memory_id)
    return present


async def test_a_killed_peer_loses_no_acknowledged_memory(
    cluster: Cluster, config: ServerConfig
) -> None:
    first, _, third = cluster.nodes
    await wait_for(lambda: len(get(first, "/cluster")["peers"]) == 3, "three peers")
    clustered = replace(
        config,
        qdrant_url=first.url,
        qdrant_grpc_port=first.grpc_port,
        shard_number=3,
        replication_factor=2,
    )
    store = await open_server_store(clustered, embedding=EMBEDDING)
    collection = clustered.episode_collection
    try:
        await wait_for(lambda: all_replicas_active(first, collection), "replicas")
        before = await write(store, 0, 12)

        third.stop(hard=True)
        answered_while_down = await found(store, before)
        during = await write(store, 12, 12)
        report_while_down = await check_drift(store.engines)

        restarted = cluster.restart(2)
        await wait_for(lambda: all_replicas_active(restarted, collection), "recovery")
    finally:
        await store.close()
    through_third = await open_server_store(
        replace(clustered, qdrant_url=restarted.url, qdrant_grpc_port=restarted.grpc_port),
        embedding=EMBEDDING,
    )
    try:
        recovered = await found(through_third, before + during)
        report = await check_drift(through_third.engines)
    finally:
        await through_third.close()

    assert answered_while_down == before
    assert report_while_down.in_step
    assert recovered == before + during
    assert report.in_step

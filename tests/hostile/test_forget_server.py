"""Forget means gone, in the server profile: after ``DELETE .../users/{viewer}`` no table of
PostgreSQL, no Qdrant payload and no file under the data directory holds the marker the
viewer wrote through every path."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg import sql
from pydantic import SecretStr

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.wiring import build
from tests.api.harness import NOW, make_settings, running_api
from tests.hostile.forget_paths import (
    CHARACTER,
    EMBEDDER,
    KEPT,
    MARKER,
    VIEWER,
    approve_identity,
    files_holding,
    model,
    queue_a_turn,
    stream_with_model,
    with_stream_model,
    write_through_api,
)
from tests.server.servers import LocalServers
from tests.store.backends import with_search_path

pytestmark = pytest.mark.anyio
VIEWER_PATH = f"/v1/characters/{CHARACTER}/users/{VIEWER}"


def server_settings(data: Path, servers: LocalServers, namespace: str) -> Settings:
    return make_settings(
        data,
        store="server",
        database_url=SecretStr(with_search_path(servers.database_url, namespace)),
        qdrant_url=servers.qdrant_url,
        qdrant_collection_prefix=namespace,
    )


async def tables_holding(database_url: str, namespace: str) -> dict[str, int]:
    """Every table of the namespace with rows whose text holds the marker (any case)."""
    found = {}
    async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as db:
        listed = await db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (namespace,),
        )
        for (table,) in await listed.fetchall():
            query = sql.SQL("SELECT count(*) FROM {} AS t WHERE lower(t::text) LIKE %s").format(
                sql.Identifier(namespace, table)
            )
            row = await (await db.execute(query, (f"%{MARKER.lower()}%",))).fetchone()
            assert row is not None
            if row[0]:
                found[table] = int(row[0])
    return found


async def payloads_holding(qdrant_url: str, namespace: str) -> dict[str, int]:
    """Every collection of the namespace with point payloads that hold the marker."""
    found = {}
    async with httpx.AsyncClient(base_url=qdrant_url) as qdrant:
        collections = (await qdrant.get("/collections")).json()["result"]["collections"]
        for name in [c["name"] for c in collections if c["name"].startswith(namespace)]:
            body: dict[str, object] = {"limit": 1000, "with_payload": True, "with_vector": False}
            points = []
            while True:
                page = (await qdrant.post(f"/collections/{name}/points/scroll", json=body)).json()
                points += page["result"]["points"]
                if page["result"]["next_page_offset"] is None:
                    break
                body["offset"] = page["result"]["next_page_offset"]
            assert points, f"{name} holds no points: the scan would prove nothing"
            hits = [p for p in points if MARKER.lower() in json.dumps(p["payload"]).lower()]
            if hits:
                found[name] = len(hits)
    return found


async def test_forgotten_viewer_leaves_nothing_in_postgres_qdrant_or_files(
    servers_and_namespace: tuple[LocalServers, str], tmp_path: Path
) -> None:
    servers, namespace = servers_and_namespace
    data = tmp_path / "data"
    settings = server_settings(data, servers, namespace)
    url = with_search_path(servers.database_url, namespace)
    chat_model = model()
    built = await build(
        with_stream_model(settings), clock=FixedClock(NOW), embedder=EMBEDDER, chat_model=chat_model
    )
    try:
        await stream_with_model(built)
    finally:
        await built.aclose()
    async with running_api(settings, chat_model=chat_model, embedder=EMBEDDER) as api:
        await approve_identity(api)
        await write_through_api(api)
        await queue_a_turn(api)
        before = await tables_holding(url, namespace)
        assert {"episodes", "facts", "stream_comments", "viewer_summaries"} <= set(before)
        assert {"queued_turns", "stream_facts", "display_names"} <= set(before)
        assert {"identity_versions", "identity_changes"} <= set(before)

        response = await api.client.delete(VIEWER_PATH)
        assert response.status_code == 200, response.text
        diary = (await api.client.get(f"/v1/characters/{CHARACTER}/diary")).json()["entries"]
        assert any(KEPT in entry["text"] for entry in diary), "other viewers' words stay"
        await api.service.worker.stop()
    assert await tables_holding(url, namespace) == {}
    assert await payloads_holding(servers.qdrant_url, namespace) == {}
    assert files_holding(data) == {}
    assert response.json()["queued_turns"] == 1 and response.json()["redacted_identity"] >= 2

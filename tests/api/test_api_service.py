"""Health, metrics, maintenance, unknown routes, the OpenAPI document, chat without a model."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.embed.failing import FailingEmbedder
from tests.api.harness import (
    Api,
    make_settings,
    running_api,
    viewer_path,
)

pytestmark = pytest.mark.anyio


async def test_health_reports_store_embedder_model_and_queue(api: Api) -> None:
    response = await api.client.get("/health")
    assert response.status_code == 200
    health = response.json()
    assert health["status"] == "ok"
    assert health["store"] == {"ok": True, "error": None}
    assert health["embedder"] == {"model_name": "hashing:256", "dimensions": 256}
    assert health["llm"] == {"name": "scripted", "ok": True, "error": None}
    assert health["queue"]["pending"] == 0 and health["queue"]["failed"] == 0


async def test_health_says_unavailable_when_the_store_is_closed(tmp_path: Path) -> None:
    async with running_api(make_settings(tmp_path)) as running:
        await running.service.built.store.close()
        response = await running.client.get("/health")
        assert response.status_code == 503
        assert response.json()["status"] == "unavailable"
        assert response.json()["store"]["ok"] is False
        assert response.json()["store"]["error"]


async def test_metrics_count_what_happened(api: Api, viewer: str) -> None:
    before = (await api.client.get("/v1/metrics")).json().get("turns.received", 0)
    await api.client.post(
        viewer_path("haru", viewer) + "/turns", json={"user_message": "I love League of Legends"}
    )
    response = await api.client.get("/v1/metrics")
    assert response.status_code == 200
    assert response.json()["turns.received"] == before + 1


async def test_decay_archives_faded_memories(api: Api, viewer: str) -> None:
    await api.client.post(
        viewer_path("ash", viewer) + "/turns",
        json={
            "user_message": "I had cereal",
            "timestamp": "2020-01-01T00:00:00Z",
            "importance": 0.1,
        },
    )
    response = await api.client.post(
        "/v1/maintenance/decay",
        json={"character_id": "ash", "now": "2026-05-01T00:00:00Z"},
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["character_id"] == "ash"
    assert report["scanned"] >= 1 and report["archived"] >= 1 and report["purged"] == 0
    episodes = viewer_path("ash", viewer) + "/episodes"
    assert (await api.client.get(episodes)).json()["total"] == 0
    archived = await api.client.get(episodes, params={"include_archived": "true"})
    assert archived.json()["total"] == 1
    purge = await api.client.post(
        "/v1/maintenance/decay",
        json={
            "character_id": "ash",
            "now": "2026-05-02T00:00:00Z",
            "purge_archived_before": "2026-05-02T00:00:00Z",
        },
    )
    assert purge.json()["purged"] >= 1
    assert (await api.client.get(episodes, params={"include_archived": "true"})).json()[
        "total"
    ] == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"character_id": "nobody"}, 404),
        ({"character_id": "haru", "now": "2026-05-01T00:00:00"}, 422),
        ({"character_id": "haru", "purge_archived_before": "soon"}, 422),
        ({}, 422),
    ],
)
async def test_bad_decay_requests(api: Api, body: dict[str, str], status: int) -> None:
    response = await api.client.post("/v1/maintenance/decay", json=body)
    assert response.status_code == status
    assert set(response.json()["error"]) == {"type", "message", "details"}


async def test_unknown_routes_and_methods_answer_in_the_error_format(api: Api) -> None:
    missing = await api.client.get("/v1/nothing-here")
    assert missing.status_code == 404
    assert missing.json()["error"]["type"] == "NotFound"
    wrong = await api.client.put("/health")
    assert wrong.status_code == 405
    assert wrong.json()["error"]["type"] == "MethodNotAllowed"


async def test_openapi_documents_every_endpoint_with_models(api: Api) -> None:
    document = (await api.client.get("/openapi.json")).json()
    assert document["info"]["title"] == "omoide"
    viewer = "/v1/characters/{character_id}/users/{user_id}"
    expected = {
        "/v1/chat/stream": {"post"},
        viewer: {"delete"},
        viewer + "/turns": {"post"},
        viewer + "/turns/batch": {"post"},
        viewer + "/search": {"post"},
        viewer + "/context": {"post"},
        viewer + "/facts": {"get", "post"},
        viewer + "/facts/{fact_id}": {"patch", "delete"},
        viewer + "/episodes": {"get"},
        viewer + "/episodes/{episode_id}": {"delete"},
        viewer + "/export": {"get"},
        viewer + "/emotions": {"get"},
        viewer + "/profile": {"get"},
        "/v1/characters": {"get"},
        "/v1/characters/{character_id}/users": {"get"},
        "/health": {"get"},
        "/v1/metrics": {"get"},
        "/v1/maintenance/decay": {"post"},
        "/v1/maintenance/decay/restore": {"post"},
    }
    for path, methods in expected.items():
        assert methods <= set(document["paths"][path]), path
    search = document["paths"][viewer + "/search"]["post"]
    assert search["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SearchOut"
    }
    assert "404" in search["responses"] and "422" in search["responses"]
    chat = document["paths"]["/v1/chat/stream"]["post"]["responses"]["200"]
    assert "text/event-stream" in chat["content"]
    assert {"Bearer", "ApiKey"} <= set(document["components"]["securitySchemes"])


async def test_chat_without_a_language_model_is_503(tmp_path: Path) -> None:
    async with running_api(make_settings(tmp_path, llm="none")) as running:
        response = await running.client.post(
            "/v1/chat/stream",
            json={
                "character_id": "haru",
                "user_id": "minjun",
                "user_name": "Minjun",
                "session_id": "s1",
                "message": "hello?",
            },
        )
        assert response.status_code == 503
        assert "language model" in response.json()["error"]["message"]
        health = (await running.client.get("/health")).json()
        assert health["llm"] == {"name": None, "ok": None, "error": None}
        assert health["status"] == "ok"


async def test_a_failing_embedder_is_503_naming_the_backend(tmp_path: Path) -> None:
    embedder = FailingEmbedder()
    async with running_api(make_settings(tmp_path), embedder=embedder) as running:
        path = viewer_path("haru", "minjun")
        stored = await running.client.post(path + "/turns", json={"user_message": "I love LoL"})
        assert stored.status_code == 200
        embedder.queries_down = True
        for endpoint in ("/search", "/context"):
            query = {"query": "Do you remember my favourite game, League of Legends?"}
            response = await running.client.post(path + endpoint, json=query)
            assert response.status_code == 503, response.text
            assert response.json()["error"]["type"] == "BackendUnavailable"
            assert "embedding model is down" in response.json()["error"]["message"]

"""The stream router over HTTP (in process, through httpx's ASGI transport)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from omoide.api.app import create_app
from omoide.api.runtime import Service
from omoide.config import Settings
from tests.stream.harness import START, Parts, StreamScript

STREAM_OPTIONS: dict[str, Any] = {"stream_diary_every": 10, "stream_viewer_min_llm_comments": 1}


def event(index: int, **changes: Any) -> dict[str, Any]:
    body = {
        "viewer_id": f"v{index % 3}",
        "display_name": f"Fan {index % 3}",
        "text": f"I really love Minecraft building, part {index}",
        "time": (START + timedelta(seconds=index)).isoformat(),
        "platform": "twitch",
    }
    return body | changes


@dataclass
class Served:
    client: httpx.AsyncClient
    app: FastAPI

    @property
    def service(self) -> Service:
        service = self.app.state.service
        assert isinstance(service, Service)
        return service


@asynccontextmanager
async def client_for(omoide: Parts, tmp_path: Path) -> AsyncIterator[Served]:
    """A client of the service (whose lifespan runs the stream worker), with the test's
    characters, clock and scripted model, stream work on the model."""
    settings = Settings(
        data_dir=tmp_path / "app",
        embedder="hashing",
        llm="scripted",
        stream_llm="on",
        characters_dirs=omoide.settings.characters_dirs,
        **STREAM_OPTIONS,
    )
    app = create_app(
        settings, clock=omoide.clock, chat_model=omoide.chat_model, embedder=omoide.embedder
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50123))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield Served(client, app)


@pytest.mark.anyio
async def test_events_end_and_diary(
    omoide: Parts, cid: str, script: StreamScript, tmp_path: Path
) -> None:
    async with client_for(omoide, tmp_path) as served:
        client = served.client
        base = f"/v1/characters/{cid}"
        response = await client.post(
            f"{base}/streams/s1/events", json={"events": [event(i) for i in range(12)]}
        )
        assert response.status_code == 200, response.text
        counts = response.json()
        assert counts["received"] == 12 and counts["comment_count"] == 12
        assert counts["diary_entries_queued"] == 1 and counts["diary_entries_written"] == 0
        assert set(counts) >= {"stored", "skipped_low_signal", "diary_entries_written"}

        end = await client.post(f"{base}/streams/s1/end")
        assert end.status_code == 200, end.text
        body = end.json()
        assert body["diary"]["number"] == 2 and body["diary"]["reason"] == "end"
        assert body["diary"]["comment_count"] == 2

        diary = (await client.get(f"{base}/diary", params={"limit": 5})).json()["entries"]
        assert {entry["number"] for entry in diary} == {1, 2}
        assert (await client.post(f"{base}/streams/s1/end")).status_code == 409
        assert (await client.post(f"{base}/streams/none/end")).status_code == 404


@pytest.mark.anyio
async def test_a_bad_event_is_refused_with_its_index(
    omoide: Parts, cid: str, tmp_path: Path
) -> None:
    async with client_for(omoide, tmp_path) as served:
        client = served.client
        events = [event(i) for i in range(5)]
        events[3]["time"] = "2026-03-02T20:00:00"
        response = await client.post(
            f"/v1/characters/{cid}/streams/s1/events", json={"events": events}
        )
        assert response.status_code == 422
        assert "events[3].time" in response.json()["error"]["message"]
        diary = await client.get(f"/v1/characters/{cid}/diary")
        assert diary.json() == {"entries": []}
        missing = await client.post(
            "/v1/characters/nobody/streams/s1/events", json={"events": [event(1)]}
        )
        assert missing.status_code == 404


@pytest.mark.anyio
async def test_identity_review_over_http(
    omoide: Parts, cid: str, script: StreamScript, tmp_path: Path
) -> None:
    original = (await omoide.characters.load(cid)).profile
    script.identity_diff = {"likes": [*original.likes, "Minecraft 건축 방송"], "name": "X"}
    async with client_for(omoide, tmp_path) as served:
        client = served.client
        base = f"/v1/characters/{cid}"
        await client.post(
            f"{base}/streams/s1/events", json={"events": [event(i) for i in range(3)]}
        )
        end = (await client.post(f"{base}/streams/s1/end")).json()
        (outcome,) = end["identity"]
        assert outcome["status"] == "pending"
        assert outcome["refused"][0]["field"] == "name"

        pending = (await client.get(f"{base}/identity/pending")).json()["changes"]
        assert [change["id"] for change in pending] == [outcome["change_id"]]
        assert pending[0]["changes"][0]["after"][-1] == "Minecraft 건축 방송"
        approved = await client.post(f"{base}/identity/pending/{outcome['change_id']}/approve")
        assert approved.status_code == 200 and approved.json()["version"] == 1
        assert approved.json()["profile"]["likes"][-1] == "Minecraft 건축 방송"

        versions = (await client.get(f"{base}/identity/versions")).json()
        assert versions["current_version"] == 1
        assert [v["version"] for v in versions["versions"]] == [0, 1]
        one = (await client.get(f"{base}/identity/versions/1")).json()
        assert one["changes"][0]["field"] == "likes" and one["profile"]["name"] == original.name

        rolled = await client.post(f"{base}/identity/rollback", json={"version": 0})
        assert rolled.status_code == 200 and rolled.json()["version"] == 2
        assert rolled.json()["profile"] == original.model_dump(mode="json")
        assert (await client.get(f"{base}/identity/versions/9")).status_code == 404
        again = await client.post(f"{base}/identity/pending/{outcome['change_id']}/reject")
        assert again.status_code == 409
        negative = await client.post(f"{base}/identity/rollback", json={"version": -1})
        assert negative.status_code == 422
        await served.service.built.streams.drain()  # the ended stream's viewers are due
        summary = await client.get(f"{base}/viewers/v1/stream-summary")
        assert summary.status_code == 200 and summary.json()["method"] == "llm"

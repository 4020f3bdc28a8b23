"""Chat over server-sent events, against a real uvicorn server and a real fake model server."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from omoide.api.app import create_app
from omoide.clock import FixedClock
from omoide.embed.failing import FailingEmbedder
from omoide.embed.hashing import HashingEmbedder
from omoide.llm.scripted import ScriptedChatModel
from tests.api.harness import (
    NOW,
    free_port,
    live_server,
    make_settings,
    read_events,
    viewer_path,
)
from tests.llm.fake_servers import FakeChatServer, openai_stream, running_server

pytestmark = pytest.mark.anyio

TOKENS = ("[EMO", "TION:happy] ", "I remember", " you like", " League!")
STORE_TIMEOUT_SECONDS = 15.0


@dataclass
class Live:
    url: str
    model: FakeChatServer


@pytest.fixture(scope="module")
def model_server() -> Iterator[FakeChatServer]:
    with running_server() as server:
        yield server


@pytest.fixture
def model(model_server: FakeChatServer) -> Iterator[FakeChatServer]:
    model_server.reset()
    model_server.default_tokens = TOKENS
    yield model_server
    model_server.release()


def openai_settings(data_dir: Path, url: str) -> Any:
    return make_settings(
        data_dir,
        llm="openai",
        llm_url=url,
        llm_model="test",
        llm_importance=False,
        llm_extraction=False,
        llm_max_retries=0,
        llm_timeout_seconds=5,
    )


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, model_server: FakeChatServer) -> Iterator[Live]:
    settings = openai_settings(tmp_path_factory.mktemp("sse"), model_server.base_url)
    app = create_app(settings, clock=FixedClock(NOW), embedder=HashingEmbedder(256))
    with live_server(app) as url:
        yield Live(url, model_server)


@pytest.fixture
async def client(live: Live) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.url, timeout=20) as http:
        yield http


def chat(user: str, message: str, character: str = "haru") -> dict[str, str]:
    return {
        "character_id": character,
        "user_id": user,
        "user_name": "Minjun",
        "session_id": "stream-1",
        "message": message,
    }


async def talk(client: httpx.AsyncClient, body: dict[str, str]) -> list[dict[str, Any]]:
    async with client.stream("POST", "/v1/chat/stream", json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        assert response.headers["x-accel-buffering"] == "no"
        return await read_events(response)


async def stored_episode_ids(client: httpx.AsyncClient, user: str, wanted: str) -> set[str]:
    """Poll the export until episode ``wanted`` is stored (the queue drains in the background)."""
    with anyio.fail_after(STORE_TIMEOUT_SECONDS):
        while True:
            exported = (await client.get(viewer_path("haru", user) + "/export")).json()
            ids = {episode["episode_id"] for episode in exported["episodes"]}
            if wanted in ids:
                return ids
            await anyio.sleep(0.05)


def texts(events: Sequence[dict[str, Any]]) -> str:
    return "".join(event["content"] for event in events if event["type"] == "token")


async def test_tokens_stream_and_the_turn_is_remembered(
    client: httpx.AsyncClient, model: FakeChatServer, viewer: str
) -> None:
    message = "I love League of Legends so much, it is my favourite game!"
    events = await talk(client, chat(viewer, message))
    tokens = [event for event in events if event["type"] == "token"]
    assert len(tokens) >= 3
    assert texts(events).strip() == "I remember you like League!"
    assert all("EMOTION" not in token["content"] for token in tokens)
    done = events[-1]
    assert done["type"] == "done"
    assert done["emotion"] == "happy"
    assert 0.0 <= done["intimacy_level"] <= 1.0
    assert done["turn_id"]
    assert [event["type"] for event in events].count("done") == 1
    assert model.received[-1].body["messages"][-1] == {"role": "user", "content": message}
    await stored_episode_ids(client, viewer, done["turn_id"])
    found = await client.post(viewer_path("haru", viewer) + "/search", json={"query": message})
    assert found.json()["episodes"][0]["episode_id"] == done["turn_id"]
    assert found.json()["episodes"][0]["bot_message"] == "I remember you like League!"


async def test_a_pasted_text_of_a_hundred_thousand_characters_is_answered_and_remembered(
    client: httpx.AsyncClient, model: FakeChatServer, viewer: str
) -> None:
    paragraph = "Chapter notes: the lighthouse keeper counts ships at dawn. 등대지기는 배를 센다. "
    message = (paragraph * (100_000 // len(paragraph) + 1))[:100_000]
    events = await talk(client, chat(viewer, message))
    done = events[-1]
    assert done["type"] == "done"
    assert model.received[-1].body["messages"][-1] == {"role": "user", "content": message}
    await stored_episode_ids(client, viewer, done["turn_id"])
    exported = (await client.get(viewer_path("haru", viewer) + "/export")).json()
    (episode,) = [item for item in exported["episodes"] if item["episode_id"] == done["turn_id"]]
    assert episode["user_message"] == message


async def test_the_next_reply_uses_the_memory(
    client: httpx.AsyncClient, model: FakeChatServer, viewer: str
) -> None:
    first = await talk(client, chat(viewer, "I love League of Legends, I play it every night"))
    await stored_episode_ids(client, viewer, first[-1]["turn_id"])
    second = await talk(client, chat(viewer, "Do you remember which game I play, League?"))
    done = second[-1]
    assert done["type"] == "done"
    # the first turn reaches the prompt as itself, or as the profile fact said in its words
    assert first[-1]["turn_id"] in done["episode_ids"] or done["fact_ids"]
    assert done["memories_used"] >= 1
    system = model.received[-1].body["messages"][0]
    assert system["role"] == "system" and "League of Legends" in system["content"]


async def test_tokens_arrive_before_the_model_has_finished(
    client: httpx.AsyncClient, model: FakeChatServer, viewer: str
) -> None:
    model.enqueue(openai_stream(("[EMOTION:happy] ", "first", " second", " third"), hold_after=3))
    body = chat(viewer, "Tell me something, slowly")
    seen: list[dict[str, Any]] = []
    async with client.stream("POST", "/v1/chat/stream", json=body) as response:
        async for line in response.aiter_lines():
            if not line.startswith("data: "):
                continue
            seen.append(json.loads(line.removeprefix("data: ")))
            if seen[-1]["type"] == "token":
                model.release()  # the model is still held: this token came while it waited
    assert model.hold_outcomes == [True]
    assert texts(seen).strip() == "first second third"
    assert seen[-1]["type"] == "done"


async def test_a_model_that_breaks_off_ends_the_stream_with_an_error(
    client: httpx.AsyncClient, model: FakeChatServer, viewer: str
) -> None:
    model.enqueue(openai_stream(("Hello", " there", " friend"), abort_after=2))
    events = await talk(client, chat(viewer, "Say something"))
    assert events[-1]["type"] == "error"
    assert events[-1]["retryable"] is True
    assert "done" not in [event["type"] for event in events]
    await stored_episode_ids(client, viewer, events[-1]["turn_id"])
    exported = (await client.get(viewer_path("haru", viewer) + "/export")).json()
    (episode,) = exported["episodes"]
    assert episode["user_message"] == "Say something"
    assert episode["bot_message"] == "", "the half reply the viewer saw is not kept"
    assert episode["metadata"]["unanswered"] is True


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (chat("minjun", "hi", character="nobody"), 404),
        (chat("minjun", ""), 422),
        (chat("minjun", "x" * 100_001), 422),
        (chat("u" * 257, "hi"), 422),
        ({**chat("minjun", "hi"), "session_id": 7}, 422),
        ({**chat("minjun", "hi"), "user_name": ""}, 422),
        ({key: value for key, value in chat("minjun", "hi").items() if key != "user_id"}, 422),
    ],
)
async def test_bad_requests_fail_before_the_stream_starts(
    client: httpx.AsyncClient, model: FakeChatServer, body: dict[str, Any], status: int
) -> None:
    response = await client.post("/v1/chat/stream", json=body)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["message"]
    assert model.received == []


async def test_an_unreachable_model_ends_the_stream_with_a_retryable_error(
    tmp_path: Path,
) -> None:
    settings = openai_settings(tmp_path, f"http://127.0.0.1:{free_port()}")
    app = create_app(settings, clock=FixedClock(NOW), embedder=HashingEmbedder(256))
    with live_server(app) as url:
        async with httpx.AsyncClient(base_url=url, timeout=20) as client:
            events = await talk(client, chat("minjun", "Are you there?"))
            assert [event["type"] for event in events] == ["error"]
            assert events[0]["retryable"] is True
            assert events[0]["message"]
            assert await stored_episode_ids(client, "minjun", events[0]["turn_id"])
            response = await client.get("/health")
            health = response.json()
            assert health["queue"] == {"pending": 0, "failed": 0, "error": None}
            assert response.status_code == 200 and health["status"] == "degraded"
            assert health["llm"]["ok"] is False and health["llm"]["error"]
            assert (await client.get("/v1/metrics")).json()["chat.turns_queued"] == 1


async def test_the_reply_comes_even_when_memory_retrieval_fails(tmp_path: Path) -> None:
    embedder = FailingEmbedder()
    model = ScriptedChatModel(default_reply="[EMOTION:calm] I'm here with you.")
    app = create_app(
        make_settings(tmp_path), clock=FixedClock(NOW), embedder=embedder, chat_model=model
    )
    with live_server(app) as url:
        async with httpx.AsyncClient(base_url=url, timeout=20) as client:
            first = await talk(client, chat("minjun", "I love League of Legends so much"))
            await stored_episode_ids(client, "minjun", first[-1]["turn_id"])
            embedder.queries_down = True
            events = await talk(client, chat("minjun", "Do you remember my favourite game?"))
            assert texts(events).strip() == "I'm here with you."
            done = events[-1]
            assert done["type"] == "done" and done["emotion"] == "calm"
            assert done["memories_used"] == 0
            metrics = (await client.get("/v1/metrics")).json()
            assert metrics["chat.recall_failures"] == 1
            await stored_episode_ids(client, "minjun", done["turn_id"])

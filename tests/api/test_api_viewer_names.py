"""Viewers by name: the names chat, turns and stream comments give are kept (latest and
history), listed with the viewers, searched ignoring case, counted, exported and forgotten."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from tests.api.harness import NOW, Api, viewer_path

pytestmark = pytest.mark.anyio
USERS = "/v1/characters/haru/users"
STORE_TIMEOUT_SECONDS = 30.0


async def turn(api: Api, user: str, text: str, name: str | None, time: str) -> None:
    body = {"user_message": text, "force_store": True, "timestamp": time, "user_name": name}
    response = await api.client.post(viewer_path("haru", user) + "/turns", json=body)
    assert response.status_code == 200, response.text


async def listed(api: Api, **params: Any) -> dict[str, Any]:
    response = await api.client.get(USERS, params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def names_of(api: Api, user: str) -> dict[str, Any]:
    response = await api.client.get(viewer_path("haru", user) + "/names")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_the_latest_name_is_shown_with_its_history(api: Api, viewer: str) -> None:
    await turn(api, viewer, "hello there", "Satou", "2026-04-01T00:00:00Z")
    await turn(api, viewer, "I renamed myself", "佐藤", "2026-04-02T00:00:00Z")
    await turn(api, viewer, "an old message", "Satou", "2026-03-01T00:00:00Z")

    (user,) = (await listed(api, search=viewer))["users"]
    assert user["display_name"] == "佐藤" and user["user_id"] == viewer
    names = await names_of(api, viewer)
    assert names["display_name"] == "佐藤"
    assert [(n["name"], n["first_seen_at"], n["last_seen_at"]) for n in names["names"]] == [
        ("佐藤", "2026-04-02T00:00:00Z", "2026-04-02T00:00:00Z"),
        ("Satou", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"),
    ]
    exported = (await api.client.get(viewer_path("haru", viewer) + "/export")).json()
    assert [n["name"] for n in exported["display_names"]] == ["佐藤", "Satou"]


async def test_viewers_are_found_by_name_in_any_case(api: Api, viewer: str) -> None:
    name = f"Mo{viewer[-6:]}"
    await turn(api, viewer, "hi", name, "2026-04-01T00:00:00Z")
    for search in (name, name.upper(), name.lower()[1:]):
        found = await listed(api, search=search)
        assert [u["user_id"] for u in found["users"]] == [viewer], search
        assert found["total"] == 1


async def test_the_total_counts_every_page(api: Api, viewer: str) -> None:
    for index in range(7):
        await turn(api, f"{viewer}-{index}", "hi", None, f"2026-04-0{index + 1}T00:00:00Z")
    page = await listed(api, search=viewer, limit=3)
    assert len(page["users"]) == 3 and page["total"] == 7
    assert all(user["display_name"] is None for user in page["users"])


async def test_names_come_from_chat_and_stream_comments(api: Api, viewer: str) -> None:
    chat = {
        "character_id": "haru",
        "user_id": viewer,
        "user_name": "민준",
        "session_id": "s1",
        "message": "나 롤 게임 엄청 좋아해요!",
    }
    async with api.client.stream("POST", "/v1/chat/stream", json=chat) as response:
        assert response.status_code == 200
        await response.aread()
    with anyio.fail_after(STORE_TIMEOUT_SECONDS):
        while not (await names_of(api, viewer))["names"]:
            await anyio.sleep(0.05)
    assert (await names_of(api, viewer))["display_name"] == "민준"

    event = {
        "viewer_id": viewer,
        "display_name": "MinjunLive",
        "text": "오늘 방송 너무 재밌어요! 롤 하는 거 보고 싶어요",
        "time": NOW.isoformat(),
        "platform": "twitch",
        "reply": "고마워요!",
    }
    stream = "/v1/characters/haru/streams/night-names/events"
    response = await api.client.post(stream, json={"events": [event]})
    assert response.status_code == 200, response.text
    assert (await names_of(api, viewer))["display_name"] == "MinjunLive"
    assert {n["name"] for n in (await names_of(api, viewer))["names"]} == {"민준", "MinjunLive"}


async def test_a_viewer_id_given_as_the_name_is_not_kept_as_a_name(api: Api, viewer: str) -> None:
    await turn(api, viewer, "hi", viewer, "2026-04-01T00:00:00Z")
    assert (await names_of(api, viewer)) == {
        "character_id": "haru",
        "user_id": viewer,
        "display_name": None,
        "names": [],
    }


async def test_forgetting_the_viewer_forgets_the_names(api: Api, viewer: str) -> None:
    await turn(api, viewer, "hi", "Zorblax", "2026-04-01T00:00:00Z")
    assert (await api.client.delete(viewer_path("haru", viewer))).status_code == 200
    assert (await names_of(api, viewer))["names"] == []
    assert (await listed(api, search="zorblax"))["users"] == []

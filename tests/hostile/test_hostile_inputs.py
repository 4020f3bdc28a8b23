"""Hostile input at the HTTP edge: refused with a 4xx, never a 5xx, never half-written.

Each case is one an attacker found (issue 15); the rule each follows is written in
:mod:`omoide.text_rules`. Every id the service accepts must be reachable by every route.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omoide.api.edge import MAX_BODY_BYTES
from tests.api.harness import NOW, Api, make_settings, running_api, viewer_path

pytestmark = pytest.mark.anyio

TRICKY_IDS = [
    "a/b", "../x", "..", ".", "a\\b", "\ufffd", "a\x01b", "tab\there", "nul\x00", "x" * 257,
    "", "  ", "a%2Fb", "a?b", "a#b", "ü-viewer", "name with spaces", "😀", "a%b", "twitch:민준",
    " padded ", "a;b", "a+b", "\u202eevil",
]  # fmt: skip
BAD_TEXT = ["nul \x00 byte", "escape \x1b[31m", "bell \x07", "c1 \x85 control", "lone \ud800"]
MOMENTS = ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00Z"]


@pytest.fixture(scope="module")
async def api(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Api]:
    settings = make_settings(tmp_path_factory.mktemp("hostile") / "data")
    async with running_api(settings) as running:
        yield running


@pytest.fixture
def viewer() -> str:
    return f"viewer-{uuid.uuid4().hex[:10]}"


def raw_json(value: object) -> dict[str, Any]:
    """Keyword arguments posting ``value`` as JSON even with lone surrogates (escaped)."""
    return {"content": json.dumps(value), "headers": {"content-type": "application/json"}}


def path_of(user_id: str, character: str = "haru") -> str:
    return viewer_path(character, quote(user_id, safe=""))


def stream_event(
    viewer_id: str, text: str = "I love building castles in Minecraft"
) -> dict[str, Any]:
    return {"viewer_id": viewer_id, "text": text, "time": NOW.isoformat()}


async def export(api: Api, user_id: str) -> dict[str, Any]:
    response = await api.client.get(path_of(user_id) + "/export")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def assert_reachable(api: Api, user_id: str) -> None:
    """Every viewer route answers for ``user_id``, and the viewer list names it."""
    assert (await export(api, user_id))["episodes"], f"{user_id!r} has nothing stored"
    for route in ("/facts", "/episodes", "/emotions"):
        response = await api.client.get(path_of(user_id) + route)
        assert response.status_code == 200, (user_id, route, response.text)
    search = {"search": user_id} if user_id.strip() else {}
    listed = await api.client.get("/v1/characters/haru/users", params=search | {"limit": 500})
    assert user_id in {user["user_id"] for user in listed.json()["users"]}
    forgotten = await api.client.delete(path_of(user_id))
    assert forgotten.status_code == 200 and forgotten.json()["episodes"] >= 1


@pytest.mark.parametrize("user_id", TRICKY_IDS)
async def test_an_id_accepted_by_chat_is_reachable_by_every_route(api: Api, user_id: str) -> None:
    body = {
        "character_id": "haru",
        "user_id": user_id,
        "user_name": "Mo",
        "session_id": "s1",
        "message": "I love building castles in Minecraft!",
    }
    response = await api.client.post("/v1/chat/stream", **raw_json(body))
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        await api.service.built.drainer.drain_all()  # the queued turn, stored now
        await assert_reachable(api, user_id)


async def comment_then_reach(api: Api, user_id: str) -> None:
    """A stream comment by ``user_id`` is refused (422), or reachable by every route."""
    stream = f"s-{uuid.uuid4().hex[:8]}"
    response = await api.client.post(
        f"/v1/characters/haru/streams/{stream}/events",
        **raw_json({"events": [stream_event(user_id, f"I love castles, {stream}")]}),
    )
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200 and response.json()["stored"]:
        await assert_reachable(api, user_id)


@pytest.mark.parametrize("user_id", TRICKY_IDS)
async def test_an_id_accepted_by_stream_events_is_reachable_by_every_route(
    api: Api, user_id: str
) -> None:
    await comment_then_reach(api, user_id)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(user_id=st.text(st.characters(codec="utf-8"), min_size=1, max_size=12))
async def test_any_id_stream_events_accept_is_reachable(api: Api, user_id: str) -> None:
    await comment_then_reach(api, user_id)


@pytest.mark.parametrize("user_id", TRICKY_IDS)
async def test_an_id_accepted_by_a_path_is_reachable_by_every_route(api: Api, user_id: str) -> None:
    body = {"user_message": "I love building castles in Minecraft!", "force_store": True}
    response = await api.client.post(path_of(user_id) + "/turns", json=body)
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.text
    if response.status_code == 200:
        await assert_reachable(api, user_id)


@pytest.mark.parametrize("escape", ["%FF", "%FE", "%C3%28", "%ED%A0%80"])
async def test_an_undecodable_path_or_query_is_400(api: Api, escape: str) -> None:
    for url in (
        f"/v1/characters/haru/users/{escape}/export",
        f"/v1/characters/haru/users?search={escape}",
    ):
        response = await api.client.get(url)
        assert response.status_code == 400, (url, response.text)
        assert response.json()["error"]["type"] == "BadRequest"


async def test_the_replacement_character_is_no_viewer(api: Api) -> None:
    response = await api.client.post(
        "/v1/characters/haru/users/%EF%BF%BD/facts",
        json={"text": "likes cats", "category": "preference"},
    )
    assert response.status_code == 422


def text_fields(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(route, body) pairs that put ``text`` in every free-text field the API takes."""
    turn = {"user_message": "I love Minecraft", "force_store": True}
    return [
        ("/turns", {**turn, "user_message": text}),
        ("/turns", {**turn, "bot_message": text}),
        ("/turns", {**turn, "emotion": text}),
        ("/turns", {**turn, "topics": [text]}),
        ("/turns", {**turn, "metadata": {"note": text}}),
        ("/turns", {**turn, "metadata": {text: "value"}}),
        ("/turns", {**turn, "user_name": text}),
        ("/turns/batch", {"turns": [turn, {**turn, "user_message": text}]}),
        ("/facts", {"text": text, "category": "preference"}),
        ("/search", {"query": text}),
        ("/context", {"query": text}),
    ]


@pytest.mark.parametrize("text", BAD_TEXT)
async def test_control_characters_and_lone_surrogates_are_refused_everywhere(
    api: Api, viewer: str, text: str
) -> None:
    for route, body in text_fields(text):
        response = await api.client.post(path_of(viewer) + route, **raw_json(body))
        assert response.status_code == 422, (route, body, response.text)
    chat = {"character_id": "haru", "user_id": viewer, "user_name": "Mo", "session_id": "s"}
    for field, value in (("message", text), ("user_name", text), ("session_id", text)):
        response = await api.client.post("/v1/chat/stream", **raw_json(chat | {field: value}))
        assert response.status_code == 422, (field, response.text)
    exported = await export(api, viewer)
    assert exported["episodes"] == [] and exported["facts"] == []


@pytest.mark.parametrize("text", BAD_TEXT)
@pytest.mark.parametrize("field", ["text", "display_name", "reply", "platform", "viewer_id"])
async def test_a_stream_batch_with_one_bad_event_stores_nothing(
    api: Api, viewer: str, text: str, field: str
) -> None:
    stream = f"s-{uuid.uuid4().hex[:8]}"
    events_path = f"/v1/characters/haru/streams/{stream}/events"
    good = stream_event(viewer)
    bad = stream_event(viewer, "a second comment about castles") | {field: text}
    response = await api.client.post(events_path, **raw_json({"events": [good, bad]}))
    assert response.status_code == 422, response.text
    assert "events[1]" in response.json()["error"]["message"]
    after = await api.client.post(events_path, json={"events": [stream_event("other-viewer")]})
    assert after.json()["comment_count"] == 1, "the first event of the refused batch was kept"
    assert (await export(api, viewer))["episodes"] == []


@pytest.mark.parametrize("moment", [*MOMENTS, "1969-12-31T23:59:59Z", "2200-01-01T00:00:00Z"])
async def test_times_outside_the_sane_range_are_422(api: Api, viewer: str, moment: str) -> None:
    base = path_of(viewer)
    event = stream_event(viewer) | {"time": moment}
    posts: list[tuple[str, dict[str, Any]]] = [
        (base + "/turns", {"user_message": "I love Minecraft", "timestamp": moment}),
        (base + "/search", {"query": "Minecraft", "now": moment}),
        (base + "/context", {"query": "Minecraft", "now": moment}),
        ("/v1/maintenance/decay", {"character_id": "haru", "now": moment}),
        (f"/v1/characters/haru/streams/s-{viewer}/events", {"events": [event]}),
    ]
    for url, body in posts:
        response = await api.client.post(url, json=body)
        assert response.status_code == 422, (url, response.text)
    emotions = await api.client.get(base + "/emotions", params={"now": moment})
    assert emotions.status_code == 422, emotions.text


async def test_a_time_is_a_string_in_turns_and_stream_events_alike(api: Api, viewer: str) -> None:
    seconds = (NOW - timedelta(hours=1)).timestamp()
    turn = {"user_message": "I love Minecraft", "timestamp": seconds}
    assert (await api.client.post(path_of(viewer) + "/turns", json=turn)).status_code == 422
    event = stream_event(viewer) | {"time": seconds}
    response = await api.client.post(
        f"/v1/characters/haru/streams/s-{viewer}/events", json={"events": [event]}
    )
    assert response.status_code == 422, response.text


@pytest.mark.parametrize("offset", [2**63, 2**63 - 1, 2**64, 10**30])
async def test_huge_offsets_are_422(api: Api, viewer: str, offset: int) -> None:
    for url in (
        "/v1/characters/haru/users",
        path_of(viewer) + "/episodes",
        "/v1/characters/haru/diary",
    ):
        response = await api.client.get(url, params={"offset": offset})
        assert response.status_code == 422, (url, response.text)


@pytest.mark.parametrize(
    "metadata",
    [
        {"note": "x" * 10_000_000},
        {f"k{index}": "v" for index in range(65)},
        {"k": "x" * 10_000, "l": "y" * 10_000},
        {"nested": {"a": {"b": 1}}},
        {"list": [1, 2]},
    ],
)
async def test_metadata_is_bounded(api: Api, viewer: str, metadata: dict[str, Any]) -> None:
    body = {"user_message": "I love Minecraft", "metadata": metadata}
    response = await api.client.post(path_of(viewer) + "/turns", json=body)
    assert response.status_code in (413, 422), response.text
    assert (await export(api, viewer))["episodes"] == []


async def test_refusals_are_json_errors_not_5xx(api: Api, viewer: str, tmp_path: Path) -> None:
    for body in (b"not json", b"", b"{", b"[]", b'{"user_message": 1}', b"\xff\xfe"):
        response = await api.client.post(
            path_of(viewer) + "/turns", content=body, headers={"content-type": "application/json"}
        )
        assert 400 <= response.status_code < 500, (body, response.text)
        assert response.json()["error"]["message"]


async def test_a_body_over_the_limit_is_413_declared_or_streamed(api: Api, viewer: str) -> None:
    body = b'{"user_message": "' + b"x" * (MAX_BODY_BYTES + 1) + b'"}'
    declared = await api.client.post(
        path_of(viewer) + "/turns", content=body, headers={"content-type": "application/json"}
    )
    assert declared.status_code == 413, declared.text

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(body), 1 << 20):
            yield body[start : start + (1 << 20)]

    streamed = await api.client.post(
        path_of(viewer) + "/turns", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413, streamed.text
    assert streamed.json()["error"]["type"] == "PayloadTooLarge"
    assert (await export(api, viewer))["episodes"] == []

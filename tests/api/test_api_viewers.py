"""Characters, viewers, episodes, emotions, export and forgetting a viewer."""

from __future__ import annotations

from typing import Any

import pytest

from omoide.domain import Scope, TurnInput
from tests.api.harness import Api, viewer_path

pytestmark = pytest.mark.anyio


async def remember(api: Api, user: str, text: str, **fields: Any) -> str:
    body = {"user_message": text, "force_store": True, **fields}
    response = await api.client.post(viewer_path("haru", user) + "/turns", json=body)
    assert response.status_code == 200, response.text
    episode_id: str = response.json()["episode_id"]
    return episode_id


async def export(api: Api, user: str) -> dict[str, Any]:
    response = await api.client.get(viewer_path("haru", user) + "/export")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_characters_lists_every_available_character(api: Api) -> None:
    response = await api.client.get("/v1/characters")
    assert response.status_code == 200
    assert {"haru", "ash"} <= set(response.json()["characters"])


async def test_viewers_are_listed_with_counts_search_and_paging(api: Api, viewer: str) -> None:
    await remember(api, viewer + "-a", "I love League of Legends", timestamp="2026-04-01T00:00:00Z")
    await remember(api, viewer + "-a", "My cat is called Nabi", timestamp="2026-04-02T00:00:00Z")
    await remember(api, viewer + "-b", "I play the piano", timestamp="2026-04-03T00:00:00Z")
    response = await api.client.get("/v1/characters/haru/users", params={"search": viewer})
    assert response.status_code == 200
    users = {user["user_id"]: user for user in response.json()["users"]}
    assert set(users) == {viewer + "-a", viewer + "-b"}
    assert users[viewer + "-a"]["episode_count"] == 2
    assert users[viewer + "-a"]["last_seen_at"] == "2026-04-02T00:00:00Z"
    page = await api.client.get(
        "/v1/characters/haru/users", params={"search": viewer, "limit": 1, "offset": 1}
    )
    assert len(page.json()["users"]) == 1
    assert (
        await api.client.get("/v1/characters/haru/users", params={"limit": 0})
    ).status_code == 422
    assert (await api.client.get("/v1/characters/nobody/users")).status_code == 404


async def test_episodes_are_listed_newest_first_with_paging(api: Api, viewer: str) -> None:
    ids = [
        await remember(api, viewer, f"memory number {day}", timestamp=f"2026-04-0{day}T09:00:00Z")
        for day in range(1, 6)
    ]
    path = viewer_path("haru", viewer) + "/episodes"
    first = (await api.client.get(path, params={"limit": 2})).json()
    assert first["total"] == 5
    assert [episode["episode_id"] for episode in first["episodes"]] == ids[::-1][:2]
    rest = (await api.client.get(path, params={"limit": 10, "offset": 2})).json()
    assert [episode["episode_id"] for episode in rest["episodes"]] == ids[::-1][2:]
    assert (await api.client.get(path, params={"offset": -1})).status_code == 422


async def test_deleting_an_episode(api: Api, viewer: str) -> None:
    kept = await remember(api, viewer, "I love League of Legends")
    gone = await remember(api, viewer, "My password hint is my cat's name")
    response = await api.client.delete(viewer_path("haru", viewer) + f"/episodes/{gone}")
    assert response.status_code == 200
    assert response.json()["memory_id"] == gone
    assert response.json()["kind"] == "episode"
    exported = await export(api, viewer)
    assert [episode["episode_id"] for episode in exported["episodes"]] == [kept]
    assert "password" not in str(exported)
    again = await api.client.delete(viewer_path("haru", viewer) + f"/episodes/{gone}")
    assert again.status_code == 404


async def test_an_episode_of_another_viewer_is_404_and_untouched(api: Api, viewer: str) -> None:
    owner = viewer + "-owner"
    episode = await remember(api, owner, "I love League of Legends")
    response = await api.client.delete(viewer_path("haru", viewer) + f"/episodes/{episode}")
    assert response.status_code == 404
    assert [item["episode_id"] for item in (await export(api, owner))["episodes"]] == [episode]


async def test_emotions_summary_and_records(api: Api, viewer: str) -> None:
    for day, emotion in ((26, "tired"), (27, "tired"), (28, "happy")):
        await remember(
            api,
            viewer,
            f"today was day {day}",
            timestamp=f"2026-04-{day}T12:00:00Z",
            emotion=emotion,
            emotion_intensity=0.9,
        )
    path = viewer_path("haru", viewer) + "/emotions"
    response = await api.client.get(path, params={"days": 7, "now": "2026-04-30T00:00:00+09:00"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["summary"]["dominant"] == "tired"
    assert body["summary"]["record_count"] == 3
    assert body["summary"]["counts"] == {"tired": 2, "happy": 1}
    assert [record["emotion"] for record in body["records"]] == ["tired", "tired", "happy"]
    short = (await api.client.get(path, params={"days": 1, "now": "2026-04-29T00:00:00Z"})).json()
    assert [record["emotion"] for record in short["records"]] == ["happy"]


async def test_emotions_query_parameters_are_checked(api: Api, viewer: str) -> None:
    path = viewer_path("haru", viewer) + "/emotions"
    naive = await api.client.get(path, params={"now": "2026-04-30T00:00:00"})
    assert naive.status_code == 422
    assert "now" in naive.json()["error"]["message"]
    garbled = await api.client.get(path, params={"now": "last tuesday"})
    assert garbled.status_code == 422
    assert (await api.client.get(path, params={"days": 0})).status_code == 422
    assert (await api.client.get(path, params={"days": "a week"})).status_code == 422
    # an unencoded '+' arrives as a space; the offset is still understood
    plus = await api.client.get(path + "?now=2026-04-30T00:00:00+09:00")
    assert plus.status_code == 200


async def test_export_holds_everything_including_superseded_facts(api: Api, viewer: str) -> None:
    episode = await remember(api, viewer, "I moved to Seoul", metadata={"source": "import"})
    added = await api.client.post(
        viewer_path("haru", viewer) + "/facts",
        json={"text": "lives in Busan", "category": "personal"},
    )
    fact_id = added.json()["fact_id"]
    await api.client.patch(
        viewer_path("haru", viewer) + f"/facts/{fact_id}", json={"text": "lives in Seoul"}
    )
    exported = await export(api, viewer)
    assert exported["character_id"] == "haru" and exported["user_id"] == viewer
    assert [item["episode_id"] for item in exported["episodes"]] == [episode]
    assert exported["episodes"][0]["metadata"] == {"source": "import"}
    assert {fact["text"] for fact in exported["facts"]} >= {"lives in Busan", "lives in Seoul"}
    assert len(exported["emotions"]) == 1


async def test_forgetting_a_viewer_removes_everything_and_only_theirs(
    api: Api, viewer: str
) -> None:
    other = viewer + "-other"
    await remember(api, viewer, "I love League of Legends")
    await api.client.post(
        viewer_path("haru", viewer) + "/facts", json={"text": "plays LoL", "category": "habit"}
    )
    kept = await remember(api, other, "I love League of Legends too")
    response = await api.client.delete(viewer_path("haru", viewer))
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["episodes"] >= 1 and report["facts"] >= 1 and report["emotions"] >= 1
    exported = await export(api, viewer)
    assert exported["episodes"] == [] and exported["facts"] == [] and exported["emotions"] == []
    assert all("League" not in str(tombstone) for tombstone in exported["tombstones"])
    assert [item["episode_id"] for item in (await export(api, other))["episodes"]] == [kept]
    assert (await api.client.delete(viewer_path("nobody", viewer))).status_code == 404


async def test_forgetting_also_forgets_chat_turns_still_queued(api: Api, viewer: str) -> None:
    service = api.service
    await service.worker.stop()
    try:
        turn = TurnInput(Scope("haru", viewer), "I love League of Legends", "Me too!")
        (queued,) = await service.built.queue.put([turn])
        assert (await service.built.queue.counts())["pending"] >= 1
        assert [t["turn_id"] for t in (await export(api, viewer))["queued_turns"]] == [
            queued.turn_id
        ]
        response = await api.client.delete(viewer_path("haru", viewer))
        assert response.status_code == 200
        assert response.json()["queued_turns"] == 1
        assert (await service.built.queue.counts())["pending"] == 0
    finally:
        service.worker.start()
    await service.built.drainer.drain_all()
    exported = await export(api, viewer)
    assert exported["episodes"] == [] and exported["emotions"] == []
    assert exported["queued_turns"] == []


async def test_chat_state_is_forgotten_too(api: Api, viewer: str) -> None:
    chat = {
        "character_id": "haru",
        "user_id": viewer,
        "user_name": "Minjun",
        "session_id": "s1",
        "message": "Hi Haru! I love League of Legends",
    }
    first = await api.client.post("/v1/chat/stream", json=chat)
    assert first.status_code == 200
    state = await api.service.built.states.load(Scope("haru", viewer))
    assert state is not None and state.turn_count >= 1
    assert (await api.client.delete(viewer_path("haru", viewer))).status_code == 200
    assert await api.service.built.states.load(Scope("haru", viewer)) is None

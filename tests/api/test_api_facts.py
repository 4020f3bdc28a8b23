"""Facts: list, add, correct (supersede), delete, and scope isolation of fact ids."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.harness import Api, viewer_path

pytestmark = pytest.mark.anyio


async def add_fact(api: Api, user: str, text: str, category: str = "preference") -> dict[str, Any]:
    response = await api.client.post(
        viewer_path("haru", user) + "/facts", json={"text": text, "category": category}
    )
    assert response.status_code == 201, response.text
    fact: dict[str, Any] = response.json()
    return fact


async def facts_of(api: Api, user: str, *, include_inactive: bool = False) -> list[dict[str, Any]]:
    response = await api.client.get(
        viewer_path("haru", user) + "/facts",
        params={"include_inactive": str(include_inactive).lower()},
    )
    assert response.status_code == 200, response.text
    facts: list[dict[str, Any]] = response.json()
    return facts


async def test_a_person_adds_a_fact(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("haru", viewer) + "/facts",
        json={"text": "likes spicy ramen", "category": "preference", "confidence": 0.7},
    )
    assert response.status_code == 201
    fact = response.json()
    assert fact["text"] == "likes spicy ramen"
    assert fact["confidence"] == 0.7
    assert fact["trust"] == "confirmed"
    assert fact["current"] is True
    assert [listed["fact_id"] for listed in await facts_of(api, viewer)] == [fact["fact_id"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"text": "", "category": "preference"}, "text"),
        ({"text": "   ", "category": "preference"}, "text"),
        ({"text": "x" * 501, "category": "preference"}, "text"),
        ({"text": "likes tea", "category": "hobby"}, "category"),
        ({"text": "likes tea"}, "category"),
        ({"text": "likes tea", "category": "preference", "confidence": 2}, "confidence"),
        ({"text": "likes tea", "category": "preference", "salience": "high"}, "salience"),
        ({"text": ["likes tea"], "category": "preference"}, "text"),
    ],
)
async def test_bad_facts_are_422(api: Api, viewer: str, body: dict[str, Any], field: str) -> None:
    response = await api.client.post(viewer_path("haru", viewer) + "/facts", json=body)
    assert response.status_code == 422, response.text
    assert field in response.json()["error"]["message"]
    assert await facts_of(api, viewer, include_inactive=True) == []


async def test_correcting_the_text_supersedes_the_old_version(api: Api, viewer: str) -> None:
    old = await add_fact(api, viewer, "lives in Busan", "personal")
    response = await api.client.patch(
        viewer_path("haru", viewer) + f"/facts/{old['fact_id']}", json={"text": "lives in Seoul"}
    )
    assert response.status_code == 200, response.text
    new = response.json()
    assert new["text"] == "lives in Seoul"
    assert new["fact_id"] != old["fact_id"]
    assert new["supersedes"] == old["fact_id"]
    assert [fact["fact_id"] for fact in await facts_of(api, viewer)] == [new["fact_id"]]
    history = {fact["fact_id"]: fact for fact in await facts_of(api, viewer, include_inactive=True)}
    assert history[old["fact_id"]]["current"] is False
    assert history[old["fact_id"]]["valid_to"] is not None
    stale = await api.client.patch(
        viewer_path("haru", viewer) + f"/facts/{old['fact_id']}", json={"text": "lives in Jeju"}
    )
    assert stale.status_code == 422


async def test_correcting_other_fields_keeps_the_id(api: Api, viewer: str) -> None:
    fact = await add_fact(api, viewer, "likes horror movies")
    response = await api.client.patch(
        viewer_path("haru", viewer) + f"/facts/{fact['fact_id']}",
        json={"confidence": 0.4, "category": "habit"},
    )
    assert response.status_code == 200
    assert response.json()["fact_id"] == fact["fact_id"]
    assert response.json()["confidence"] == 0.4
    assert response.json()["category"] == "habit"


@pytest.mark.parametrize(
    "body", [{}, {"confidence": 1.5}, {"category": "hobby"}, {"text": ""}, {"extra": 1}]
)
async def test_bad_corrections_are_422_and_change_nothing(
    api: Api, viewer: str, body: dict[str, Any]
) -> None:
    fact = await add_fact(api, viewer, "likes horror movies")
    response = await api.client.patch(
        viewer_path("haru", viewer) + f"/facts/{fact['fact_id']}", json=body
    )
    assert response.status_code == 422
    assert await facts_of(api, viewer) == [fact]


async def test_unknown_fact_id_is_404(api: Api, viewer: str) -> None:
    path = viewer_path("haru", viewer) + "/facts/no-such-fact"
    patched = await api.client.patch(path, json={"text": "lives in Seoul"})
    assert patched.status_code == 404
    assert patched.json()["error"]["type"] == "NotFound"
    assert (await api.client.delete(path)).status_code == 404


async def test_a_fact_of_another_viewer_is_404_and_untouched(api: Api, viewer: str) -> None:
    owner = viewer + "-owner"
    fact = await add_fact(api, owner, "is allergic to peanuts", "personal")
    other_path = viewer_path("haru", viewer) + f"/facts/{fact['fact_id']}"
    assert (await api.client.patch(other_path, json={"text": "hacked"})).status_code == 404
    assert (await api.client.delete(other_path)).status_code == 404
    ash_path = viewer_path("ash", owner) + f"/facts/{fact['fact_id']}"
    assert (await api.client.delete(ash_path)).status_code == 404
    assert await facts_of(api, owner) == [fact]
    assert await facts_of(api, viewer, include_inactive=True) == []


async def test_deleting_a_fact_leaves_a_tombstone_without_content(api: Api, viewer: str) -> None:
    fact = await add_fact(api, viewer, "secretly likes pineapple pizza")
    path = viewer_path("haru", viewer) + f"/facts/{fact['fact_id']}"
    response = await api.client.delete(path)
    assert response.status_code == 200
    tombstone = response.json()
    assert tombstone["memory_id"] == fact["fact_id"]
    assert tombstone["kind"] == "fact"
    assert "pineapple" not in str(tombstone)
    assert await facts_of(api, viewer, include_inactive=True) == []
    assert (await api.client.delete(path)).status_code == 404
    exported = (await api.client.get(viewer_path("haru", viewer) + "/export")).json()
    assert [entry["memory_id"] for entry in exported["tombstones"]] == [fact["fact_id"]]
    assert "pineapple" not in str(exported)


async def test_facts_of_unknown_character_are_404(api: Api, viewer: str) -> None:
    response = await api.client.get(viewer_path("nobody", viewer) + "/facts")
    assert response.status_code == 404

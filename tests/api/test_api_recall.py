"""POST /search and /context: ranked memories with components, and the prompt section."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.harness import Api, viewer_path

pytestmark = pytest.mark.anyio

COMPONENT_NAMES = {
    "relevance",
    "recency",
    "importance",
    "total",
    "raw_relevance",
    "raw_recency",
    "raw_importance",
    "neighbour_of",
    "associated",
}
HISTORY = [
    ("I love League of Legends, I play it every night", "2026-04-20T20:00:00Z"),
    ("My cat Nabi is sick and I am worried about her", "2026-04-25T20:00:00Z"),
    ("I started learning the piano last month", "2026-04-28T20:00:00Z"),
    ("My favourite food is kimchi stew", "2026-04-29T20:00:00Z"),
]


async def remember_history(api: Api, user: str) -> list[str]:
    turns = [
        {"user_message": text, "timestamp": moment, "force_store": True} for text, moment in HISTORY
    ]
    response = await api.client.post(
        viewer_path("haru", user) + "/turns/batch", json={"turns": turns}
    )
    assert response.status_code == 200, response.text
    return [outcome["episode_id"] for outcome in response.json()["turns"]]


async def search(api: Api, user: str, **body: Any) -> dict[str, Any]:
    response = await api.client.post(viewer_path("haru", user) + "/search", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_search_ranks_the_relevant_memory_first_with_components(
    api: Api, viewer: str
) -> None:
    ids = await remember_history(api, viewer)
    result = await search(api, viewer, query="how is your cat Nabi doing?")
    best = result["episodes"][0]
    assert best["episode_id"] == ids[1]
    for hit in [*result["episodes"], *result["facts"]]:
        assert set(hit["components"]) == COMPONENT_NAMES
        assert hit["score"] == hit["components"]["total"]
        assert all(0.0 <= hit["components"][name] <= 1.0 for name in ("relevance", "total"))
    scores = [hit["score"] for hit in result["episodes"]]
    assert scores == sorted(scores, reverse=True)


async def test_k_limits_both_lists(api: Api, viewer: str) -> None:
    await remember_history(api, viewer)
    await api.client.post(
        viewer_path("haru", viewer) + "/facts",
        json={"text": "has a cat named Nabi", "category": "personal"},
    )
    await api.client.post(
        viewer_path("haru", viewer) + "/facts",
        json={"text": "plays League of Legends", "category": "habit"},
    )
    wide = await search(api, viewer, query="cat Nabi League piano kimchi", k=10)
    assert len(wide["episodes"]) >= 2 and len(wide["facts"]) >= 2
    narrow = await search(api, viewer, query="cat Nabi League piano kimchi", k=1)
    assert len(narrow["episodes"]) == 1 and len(narrow["facts"]) == 1
    assert narrow["episodes"][0]["episode_id"] == wide["episodes"][0]["episode_id"]


async def test_search_sees_only_this_viewer(api: Api, viewer: str) -> None:
    await remember_history(api, viewer)
    result = await search(api, viewer + "-other", query="cat Nabi")
    assert result == {"episodes": [], "facts": []}


async def test_search_now_moves_recency(api: Api, viewer: str) -> None:
    await remember_history(api, viewer)
    soon = await search(api, viewer, query="League piano", now="2026-05-01T00:00:00Z")
    later = await search(api, viewer, query="League piano", now="2027-05-01T00:00:00+09:00")
    soon_recency = [hit["components"]["raw_recency"] for hit in soon["episodes"]]
    later_recency = [hit["components"]["raw_recency"] for hit in later["episodes"]]
    assert max(later_recency) < min(soon_recency)


async def test_search_reinforces_nothing(api: Api, viewer: str) -> None:
    await remember_history(api, viewer)
    await search(api, viewer, query="cat Nabi")
    exported = (await api.client.get(viewer_path("haru", viewer) + "/export")).json()
    assert all(episode["recall_count"] == 0 for episode in exported["episodes"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "x" * 8001}, "query"),
        ({"query": "cat", "k": 0}, "k"),
        ({"query": "cat", "k": 101}, "k"),
        ({"query": "cat", "k": "3"}, "k"),
        ({"query": "cat", "now": "2026-05-01 12:00"}, "now"),
        ({"query": 3}, "query"),
        ({"text": "cat"}, "query"),
    ],
)
async def test_bad_searches_are_422(
    api: Api, viewer: str, body: dict[str, Any], field: str
) -> None:
    response = await api.client.post(viewer_path("haru", viewer) + "/search", json=body)
    assert response.status_code == 422
    assert field in response.json()["error"]["message"]


async def test_search_for_unknown_character_is_404(api: Api, viewer: str) -> None:
    response = await api.client.post(viewer_path("nobody", viewer) + "/search", json={"query": "a"})
    assert response.status_code == 404


async def test_context_is_the_prompt_section_and_reinforces_what_it_used(
    api: Api, viewer: str
) -> None:
    ids = await remember_history(api, viewer)
    response = await api.client.post(
        viewer_path("haru", viewer) + "/context", json={"query": "is your cat Nabi better now?"}
    )
    assert response.status_code == 200, response.text
    context = response.json()
    assert context["text"].startswith("<memories>")
    assert "Nabi" in context["text"]
    # the Nabi turn is there as itself or as the profile fact said in its own words
    assert ids[1] in context["episode_ids"] or context["fact_ids"]
    assert context["searched"] is True
    assert 0 < context["tokens"] <= 300
    assert {episode["episode_id"] for episode in context["episodes"]} >= set(context["episode_ids"])
    exported = (await api.client.get(viewer_path("haru", viewer) + "/export")).json()
    recalls = {episode["episode_id"]: episode["recall_count"] for episode in exported["episodes"]}
    assert all(recalls[used] == 1 for used in context["episode_ids"])


async def test_context_respects_the_token_budget(api: Api, viewer: str) -> None:
    await remember_history(api, viewer)
    response = await api.client.post(
        viewer_path("haru", viewer) + "/context",
        json={"query": "cat Nabi", "token_budget": 0},
    )
    assert response.json()["text"] == ""
    assert response.json()["episode_ids"] == []
    bad = await api.client.post(
        viewer_path("haru", viewer) + "/context", json={"query": "cat", "token_budget": -1}
    )
    assert bad.status_code == 422
    assert "token_budget" in bad.json()["error"]["message"]

"""The viewer profile over HTTP: groups in reading order, steered by a message, scoped to
one viewer, and edited through the fact routes."""

from __future__ import annotations

from typing import Any

import pytest

from omoide.api.routes_profile import MAX_MESSAGE_CHARS
from omoide.memory.facets import FACET_LABELS, FACET_ORDER
from tests.api.harness import Api, viewer_path

pytestmark = pytest.mark.anyio

FACT_FIELDS = {
    "fact_id", "text", "category", "confidence", "salience", "confirmation_count", "weight",
    "relevance", "score", "recorded_at", "valid_from", "trust", "slot", "terms",
    "source_episode_ids",
}  # fmt: skip
LIKES = (
    ("롤을 좋아해요", 0.7),
    ("매운 라면을 좋아해요", 0.6),
    ("고양이를 좋아해요", 0.5),
    ("비 오는 날을 좋아해요", 0.3),
    ("재즈를 좋아해요", 0.2),
)


async def add_fact(
    api: Api, user: str, text: str, category: str = "preference", *, salience: float = 0.6
) -> dict[str, Any]:
    response = await api.client.post(
        viewer_path("haru", user) + "/facts",
        json={"text": text, "category": category, "salience": salience},
    )
    assert response.status_code == 201, response.text
    fact: dict[str, Any] = response.json()
    return fact


async def profile_of(
    api: Api, user: str, message: str | None = None, character: str = "haru"
) -> dict[str, Any]:
    params = {"message": message} if message is not None else None
    response = await api.client.get(viewer_path(character, user) + "/profile", params=params)
    assert response.status_code == 200, response.text
    profile: dict[str, Any] = response.json()
    return profile


def texts(profile: dict[str, Any]) -> list[str]:
    return [fact["text"] for group in profile["groups"] for fact in group["facts"]]


async def test_an_unknown_viewer_has_an_empty_profile(api: Api, viewer: str) -> None:
    for message in (None, "저녁 뭐 먹지?"):
        profile = await profile_of(api, viewer, message)
        assert profile == {
            "character_id": "haru",
            "user_id": viewer,
            "groups": [],
            "total_facts": 0,
            "shown": 0,
        }


async def test_groups_come_in_reading_order_with_their_facts_best_first(
    api: Api, viewer: str
) -> None:
    await add_fact(api, viewer, "간호사로 일해요", "personal", salience=0.8)
    await add_fact(api, viewer, "다음 달에 이사 가요", "goal", salience=0.7)
    for text, salience in LIKES[:2]:
        await add_fact(api, viewer, text, salience=salience)
    profile = await profile_of(api, viewer)
    facets = [group["facet"] for group in profile["groups"]]
    assert facets == ["identity", "likes", "plans"]
    assert facets == [facet.value for facet in FACET_ORDER if facet.value in facets]
    assert [group["label"] for group in profile["groups"]] == [
        FACET_LABELS[facet] for facet in FACET_ORDER if facet.value in facets
    ]
    likes = profile["groups"][1]["facts"]
    assert [fact["text"] for fact in likes] == ["롤을 좋아해요", "매운 라면을 좋아해요"]
    assert likes[0]["score"] > likes[1]["score"]
    assert set(likes[0]) == FACT_FIELDS
    first = likes[0]
    assert first["relevance"] == 0.0  # no message: chosen by weight alone
    assert first["weight"] == pytest.approx(0.7 * first["confidence"] * 0.7)
    assert profile["total_facts"] == profile["shown"] == 4


async def test_a_message_steers_the_profile(api: Api, viewer: str) -> None:
    for text, salience in LIKES:
        await add_fact(api, viewer, text, salience=salience)
    plain = await profile_of(api, viewer)
    assert texts(plain) == ["롤을 좋아해요", "매운 라면을 좋아해요", "고양이를 좋아해요"]
    steered = await profile_of(api, viewer, "요즘 재즈 들으면서 공부해요")
    jazz = next(fact for fact in steered["groups"][0]["facts"] if fact["text"] == "재즈를 좋아해요")
    assert jazz["relevance"] > 0.0
    assert jazz["score"] > jazz["weight"] / 2
    assert "고양이를 좋아해요" not in texts(steered)
    assert steered["total_facts"] == plain["total_facts"] == len(LIKES)
    assert steered["shown"] == plain["shown"] == 3


async def test_another_viewers_facts_never_appear(api: Api, viewer: str) -> None:
    other = viewer + "-other"
    await add_fact(api, other, "땅콩 알레르기가 있어요", "personal", salience=0.9)
    await add_fact(api, viewer, "매운 라면을 좋아해요")
    for message in (None, "땅콩 알레르기가 있어요"):
        profile = await profile_of(api, viewer, message)
        assert texts(profile) == ["매운 라면을 좋아해요"]
        assert profile["total_facts"] == 1
        assert profile["user_id"] == viewer
    assert texts(await profile_of(api, other, character="ash")) == []


async def test_a_correction_or_deletion_shows_at_once(api: Api, viewer: str) -> None:
    busan = await add_fact(api, viewer, "부산에 살아요", "personal")
    ramen = await add_fact(api, viewer, "매운 라면을 좋아해요")
    facts = viewer_path("haru", viewer) + "/facts"
    seoul = {"text": "서울에 살아요"}
    corrected = await api.client.patch(f"{facts}/{busan['fact_id']}", json=seoul)
    assert corrected.status_code == 200, corrected.text
    profile = await profile_of(api, viewer)
    assert texts(profile) == ["서울에 살아요", "매운 라면을 좋아해요"]
    assert profile["groups"][0]["facts"][0]["fact_id"] == corrected.json()["fact_id"]
    deleted = await api.client.delete(f"{facts}/{ramen['fact_id']}")
    assert deleted.status_code == 200, deleted.text
    profile = await profile_of(api, viewer)
    assert texts(profile) == ["서울에 살아요"]
    assert profile["total_facts"] == profile["shown"] == 1


async def test_a_message_too_long_is_422_and_an_unknown_character_404(
    api: Api, viewer: str
) -> None:
    path = viewer_path("haru", viewer) + "/profile"
    too_long = await api.client.get(path, params={"message": "가" * (MAX_MESSAGE_CHARS + 1)})
    assert too_long.status_code == 422, too_long.text
    assert "message" in too_long.json()["error"]["message"]
    longest = await api.client.get(path, params={"message": "가" * MAX_MESSAGE_CHARS})
    assert longest.status_code == 200, longest.text
    missing = await api.client.get(viewer_path("nobody", viewer) + "/profile")
    assert missing.status_code == 404

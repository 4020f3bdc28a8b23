"""POST /turns without an emotion: the viewer's feeling is read from their words, so the
emotion history, hard days and the prompt's mood line work for REST users too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.harness import Api, viewer_path

pytestmark = pytest.mark.anyio

HARD_DAYS = {
    "ko": [
        "요즘 야근 때문에 너무 지쳤어요",
        "집에 오면 아무도 없어서 외로워",
        "혼나서 속상해 ㅠㅠ",
    ],
    "ja": ["今日もバイトでくたくただよ", "一人暮らし、やっぱり寂しいな", "試験に落ちて落ち込んだ"],
    "zh": ["今天好累啊", "最近总是一个人，好孤独", "被老板骂了，心情很差"],
    "en": [
        "Work drained me again today",
        "I feel so lonely these days",
        "My cat is sick, so worried",
    ],
}


async def post_turn(api: Api, user: str, text: str, timestamp: str) -> dict[str, Any]:
    body = {"user_message": text, "bot_message": "I'm here for you.", "timestamp": timestamp}
    response = await api.client.post(viewer_path("haru", user) + "/turns", json=body)
    assert response.status_code == 200, response.text
    outcome: dict[str, Any] = response.json()
    return outcome


@pytest.mark.parametrize("language", sorted(HARD_DAYS))
async def test_three_hard_days_said_without_an_emotion_are_hard_days(
    api: Api, viewer: str, language: str
) -> None:
    for day, text in zip((26, 27, 28), HARD_DAYS[language], strict=True):
        await post_turn(api, viewer, text, f"2026-04-{day}T12:00:00Z")
    path = viewer_path("haru", viewer) + "/emotions"
    response = await api.client.get(path, params={"days": 7, "now": "2026-04-30T00:00:00Z"})
    assert response.status_code == 200, response.text
    summary = response.json()["summary"]
    assert summary["hard_days"] == ["2026-04-26", "2026-04-27", "2026-04-28"]
    assert summary["dominant"] not in {"neutral", "happy", None}
    context = await api.client.post(
        viewer_path("haru", viewer) + "/context",
        json={"query": HARD_DAYS[language][0], "now": "2026-04-29T12:00:00Z"},
    )
    assert context.status_code == 200, context.text
    assert "hard days: 04/26, 04/27, 04/28" in context.json()["text"]


async def test_a_tired_message_is_not_stored_as_happy(api: Api, viewer: str) -> None:
    await post_turn(api, viewer, "今天好累啊", "2026-04-20T12:00:00Z")
    exported = (await api.client.get(viewer_path("haru", viewer) + "/export")).json()
    (record,) = exported["emotions"]
    assert record["emotion"] == "tired"
    assert record["intensity"] > 0.5


async def test_a_given_emotion_is_kept_and_cheerful_days_are_not_hard(
    api: Api, viewer: str
) -> None:
    await post_turn(api, viewer, "I passed the exam, I'm so happy!", "2026-04-21T12:00:00Z")
    body = {
        "user_message": "너무 힘들고 외로워요",
        "timestamp": "2026-04-22T12:00:00Z",
        "emotion": "calm",
        "emotion_intensity": 0.2,
    }
    response = await api.client.post(viewer_path("haru", viewer) + "/turns", json=body)
    assert response.status_code == 200, response.text
    path = viewer_path("haru", viewer) + "/emotions"
    records = (await api.client.get(path, params={"days": 7, "now": "2026-04-23T00:00:00Z"})).json()
    assert [record["emotion"] for record in records["records"]] == ["happy", "calm"]
    assert records["summary"]["hard_days"] == []


async def test_topics_come_from_the_turn_itself(api: Api, viewer: str) -> None:
    await post_turn(api, viewer, "롤 랭겜 하다가 졌어요", "2026-04-24T12:00:00Z")
    weather = await post_turn(api, viewer, "오늘 날씨 진짜 좋네요", "2026-04-24T12:05:00Z")
    exported = (await api.client.get(viewer_path("haru", viewer) + "/export")).json()
    topics = {episode["episode_id"]: episode["topics"] for episode in exported["episodes"]}
    assert topics[weather["episode_id"]] == ["weather"]

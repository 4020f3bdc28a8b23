"""What the page is shown: viewers, facts and feelings over several days, two streams.

Everything goes in through the REST API, as an import would: turns (with emotions), facts
a person states, stream comments, then the stream ends (a diary entry, and an identity
change proposed by the scripted model).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final
from urllib.parse import quote

import httpx

from tests.web.harness import NOW

CHARACTER: Final = "haru"
OTHER_CHARACTER: Final = "ash"
XSS: Final = '<img src=x onerror="window.__xss=1">'
POLL_SECONDS: Final = 20.0


@dataclass(frozen=True, slots=True)
class Turn:
    message: str
    reply: str
    days_ago: float
    emotion: str
    intensity: float


MINJUN_TURNS: Final = (
    Turn(
        "I love playing League of Legends, my main is Ahri", "Ahri! Nice pick~", 6, "excited", 0.8
    ),
    Turn("I'm so tired after work today, my boss yelled at me", "Oh no, rest well…", 4, "sad", 0.9),
    Turn("Still exhausted, I could not sleep at all", "That sounds hard.", 4, "tired", 0.8),
    Turn("My name is Minjun and I live in Busan", "Nice to meet you, Minjun!", 3, "happy", 0.6),
    Turn("I want to reach Diamond rank this season", "You can do it!", 2, "excited", 0.7),
    Turn("I felt lonely all weekend, nobody called", "I'm here for you.", 1, "lonely", 0.9),
    Turn("Ramen at midnight again, my favourite habit", "Same here!", 0.5, "happy", 0.5),
)
YUKI_TURNS: Final = (
    Turn("私はアニメが大好きです、特に進撃の巨人", "いいね！", 5, "happy", 0.7),
    Turn("今日は仕事で疲れた", "おつかれさま…", 2, "tired", 0.6),
)
KOREAN_VIEWER: Final = "twitch:민준 (서울)"
KOREAN_TURNS: Final = (
    Turn("나 롤 게임 엄청 좋아해요! 요즘 매일 해요", "와, 진짜요?!", 2, "excited", 0.8),
    Turn("오늘 회사에서 너무 힘들었어요", "아이고… 고생했어요.", 1, "sad", 0.7),
)
FORGET_TURNS: Final = (
    Turn("I love Minecraft building, my castle is huge", "Show me!", 3, "excited", 0.7),
    Turn("I have a cat named Mochi", "Mochi! Cute!", 2, "happy", 0.6),
    Turn("My exam is next week and I'm nervous", "You'll do great.", 1, "nervous", 0.8),
)
MINJUN_FACTS: Final = (
    ("has a younger sister who plays Valorant", "personal"),
    ("streams with friends every Friday night", "habit"),
    ("gets anxious before ranked games", "emotion"),
)


def viewer_path(user_id: str, character: str = CHARACTER) -> str:
    return f"/v1/characters/{quote(character, safe='')}/users/{quote(user_id, safe='')}"


def store_turns(client: httpx.Client, user_id: str, turns: tuple[Turn, ...], **extra: Any) -> None:
    body = {
        "turns": [
            {
                "user_message": turn.message,
                "bot_message": turn.reply,
                "timestamp": (NOW - timedelta(days=turn.days_ago)).isoformat(),
                "emotion": turn.emotion,
                "emotion_intensity": turn.intensity,
                "force_store": True,
                "user_name": user_id,
                **extra,
            }
            for turn in turns
        ]
    }
    response = client.post(f"{viewer_path(user_id)}/turns/batch", json=body)
    response.raise_for_status()


def add_fact(client: httpx.Client, user_id: str, text: str, category: str) -> dict[str, Any]:
    response = client.post(
        f"{viewer_path(user_id)}/facts", json={"text": text, "category": category}
    )
    response.raise_for_status()
    result: dict[str, Any] = response.json()
    return result


def stream_events(
    viewer: str, name: str, texts: list[str], start: datetime
) -> list[dict[str, Any]]:
    return [
        {
            "viewer_id": viewer,
            "display_name": name,
            "text": text,
            "time": (start + timedelta(seconds=30 * index)).isoformat(),
            "platform": "twitch",
            "reply": "헤헤, 고마워요!" if index % 2 == 0 else None,
        }
        for index, text in enumerate(texts)
    ]


def run_stream(client: httpx.Client, stream_id: str, start: datetime) -> dict[str, Any]:
    """A short stream: a regular with signal-bearing comments, a lurker, then its end."""
    events = stream_events(
        "sora",
        "Sora",
        [
            "I really love Deadlock, the new hero is so fun",
            "My favourite snack is spicy ramen at 2am",
            "I'm a student and exams start tomorrow",
            "Thanks for the stream, it always cheers me up!",
        ],
        start,
    ) + stream_events("lurker", "Lurker", ["lol", "www"], start)
    path = f"/v1/characters/{CHARACTER}/streams/{stream_id}"
    client.post(f"{path}/events", json={"events": events}).raise_for_status()
    ended = client.post(f"{path}/end")
    ended.raise_for_status()
    result: dict[str, Any] = ended.json()
    return result


def _poll(client: httpx.Client, path: str, ready: Callable[[httpx.Response], bool]) -> Any:
    """GET ``path`` until ``ready`` says so (the stream worker runs in the background)."""
    deadline = time.monotonic() + POLL_SECONDS
    while True:
        response = client.get(path)
        if ready(response):
            return response.json()
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} did not become ready: {response.text}")
        time.sleep(0.1)


def wait_for_summary(client: httpx.Client, viewer: str) -> dict[str, Any]:
    """The viewer's rolling summary, once the stream worker has written it."""
    path = f"/v1/characters/{CHARACTER}/viewers/{viewer}/stream-summary"
    result: dict[str, Any] = _poll(client, path, lambda response: response.status_code == 200)
    return result


def wait_for_pending_change(client: httpx.Client) -> dict[str, Any]:
    """The identity change proposed after the last diary entry (by whoever wrote it: the
    closing request or the background worker)."""
    path = f"/v1/characters/{CHARACTER}/identity/pending"
    found = _poll(client, path, lambda response: bool(response.json()["changes"]))
    change: dict[str, Any] = found["changes"][0]
    return change


def seed_viewers(client: httpx.Client) -> None:
    store_turns(client, "minjun", MINJUN_TURNS, metadata={"source": "import"})
    for text, category in MINJUN_FACTS:
        add_fact(client, "minjun", text, category)
    store_turns(client, "yuki", YUKI_TURNS)
    store_turns(client, KOREAN_VIEWER, KOREAN_TURNS)
    store_turns(client, "forget-me", FORGET_TURNS)
    store_turns(client, "mallory", (Turn(f"I like {XSS} pictures", XSS, 1, "happy", 0.5),))
    add_fact(client, "mallory", f"likes {XSS}", "preference")
    response = client.post(
        f"{viewer_path('ash-viewer', OTHER_CHARACTER)}/turns",
        json={"user_message": "Ash, you are my favourite streamer", "force_store": True},
    )
    response.raise_for_status()


def seed_streams(client: httpx.Client) -> None:
    """Stream one ends with a change that is approved; stream two's change stays pending."""
    run_stream(client, "stream-1", NOW - timedelta(days=2))
    change = wait_for_pending_change(client)
    approve = f"/v1/characters/{CHARACTER}/identity/pending/{change['id']}/approve"
    client.post(approve).raise_for_status()
    run_stream(client, "stream-2", NOW - timedelta(days=1))
    wait_for_pending_change(client)
    wait_for_summary(client, "sora")

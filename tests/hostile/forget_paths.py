"""A marker word written through every path a viewer's words take, for the forget scans.

:func:`write_everywhere` sends one viewer's marker through REST turns (one of them under a
display name holding it), the chat route
(its reply quotes the viewer), a turn left in the queue, stream comments (stored as
episodes, logged, summarised by the scripted model into facts and a rolling summary that
quote the viewer), two diary entries that quote them (one written by the scripted
model, one structured) and the identity changes the scripted model proposes after its
diary entry, which quote them too (:func:`approve_identity` makes one a version). Other
viewers talk about :data:`KEPT` in the same streams, so a forget that deletes a whole
diary entry instead of redacting it is caught too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import anyio

from omoide.config import Settings
from omoide.domain import Scope, TurnInput
from omoide.embed.hashing import HashingEmbedder
from omoide.llm.base import ChatMessage
from omoide.llm.scripted import ScriptedChatModel
from omoide.stream.diary_prompt import DIARY_TASK
from omoide.stream.evolution import IDENTITY_TASK
from omoide.stream.viewer_prompt import VIEWER_BATCH_TASK
from omoide.wiring import Omoide
from tests.api.harness import NOW, Api

MARKER = "Zorblaxquux"
KEPT = "Minecraft"
CHARACTER = "haru"
VIEWER = "mo-7"
NAME = "Mo"
SCOPE = Scope(CHARACTER, VIEWER)
QUOTE = f"I adore {MARKER} plushies so much"
STREAM_OPTIONS: dict[str, object] = {
    "stream_diary_every": 6,
    "stream_viewer_min_llm_comments": 1,
    "stream_evolve_identity": True,
}
STORE_TIMEOUT_SECONDS = 30.0
EMBEDDER = HashingEmbedder(256)


def respond(messages: Sequence[ChatMessage]) -> str:
    """The scripted model: stream summaries and diary entries that quote the viewer, and
    chat replies that repeat what was said."""
    system = messages[0].content
    if system.startswith(VIEWER_BATCH_TASK):
        name = json.loads(messages[1].content)["viewer_name"]
        liked, said = (MARKER, QUOTE) if name == NAME else (KEPT, f"I love {KEPT}")
        fact = {
            "action": "add",
            "fact": f"adores {liked} plushies",
            "category": "preference",
            "confidence": 0.9,
            "importance": 0.7,
            "stated": True,
            "target": None,
        }
        return json.dumps({"facts": [fact], "summary": f'{name} said "{said}".'})
    if system.startswith(IDENTITY_TASK):
        return json.dumps(identity_diff(messages[1].content))
    if system.startswith(DIARY_TASK):
        if "Stream night-2," in messages[1].content:
            return "no diary tonight"  # twice unusable: the entry is a structured one
        entry = f'Tonight {NAME} told me "{QUOTE}", and everyone built things in {KEPT}.'
        return json.dumps({"entry": entry, "mood": "happy", "topics": [MARKER, KEPT]})
    said = messages[-1].content
    return f"You said {said!r}? I will remember that! [EMOTION:happy]"


def identity_diff(prompt: str) -> dict[str, object]:
    """A list item and a sentence of prose, each quoting the viewer."""
    definition = json.loads(prompt.split("\n", 1)[1].split("\n\nYour diary entry:")[0])
    return {
        "likes": [*definition["likes"], f"{MARKER} plushies, ever since {NAME} told me"],
        "speaking_style": f'{definition["speaking_style"]} Sometimes says "{QUOTE}".',
    }


def model() -> ScriptedChatModel:
    return ScriptedChatModel(responder=respond)


def events(stream_start: int, *, count: int) -> list[dict[str, str]]:
    """Comments alternating between the viewer (marker) and others (:data:`KEPT`)."""
    start = NOW - timedelta(days=2) + timedelta(minutes=stream_start)
    made = []
    for index in range(count):
        mine = index % 2 == 0
        made.append(
            {
                "viewer_id": VIEWER if mine else f"other-{index % 3}",
                "display_name": NAME if mine else f"Builder {index % 3}",
                "text": f"{QUOTE}, part {index}" if mine else f"I love {KEPT} building {index}",
                "time": (start + timedelta(seconds=index)).isoformat(),
                "platform": "twitch",
            }
        )
    return made


def with_stream_model(settings: Settings, **changes: object) -> Settings:
    """``settings`` with the stream options of these tests, stream work on the model."""
    return settings.model_copy(update=STREAM_OPTIONS | {"stream_llm": "on"} | changes)


async def stream_with_model(built: Omoide) -> None:
    """Stream comments summarised and written up in the diary by the scripted model
    (``built`` from :func:`with_stream_model` settings)."""
    from omoide.stream.events import events_from_json

    service = built.streams
    await service.ingest(CHARACTER, "night-1", events_from_json(events(0, count=6)))
    await service.drain()
    await service.end_stream(CHARACTER, "night-1", now=NOW - timedelta(days=1))


async def approve_identity(api: Api) -> list[dict[str, object]]:
    """Approve the first proposed identity change (it becomes a version); the pending."""
    path = f"/v1/characters/{CHARACTER}/identity/pending"
    pending = (await api.client.get(path)).json()["changes"]
    assert pending and MARKER in str(pending), "the scripted model proposed a change"
    approved = await api.client.post(f"{path}/{pending[0]['id']}/approve")
    assert approved.status_code == 200, approved.text
    return list(pending[1:])


async def write_through_api(api: Api) -> None:
    """REST turns, a chat exchange, and stream comments with a structured diary entry (the
    model fails to write it) and the identity change proposed after it."""
    client, path = api.client, f"/v1/characters/{CHARACTER}/users/{VIEWER}"
    turn = {
        "user_message": f"My cat is named {MARKER}",
        "bot_message": f"Hi {MARKER}!",
        "user_name": f"{MARKER} fan",
    }
    assert (await client.post(f"{path}/turns", json=turn)).status_code == 200
    batch = {"turns": [{"user_message": f"{MARKER} is my favourite word", "user_name": NAME}]}
    assert (await client.post(f"{path}/turns/batch", json=batch)).status_code == 200
    fact = {"text": f"owns {MARKER}", "category": "preference"}
    assert (await client.post(f"{path}/facts", json=fact)).status_code == 201
    chat = {
        "character_id": CHARACTER,
        "user_id": VIEWER,
        "user_name": NAME,
        "session_id": "night-2",
        "message": f"Did you know I collect {MARKER} cards?",
    }
    async with client.stream("POST", "/v1/chat/stream", json=chat) as response:
        assert response.status_code == 200
        await response.aread()
    await _stored(api, "collect")
    stream = f"/v1/characters/{CHARACTER}/streams/night-2"
    body = {"events": events(60, count=6)}
    assert (await client.post(f"{stream}/events", json=body)).status_code == 200
    assert (await client.post(f"{stream}/end")).status_code == 200


async def queue_a_turn(api: Api) -> None:
    """A chat turn accepted and not yet remembered (the queue's worker is stopped)."""
    await api.service.worker.stop()
    turn = TurnInput(SCOPE, f"Queued: {MARKER} forever", "Noted!", user_name=NAME)
    await api.service.built.queue.put([turn])


async def _stored(api: Api, word: str) -> None:
    """Wait until the chat turn holding ``word`` is remembered (the queue drains it)."""
    path = f"/v1/characters/{CHARACTER}/users/{VIEWER}/export"
    with anyio.fail_after(STORE_TIMEOUT_SECONDS):
        while not any(
            word in episode["user_message"]
            for episode in (await api.client.get(path)).json()["episodes"]
        ):
            await anyio.sleep(0.05)


def files_holding(root: Path, marker: str = MARKER) -> dict[str, int]:
    """Every file under ``root`` whose bytes hold ``marker`` (any case), with the count."""
    needle = marker.lower().encode()
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            count = path.read_bytes().lower().count(needle)
            if count:
                found[str(path.relative_to(root))] = count
    return found

"""Long and odd turns over HTTP: 100,000-character messages, the bot alone, future times."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from omoide.api.schemas import MAX_BATCH_CHARS, TurnBatchBody
from omoide.domain import MAX_MESSAGE_CHARS
from tests.api.harness import NOW, Api, viewer_path
from tests.api.test_api_turns import error_of, export
from tests.memory.long_texts import NEEDLE_WORD, mixed_language_text

pytestmark = pytest.mark.anyio

SERVER_TIME = NOW.isoformat()


async def post_turn(api: Api, viewer: str, **body: Any) -> Any:
    return await api.client.post(viewer_path("haru", viewer) + "/turns", json=body)


async def test_a_pasted_text_of_the_full_limit_is_stored_and_found(api: Api, viewer: str) -> None:
    pasted = mixed_language_text(MAX_MESSAGE_CHARS)
    reply = mixed_language_text(MAX_MESSAGE_CHARS, needle=False)
    response = await post_turn(api, viewer, user_message=pasted, bot_message=reply)
    assert response.status_code == 200, response.text
    assert response.json()["stored"] is True
    (episode,) = (await export(api, viewer))["episodes"]
    assert (episode["user_message"], episode["bot_message"]) == (pasted, reply)
    hits = await api.client.post(
        viewer_path("haru", viewer) + "/search", json={"query": NEEDLE_WORD}
    )
    assert [hit["episode_id"] for hit in hits.json()["episodes"]] == [episode["episode_id"]]
    context = await api.client.post(
        viewer_path("haru", viewer) + "/context", json={"query": NEEDLE_WORD, "token_budget": 300}
    )
    assert context.status_code == 200, context.text


@pytest.mark.parametrize("field", ["user_message", "bot_message"])
async def test_a_message_over_the_limit_is_422_naming_it(api: Api, viewer: str, field: str) -> None:
    body = {"user_message": "hi", field: "x" * (MAX_MESSAGE_CHARS + 1)}
    response = await post_turn(api, viewer, **body)
    assert response.status_code == 422, response.text
    message = error_of(response)["message"]
    assert field in message and "100000" in message


async def test_a_batch_over_its_character_limit_is_422_naming_it(api: Api, viewer: str) -> None:
    big = {"user_message": "y" * MAX_MESSAGE_CHARS, "bot_message": "z" * MAX_MESSAGE_CHARS}
    turns = [big] * (MAX_BATCH_CHARS // (2 * MAX_MESSAGE_CHARS) + 1)
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns/batch", json={"turns": turns}
    )
    assert response.status_code == 422, response.text
    assert f"{MAX_BATCH_CHARS:,}" in error_of(response)["message"]
    assert (await export(api, viewer))["episodes"] == []


def test_a_batch_at_its_character_limit_is_valid() -> None:
    half = MAX_MESSAGE_CHARS // 2
    turn = {"user_message": "네" * half, "bot_message": "はい" * (half // 2)}
    turns = [turn] * (MAX_BATCH_CHARS // (2 * half))
    body = TurnBatchBody.model_validate({"turns": turns})
    assert sum(item.characters for item in body.turns) == MAX_BATCH_CHARS


async def test_an_import_where_only_the_bot_spoke_is_stored(api: Api, viewer: str) -> None:
    greeting = "Welcome back! Did your sister's wedding in Busan go well?"
    response = await post_turn(api, viewer, user_message="", bot_message=greeting, force_store=True)
    assert response.status_code == 200, response.text
    (episode,) = (await export(api, viewer))["episodes"]
    assert (episode["user_message"], episode["bot_message"]) == ("", greeting)
    hits = await api.client.post(viewer_path("haru", viewer) + "/search", json={"query": "Busan"})
    assert [hit["episode_id"] for hit in hits.json()["episodes"]] == [episode["episode_id"]]
    unforced = await post_turn(api, viewer, user_message="", bot_message="Good night!")
    assert unforced.status_code == 200, unforced.text


@pytest.mark.parametrize("body", [{"user_message": ""}, {"user_message": " ", "bot_message": "\n"}])
async def test_a_turn_where_nobody_spoke_is_422(
    api: Api, viewer: str, body: dict[str, Any]
) -> None:
    response = await post_turn(api, viewer, **body)
    assert response.status_code == 422, response.text
    assert "must not both be empty" in error_of(response)["message"]


async def test_a_turn_dated_in_the_future_is_422_naming_the_server_time(
    api: Api, viewer: str
) -> None:
    later = (NOW + timedelta(minutes=6)).isoformat()
    response = await post_turn(api, viewer, user_message="I love cats", timestamp=later)
    assert response.status_code == 422, response.text
    message = error_of(response)["message"]
    assert SERVER_TIME in message and "timestamp" in message
    assert (await export(api, viewer))["episodes"] == []


async def test_a_turn_within_the_clock_tolerance_is_stored(api: Api, viewer: str) -> None:
    ahead = (NOW + timedelta(minutes=5)).isoformat()
    response = await post_turn(
        api, viewer, user_message="I love cats", timestamp=ahead, force_store=True
    )
    assert response.status_code == 200, response.text


async def test_a_batch_with_one_future_turn_names_it_and_stores_nothing(
    api: Api, viewer: str
) -> None:
    turns = [
        {"user_message": "I love cats", "timestamp": (NOW - timedelta(days=1)).isoformat()},
        {"user_message": "I love dogs", "timestamp": (NOW + timedelta(days=1)).isoformat()},
    ]
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns/batch", json={"turns": turns}
    )
    assert response.status_code == 422, response.text
    message = error_of(response)["message"]
    assert message.startswith("turns[1]: ") and SERVER_TIME in message
    assert (await export(api, viewer))["episodes"] == []

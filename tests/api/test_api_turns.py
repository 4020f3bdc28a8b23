"""POST /turns and /turns/batch: explicit remembering, validation, batch atomicity."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omoide.domain import MAX_MESSAGE_CHARS
from tests.api.harness import Api, viewer_path

pytestmark = pytest.mark.anyio

LIKES = "I love League of Legends so much, it is my favourite game!"


async def export(api: Api, user: str, character: str = "haru") -> dict[str, Any]:
    response = await api.client.get(viewer_path(character, user) + "/export")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}
    error: dict[str, Any] = body["error"]
    return error


async def test_a_turn_is_stored_and_its_metadata_comes_back(api: Api, viewer: str) -> None:
    metadata = {"source": "twitch", "message_id": "m-1842", "subscriber": True, "bits": 100}
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns",
        json={
            "user_message": LIKES,
            "bot_message": "Me too!",
            "timestamp": "2026-04-30T21:30:00+09:00",
            "emotion": "excited",
            "emotion_intensity": 0.8,
            "topics": ["games"],
            "metadata": metadata,
        },
    )
    assert response.status_code == 200, response.text
    outcome = response.json()
    assert outcome["stored"] is True
    assert outcome["episode_id"]
    assert 0.0 <= outcome["importance"] <= 1.0
    assert outcome["timestamp"] == "2026-04-30T12:30:00Z"
    (episode,) = (await export(api, viewer))["episodes"]
    assert episode["episode_id"] == outcome["episode_id"]
    assert episode["metadata"] == metadata
    assert episode["emotion"] == "excited"
    assert episode["topics"] == ["games"]
    hits = await api.client.post(viewer_path("haru", viewer) + "/search", json={"query": LIKES})
    (hit,) = hits.json()["episodes"]
    assert hit["metadata"] == metadata


async def test_a_slight_turn_is_not_kept_but_says_so(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns", json={"user_message": "ㅋㅋㅋ"}
    )
    assert response.status_code == 200
    assert response.json()["stored"] is False
    assert response.json()["episode_id"] is None
    assert (await export(api, viewer))["episodes"] == []


async def test_force_store_and_given_importance(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns",
        json={"user_message": "ㅋㅋㅋ", "force_store": True, "importance": 0.9},
    )
    assert response.json()["stored"] is True
    assert response.json()["importance"] == 0.9
    assert response.json()["scoring"] == "given"


async def test_unknown_character_is_404_and_nothing_is_stored(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("nobody", viewer) + "/turns", json={"user_message": LIKES}
    )
    assert response.status_code == 404
    error = error_of(response)
    assert error["type"] == "NotFound"
    assert "nobody" in error["message"]
    assert "/" not in error["message"].replace("'nobody'", "")  # no server paths leak
    viewers = await api.client.get("/v1/characters/haru/users", params={"search": viewer})
    assert viewers.json()["users"] == []


BAD_TURNS: list[tuple[dict[str, Any], str]] = [
    ({"user_message": ""}, "user_message"),
    ({"user_message": "   "}, "user_message"),
    ({"user_message": "x" * (MAX_MESSAGE_CHARS + 1)}, "user_message"),
    ({"user_message": "hi", "bot_message": "y" * (MAX_MESSAGE_CHARS + 1)}, "bot_message"),
    ({"user_message": "hi", "timestamp": "2026-05-01T12:00:00"}, "timestamp"),
    ({"user_message": "hi", "timestamp": "yesterday evening"}, "timestamp"),
    ({"user_message": "hi", "timestamp": 1714560000}, "timestamp"),
    ({"user_message": 5}, "user_message"),
    ({"user_message": "hi", "emotion_intensity": "0.5"}, "emotion_intensity"),
    ({"user_message": "hi", "emotion_intensity": 1.5}, "emotion_intensity"),
    ({"user_message": "hi", "force_store": "yes"}, "force_store"),
    ({"user_message": "hi", "importance": -0.1}, "importance"),
    ({"user_message": "hi", "topics": "games"}, "topics"),
    ({"user_message": "hi", "metadata": {"a": {"b": 1}}}, "metadata"),
    ({"user_message": "hi", "metadata": {"a": [1, 2]}}, "metadata"),
    ({"user_message": "hi", "metadata": ["a"]}, "metadata"),
    ({"user_message": "hi", "emotion": "   "}, "emotion"),
    ({"user_message": "hi", "surprise": 1}, "surprise"),
    ({}, "user_message"),
]


@pytest.mark.parametrize(("body", "field"), BAD_TURNS)
async def test_bad_turns_are_422_naming_the_field(
    api: Api, viewer: str, body: dict[str, Any], field: str
) -> None:
    response = await api.client.post(viewer_path("haru", viewer) + "/turns", json=body)
    assert response.status_code == 422, response.text
    error = error_of(response)
    assert error["type"] == "InvalidInput"
    assert field in error["message"]
    stored = await export(api, viewer)
    assert stored["episodes"] == [] and stored["emotions"] == []


async def test_naive_timestamp_message_explains_the_format(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns",
        json={"user_message": "hi", "timestamp": "2026-05-01T12:00:00"},
    )
    assert "timezone" in error_of(response)["message"]


async def test_body_that_is_not_json_is_422(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    assert error_of(response)["type"] == "InvalidInput"


@pytest.mark.parametrize("user", ["u" * 257, "%00nul"])
async def test_bad_viewer_ids_are_422(api: Api, user: str) -> None:
    response = await api.client.post(
        viewer_path("haru", user) + "/turns", json={"user_message": LIKES}
    )
    assert response.status_code == 422
    assert "user_id" in error_of(response)["message"]


async def test_batch_stores_every_turn_in_order(api: Api, viewer: str) -> None:
    turns = [
        {"user_message": f"{LIKES} ({index})", "timestamp": f"2026-04-2{index}T10:00:00Z"}
        for index in range(1, 4)
    ]
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns/batch", json={"turns": turns}
    )
    assert response.status_code == 200, response.text
    outcomes = response.json()["turns"]
    assert [outcome["timestamp"][:10] for outcome in outcomes] == [
        "2026-04-21",
        "2026-04-22",
        "2026-04-23",
    ]
    stored = {episode["episode_id"] for episode in (await export(api, viewer))["episodes"]}
    assert stored == {outcome["episode_id"] for outcome in outcomes}


@pytest.mark.parametrize(
    ("bad_turn", "reason"),
    [
        ({"user_message": "   "}, "turns[3]"),  # refused by the library, after the schema
        ({"user_message": "hi", "timestamp": "2026-05-01T12:00:00"}, "turns[3].timestamp"),
        ({"user_message": "hi", "metadata": {"nested": {"a": 1}}}, "turns[3].metadata"),
    ],
)
async def test_one_bad_turn_refuses_the_whole_batch(
    api: Api, viewer: str, bad_turn: dict[str, Any], reason: str
) -> None:
    good = [{"user_message": f"{LIKES} ({index})"} for index in range(3)]
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns/batch", json={"turns": [*good, bad_turn]}
    )
    assert response.status_code == 422, response.text
    assert reason in error_of(response)["message"]
    stored = await export(api, viewer)
    assert stored["episodes"] == [] and stored["emotions"] == [] and stored["facts"] == []


async def test_batch_size_is_limited(api: Api, viewer: str) -> None:
    turns = [{"user_message": "hi"}] * 1001
    response = await api.client.post(
        viewer_path("haru", viewer) + "/turns/batch", json={"turns": turns}
    )
    assert response.status_code == 422
    assert "1000" in error_of(response)["message"]
    empty = await api.client.post(viewer_path("haru", viewer) + "/turns/batch", json={"turns": []})
    assert empty.status_code == 422
    assert (await export(api, viewer))["emotions"] == []


async def test_batch_for_unknown_character_is_404(api: Api, viewer: str) -> None:
    response = await api.client.post(
        viewer_path("nobody", viewer) + "/turns/batch", json={"turns": [{"user_message": LIKES}]}
    )
    assert response.status_code == 404


label_characters = st.characters(exclude_categories=("Cs", "Cc"))
"""What a metadata key may hold (omoide.text_rules): no control characters at all."""
text_characters = st.one_of(label_characters, st.sampled_from("\t\n\r"))
metadata_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(text_characters, max_size=40),
)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    metadata=st.dictionaries(
        st.text(label_characters, min_size=1, max_size=20), metadata_values, max_size=6
    )
)
async def test_any_flat_metadata_comes_back_unchanged(api: Api, metadata: dict[str, Any]) -> None:
    user = f"meta-{uuid.uuid4().hex[:10]}"
    response = await api.client.post(
        viewer_path("haru", user) + "/turns",
        json={"user_message": LIKES, "metadata": metadata, "force_store": True},
    )
    assert response.status_code == 200, response.text
    (episode,) = (await export(api, user))["episodes"]
    assert episode["metadata"] == metadata
    hits = await api.client.post(viewer_path("haru", user) + "/search", json={"query": LIKES})
    assert [hit["metadata"] for hit in hits.json()["episodes"]] == [metadata]

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.character import (
    MAX_RECENT_TOPICS,
    CharacterProfile,
    CharacterState,
    InMemoryCharacterStateStore,
    initial_state,
    state_from_json,
    state_to_json,
)
from omoide.character.state_store import CharacterStateStore
from omoide.domain import Scope
from omoide.errors import InvalidInput

MOMENT = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)

states = st.builds(
    CharacterState,
    emotion=st.text(min_size=1, max_size=20).filter(str.strip),
    emotion_intensity=st.floats(min_value=0, max_value=1),
    intimacy=st.floats(min_value=0, max_value=1),
    recent_topics=st.lists(
        st.text(min_size=1, max_size=30).filter(str.strip), max_size=MAX_RECENT_TOPICS
    ).map(tuple),
    turn_count=st.integers(min_value=0, max_value=10**9),
    last_interaction_at=st.none()
    | st.datetimes(
        min_value=datetime(1971, 1, 1),
        max_value=datetime(2200, 1, 1),
        timezones=st.sampled_from([UTC, timezone(timedelta(hours=9))]),
    ),
)


@given(state=states)
def test_json_round_trip_is_exact(state: CharacterState) -> None:
    through_text = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(through_text) == state
    assert state_from_json(state_to_json(state)) == state


def test_last_interaction_is_normalised_to_utc() -> None:
    seoul = datetime(2026, 3, 3, 6, 0, tzinfo=timezone(timedelta(hours=9)))
    state = CharacterState("happy", last_interaction_at=seoul)
    assert state.last_interaction_at == MOMENT
    assert state.last_interaction_at is not None
    assert state.last_interaction_at.utcoffset() == timedelta(0)
    assert state_to_json(state)["last_interaction_at"] == "2026-03-02T21:00:00+00:00"


def test_initial_state_starts_at_the_default_emotion() -> None:
    profile = CharacterProfile(id="p", name="P", emotions=("calm", "happy"), default_emotion="calm")
    state = initial_state(profile)
    assert state == CharacterState("calm", 0.3, 0.0, (), 0, None)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"emotion": ""}, "emotion"),
        ({"emotion_intensity": 1.5}, "emotion_intensity"),
        ({"intimacy": -0.1}, "intimacy"),
        ({"turn_count": -1}, "turn_count"),
        ({"recent_topics": ("a",) * (MAX_RECENT_TOPICS + 1)}, "recent_topics"),
        ({"recent_topics": ("",)}, "recent_topics"),
        ({"last_interaction_at": datetime(2026, 1, 1)}, "last_interaction_at"),
    ],
)
def test_invalid_states_are_refused(fields: dict[str, object], message: str) -> None:
    values: dict[str, object] = {"emotion": "happy", **fields}
    with pytest.raises(InvalidInput, match=message):
        CharacterState(**values)  # type: ignore[arg-type]


def good_json() -> dict[str, object]:
    return state_to_json(CharacterState("happy", 0.5, 0.2, ("games",), 3, MOMENT))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version"),
        ({"version": True}, "version"),
        ({"unexpected": 1}, "unknown fields: unexpected"),
        ({"emotion": 3}, "'emotion'"),
        ({"emotion_intensity": "0.5"}, "'emotion_intensity'"),
        ({"emotion_intensity": float("nan")}, "'emotion_intensity'"),
        ({"intimacy": 2.0}, "intimacy"),
        ({"turn_count": 1.5}, "'turn_count'"),
        ({"turn_count": True}, "'turn_count'"),
        ({"recent_topics": "games"}, "'recent_topics'"),
        ({"recent_topics": [1]}, "'recent_topics'"),
        ({"last_interaction_at": "yesterday"}, "'last_interaction_at'"),
        ({"last_interaction_at": "2026-03-02T21:00:00"}, "last_interaction_at"),
        ({"last_interaction_at": 1700000000}, "'last_interaction_at'"),
    ],
)
def test_damaged_json_is_refused_naming_the_field(change: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        state_from_json({**good_json(), **change})


def test_json_missing_fields_are_named() -> None:
    data = good_json()
    del data["intimacy"]
    with pytest.raises(InvalidInput, match="missing fields: intimacy"):
        state_from_json(data)


def test_json_must_be_an_object() -> None:
    with pytest.raises(InvalidInput):
        state_from_json(["happy"])  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_in_memory_store_keeps_states_per_scope() -> None:
    store: CharacterStateStore = InMemoryCharacterStateStore()
    minjun = Scope("haru", "minjun")
    yuki = Scope("haru", "yuki")
    other_character = Scope("ash", "minjun")
    state = CharacterState("happy", intimacy=0.4, last_interaction_at=MOMENT)
    assert await store.load(minjun) is None
    await store.save(minjun, state)
    assert await store.load(minjun) == state
    assert await store.load(yuki) is None
    assert await store.load(other_character) is None
    await store.delete(minjun)
    assert await store.load(minjun) is None
    await store.delete(minjun)  # deleting twice is fine

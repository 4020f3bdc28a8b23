from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.character import (
    CharacterProfile,
    CharacterState,
    EmotionDynamics,
    EmotionEngine,
    initial_state,
    is_warm_message,
)
from omoide.errors import InvalidInput

START = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)
PROFILE = CharacterProfile(id="tester", name="Tess")


def engine() -> EmotionEngine:
    return EmotionEngine(PROFILE)


def talk(
    state: CharacterState,
    emotion: str | None,
    *,
    at: datetime,
    message: str = "hello",
) -> CharacterState:
    return engine().update(state, detected_emotion=emotion, user_message=message, now=at)


def test_first_exchange_records_time_turns_and_emotion() -> None:
    state = talk(initial_state(PROFILE), "happy", at=START)
    assert state.emotion == "happy"
    assert state.emotion_intensity == EmotionDynamics().switch_intensity
    assert state.turn_count == 1
    assert state.last_interaction_at == START
    assert state.intimacy > 0.0


def test_repeating_an_emotion_intensifies_it_but_never_past_one() -> None:
    state = talk(initial_state(PROFILE), "excited", at=START)
    intensities = [state.emotion_intensity]
    for minute in range(1, 40):
        state = talk(state, "excited", at=START + timedelta(minutes=minute))
        intensities.append(state.emotion_intensity)
    assert all(later > earlier for earlier, later in itertools.pairwise(intensities))
    assert intensities[-1] <= 1.0
    assert intensities[-1] > 0.95


def test_switching_emotion_resets_to_a_moderate_intensity() -> None:
    state = initial_state(PROFILE)
    for minute in range(10):
        state = talk(state, "happy", at=START + timedelta(minutes=minute))
    assert state.emotion_intensity > 0.9
    switched = talk(state, "sad", at=START + timedelta(minutes=11))
    assert switched.emotion == "sad"
    assert switched.emotion_intensity == pytest.approx(EmotionDynamics().switch_intensity)


def test_no_detected_emotion_keeps_the_mood() -> None:
    state = talk(initial_state(PROFILE), "playful", at=START)
    kept = talk(state, None, at=START + timedelta(minutes=1))
    assert kept.emotion == "playful"
    assert kept.turn_count == 2


def test_unknown_detected_emotion_is_resolved_or_ignored() -> None:
    state = talk(initial_state(PROFILE), "calm", at=START)
    assert talk(state, "Joyful", at=START + timedelta(minutes=1)).emotion == "happy"
    assert talk(state, "zorblax", at=START + timedelta(minutes=1)).emotion == "calm"


def test_intensity_relaxes_toward_rest_over_idle_hours() -> None:
    state = initial_state(PROFILE)
    for minute in range(8):
        state = talk(state, "angry", at=START + timedelta(minutes=minute))
    strong = state.emotion_intensity
    rest = EmotionDynamics().resting_intensity
    after_an_hour = talk(state, None, at=START + timedelta(minutes=67))
    after_three_hours = talk(state, None, at=START + timedelta(minutes=187))
    assert strong > after_an_hour.emotion_intensity > after_three_hours.emotion_intensity > rest
    assert after_three_hours.emotion == "angry"


def test_mood_settles_to_default_after_a_long_idle() -> None:
    state = talk(initial_state(PROFILE), "sad", at=START)
    later = talk(state, None, at=START + timedelta(hours=7))
    assert later.emotion == PROFILE.default_emotion
    assert later.emotion_intensity == EmotionDynamics().resting_intensity


def test_intimacy_grows_more_for_warm_messages_in_every_language() -> None:
    state = talk(initial_state(PROFILE), None, at=START)
    moment = START + timedelta(minutes=1)
    plain = talk(state, None, at=moment, message="what did you eat today?")
    for warm in ("thank you!", "하루 고마워", "ありがとう！", "谢谢你", "love you ❤"):
        grown = talk(state, None, at=moment, message=warm)
        assert grown.intimacy > plain.intimacy > state.intimacy, warm


def test_intimacy_gains_diminish_as_it_grows() -> None:
    low = CharacterState("neutral", intimacy=0.1, last_interaction_at=START)
    high = CharacterState("neutral", intimacy=0.9, last_interaction_at=START)
    moment = START + timedelta(minutes=1)
    low_gain = talk(low, None, at=moment).intimacy - low.intimacy
    high_gain = talk(high, None, at=moment).intimacy - high.intimacy
    assert low_gain > high_gain > 0


def test_intimacy_fades_only_after_a_long_absence() -> None:
    state = CharacterState("neutral", intimacy=0.8, last_interaction_at=START)
    after_five_days = talk(state, None, at=START + timedelta(days=5))
    after_ninety_days = talk(state, None, at=START + timedelta(days=90))
    after_a_year = talk(state, None, at=START + timedelta(days=365))
    assert after_five_days.intimacy > 0.8
    assert 0.8 > after_ninety_days.intimacy > after_a_year.intimacy > 0.0


def test_a_clock_running_backwards_is_treated_as_no_time_passing() -> None:
    state = talk(initial_state(PROFILE), "happy", at=START)
    earlier = talk(state, "happy", at=START - timedelta(hours=5))
    assert earlier.emotion == "happy"
    assert earlier.emotion_intensity > state.emotion_intensity
    assert earlier.last_interaction_at == START


def test_naive_now_is_refused() -> None:
    with pytest.raises(InvalidInput):
        talk(initial_state(PROFILE), "happy", at=datetime(2026, 3, 2, 21, 0))


def test_state_from_an_older_profile_is_brought_back_to_known_emotions() -> None:
    stale = CharacterState("melancholic_longing", last_interaction_at=START)
    assert talk(stale, None, at=START + timedelta(minutes=1)).emotion == PROFILE.default_emotion


def test_dynamics_are_validated() -> None:
    with pytest.raises(InvalidInput):
        EmotionDynamics(repeat_gain=1.5)
    with pytest.raises(InvalidInput):
        EmotionDynamics(idle_half_life_hours=0)


def test_warm_message_detection_avoids_lookalikes() -> None:
    assert is_warm_message("Thanks for the stream")
    assert not is_warm_message("I lost my gloves")
    assert not is_warm_message("typing test")
    assert not is_warm_message("오늘 점심 뭐 먹지")


labels = st.sampled_from([*PROFILE.emotions, "joyful", "zorblax", None])
messages = st.sampled_from(
    ["hi", "thank you!!", "고마워", "ありがとう", "谢谢", "ugh", "ㅋㅋㅋ", ""]
)
gaps = st.floats(min_value=0, max_value=24 * 400, allow_nan=False)  # hours


@settings(max_examples=200, deadline=None)
@given(turns=st.lists(st.tuples(labels, messages, gaps), max_size=40))
def test_intensity_and_intimacy_stay_in_the_unit_interval(
    turns: list[tuple[str | None, str, float]],
) -> None:
    state = initial_state(PROFILE)
    moment = START
    for label, message, gap_hours in turns:
        moment += timedelta(hours=gap_hours)
        state = talk(state, label, at=moment, message=message)
        assert 0.0 <= state.emotion_intensity <= 1.0
        assert 0.0 <= state.intimacy <= 1.0
        assert state.emotion in PROFILE.emotions


@settings(max_examples=200, deadline=None)
@given(
    start_intimacy=st.floats(min_value=0, max_value=1),
    turns=st.lists(st.tuples(labels, messages), min_size=1, max_size=60),
)
def test_intimacy_never_drops_within_a_session(
    start_intimacy: float, turns: list[tuple[str | None, str]]
) -> None:
    state = CharacterState("neutral", intimacy=start_intimacy, last_interaction_at=START)
    for minute, (label, message) in enumerate(turns, start=1):
        updated = talk(state, label, at=START + timedelta(minutes=minute), message=message)
        assert updated.intimacy >= state.intimacy
        state = updated


@settings(max_examples=100, deadline=None)
@given(
    intensity=st.floats(min_value=0, max_value=1),
    shorter=st.floats(min_value=0, max_value=5),
    extra=st.floats(min_value=0.01, max_value=5),
)
def test_longer_idle_brings_intensity_closer_to_rest(
    intensity: float, shorter: float, extra: float
) -> None:
    rest = EmotionDynamics().resting_intensity
    state = CharacterState("happy", emotion_intensity=intensity, last_interaction_at=START)
    near = talk(state, None, at=START + timedelta(hours=shorter))
    far = talk(state, None, at=START + timedelta(hours=shorter + extra))
    assert abs(far.emotion_intensity - rest) <= abs(near.emotion_intensity - rest) + 1e-12

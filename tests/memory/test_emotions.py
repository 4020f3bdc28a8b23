from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import EmotionRecord, Scope
from omoide.errors import InvalidInput
from omoide.memory.emotions import (
    EmotionSummary,
    Valence,
    describe_emotions,
    summarise_emotions,
    valence_of,
)

NOW = datetime(2025, 11, 5, 12, tzinfo=UTC)
SCOPE = Scope("haru", "minjun")


def record(emotion: str, intensity: float, at: datetime, record_id: str = "r") -> EmotionRecord:
    return EmotionRecord(
        id=record_id, scope=SCOPE, emotion=emotion, intensity=intensity, recorded_at=at
    )


def on(day: int, hour: int = 12) -> datetime:
    return datetime(2025, 11, day, hour, tzinfo=UTC)


def test_summary_counts_labels_finds_the_dominant_and_averages_intensity() -> None:
    records = [
        record("Tired", 0.8, on(3)),
        record("tired ", 0.6, on(4)),
        record("happy", 0.4, on(4)),
        record("neutral", 0.2, on(5, 9)),
    ]

    summary = summarise_emotions(records, now=NOW)

    assert summary.days == 7
    assert summary.record_count == 4
    assert summary.dominant == "tired"
    assert dict(summary.counts) == {"tired": 2, "happy": 1, "neutral": 1}
    assert list(summary.counts) == ["tired", "happy", "neutral"]
    assert summary.average_intensity == pytest.approx(0.5)


def test_only_records_within_the_window_count_and_its_edges_are_inclusive() -> None:
    records = [
        record("sad", 0.9, NOW - timedelta(days=7)),
        record("sad", 0.9, NOW - timedelta(days=7, seconds=1)),
        record("happy", 0.9, NOW),
        record("happy", 0.9, NOW + timedelta(seconds=1)),
    ]

    summary = summarise_emotions(records, now=NOW, days=7)

    assert summary.record_count == 2
    assert dict(summary.counts) == {"happy": 1, "sad": 1}


def test_an_empty_history_has_nothing_dominant_and_nothing_to_say() -> None:
    summary = summarise_emotions([], now=NOW)

    assert (summary.dominant, summary.average_intensity, summary.record_count) == (None, None, 0)
    assert summary.hard_days == ()
    assert describe_emotions(summary) is None


def test_a_strongly_sad_day_is_hard_though_the_seeds_rule_would_miss_it() -> None:
    records = [record("sad", 0.9, on(3, 20)), record("neutral", 0.5, on(3, 21))]

    assert summarise_emotions(records, now=NOW).hard_days == (date(2025, 11, 3),)


def test_a_faint_negative_feeling_among_cheerful_chat_is_not_a_hard_day() -> None:
    records = [
        record("tired", 0.2, on(4, 10)),
        record("happy", 0.7, on(4, 11)),
        record("excited", 0.6, on(4, 12)),
    ]

    assert summarise_emotions(records, now=NOW).hard_days == ()


def test_hard_days_are_listed_oldest_first_and_unknown_labels_stay_neutral() -> None:
    records = [
        record("anxious", 0.6, on(4)),
        record("lonely", 0.4, on(1)),
        record("피곤해", 0.9, on(2)),  # not in the English table: neutral
        record("sad", 0.3, on(2)),
    ]

    assert summarise_emotions(records, now=NOW).hard_days == (date(2025, 11, 1), date(2025, 11, 4))


def test_calendar_days_follow_the_given_time_zone() -> None:
    late_evening_in_seoul = datetime(2025, 11, 3, 14, 30, tzinfo=UTC)  # 23:30 in Seoul
    after_midnight_in_seoul = datetime(2025, 11, 3, 15, 30, tzinfo=UTC)  # 00:30 next day
    records = [
        record("sad", 0.8, late_evening_in_seoul),
        record("happy", 0.9, after_midnight_in_seoul),
    ]
    seoul = timezone(timedelta(hours=9))

    assert summarise_emotions(records, now=NOW).hard_days == ()
    assert summarise_emotions(records, now=NOW, tz=seoul).hard_days == (date(2025, 11, 3),)


def test_a_tie_in_frequency_goes_to_the_more_intensely_felt_label_then_the_alphabet() -> None:
    felt_more = [record("sad", 0.9, on(4)), record("happy", 0.2, on(4))]
    same = [record("sad", 0.5, on(4)), record("angry", 0.5, on(4))]

    assert summarise_emotions(felt_more, now=NOW).dominant == "sad"
    assert summarise_emotions(same, now=NOW).dominant == "angry"


@pytest.mark.parametrize("days", [0, -1, True, 2.5])
def test_the_window_must_be_a_positive_number_of_days(days: int) -> None:
    with pytest.raises(InvalidInput):
        summarise_emotions([], now=NOW, days=days)


def test_naive_now_is_refused() -> None:
    with pytest.raises(InvalidInput):
        summarise_emotions([], now=datetime(2025, 11, 5))


@pytest.mark.parametrize(
    ("label", "valence"),
    [
        ("sad", Valence.NEGATIVE),
        ("  Frustrated ", Valence.NEGATIVE),
        ("burned   out", Valence.NEGATIVE),
        ("excited", Valence.POSITIVE),
        ("calm", Valence.POSITIVE),
        ("neutral", Valence.NEUTRAL),
        ("surprised", Valence.NEUTRAL),
        ("슬픔", Valence.NEUTRAL),
        ("", Valence.NEUTRAL),
    ],
)
def test_valence_tables(label: str, valence: Valence) -> None:
    assert valence_of(label) is valence


def test_description_names_the_mood_and_the_hard_days() -> None:
    records = [
        record("tired", 0.8, on(2)),
        record("tired", 0.6, on(3)),
        record("tired", 0.7, on(4, 9)),
    ]

    line = describe_emotions(summarise_emotions(records, now=NOW))

    assert (
        line
        == "Recent mood (7 days): mostly tired (avg intensity 0.7); hard days: 11/02, 11/03, 11/04."
    )


def test_a_mostly_neutral_history_without_hard_days_says_nothing() -> None:
    records = [
        record("neutral", 0.5, on(4)),
        record("neutral", 0.5, on(3)),
        record("sad", 0.1, on(3)),
    ]

    assert describe_emotions(summarise_emotions(records, now=NOW)) is None


def test_hard_days_are_worth_a_line_even_when_the_mood_is_neutral() -> None:
    records = [
        record("neutral", 0.1, on(4)),
        record("neutral", 0.1, on(4)),
        record("hurt", 0.9, on(3)),
    ]

    line = describe_emotions(summarise_emotions(records, now=NOW, days=1 + 6))

    assert line == "Recent mood (7 days): hard days: 11/03."


def test_hard_days_across_a_new_year_are_written_with_the_year() -> None:
    summary = EmotionSummary(
        days=1,
        dominant="sad",
        average_intensity=0.9,
        counts={"sad": 2},
        hard_days=(date(2025, 12, 31), date(2026, 1, 1)),
        record_count=2,
    )

    assert describe_emotions(summary) == (
        "Recent mood (1 day): mostly sad (avg intensity 0.9); hard days: 2025-12-31, 2026-01-01."
    )


labels = st.sampled_from(["sad", "tired", "happy", "neutral", "angry", "calm", "피곤", "bored"])
moments = st.floats(min_value=-24.0 * 10, max_value=24.0 * 2).map(
    lambda h: NOW + timedelta(hours=h)
)
histories = st.lists(
    st.tuples(labels, st.floats(min_value=0.0, max_value=1.0), moments), max_size=30
)


@settings(deadline=None)
@given(history=histories, days=st.integers(min_value=1, max_value=9))
def test_summary_invariants(history: list[tuple[str, float, datetime]], days: int) -> None:
    records = [record(label, value, at, f"r{i}") for i, (label, value, at) in enumerate(history)]
    inside = [r for r in records if NOW - timedelta(days=days) <= r.recorded_at <= NOW]

    summary = summarise_emotions(records, now=NOW, days=days)

    assert summary.record_count == len(inside) == sum(summary.counts.values())
    if inside:
        assert summary.dominant is not None
        assert summary.counts[summary.dominant] == max(summary.counts.values())
        assert summary.average_intensity is not None
        assert 0.0 <= summary.average_intensity <= 1.0
    negative_days = {
        r.recorded_at.date() for r in inside if valence_of(r.emotion) is Valence.NEGATIVE
    }
    assert set(summary.hard_days) <= negative_days
    assert list(summary.hard_days) == sorted(summary.hard_days)

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone

import pytest

from omoide.clock import FixedClock, moment_of
from omoide.domain import Episode, Scope, as_utc, check_unit_interval, new_id
from omoide.errors import InvalidInput, first_omoide_error
from omoide.metadata import check_metadata

KST = timezone(timedelta(hours=9))


def test_scope_accepts_hostile_but_valid_identifiers() -> None:
    for value in [
        "O'Brien",
        'quo"te',
        "50%_off",
        "back\\slash",
        "'; DROP TABLE x; --",
        "민준",
        "🎮",
    ]:
        assert Scope("haru", value).user_id == value


@pytest.mark.parametrize("value", ["", "   ", "a" * 257, "nul\x00byte"])
def test_scope_refuses_empty_long_or_nul_identifiers(value: str) -> None:
    with pytest.raises(InvalidInput):
        Scope("haru", value)
    with pytest.raises(InvalidInput):
        Scope(value, "viewer")


def test_character_wide_scope_is_distinct_from_any_viewer() -> None:
    assert Scope("haru").is_character_wide
    assert Scope("haru") != Scope("haru", "None")
    assert not Scope("haru", "minjun").is_character_wide


def test_naive_datetimes_are_refused_and_aware_ones_become_utc() -> None:
    with pytest.raises(InvalidInput, match="timezone-aware"):
        as_utc(datetime(2026, 1, 1))
    converted = as_utc(datetime(2026, 1, 1, 9, tzinfo=KST))
    assert converted == datetime(2026, 1, 1, 0, tzinfo=UTC)
    assert converted.tzinfo is UTC


def test_a_moment_given_wins_over_the_clock_and_a_naive_one_is_refused_by_name() -> None:
    clock = FixedClock(datetime(2026, 5, 1, tzinfo=UTC))
    assert moment_of(None, clock) == datetime(2026, 5, 1, tzinfo=UTC)
    given = moment_of(datetime(2026, 1, 1, 9, tzinfo=KST), clock)
    assert given == datetime(2026, 1, 1, 0, tzinfo=UTC)
    with pytest.raises(InvalidInput, match=r"^at must be timezone-aware"):
        moment_of(datetime(2026, 1, 1), clock, name="at")


@pytest.mark.parametrize("value", [-0.01, 1.01, float("nan"), True])
def test_unit_interval_scores(value: float) -> None:
    with pytest.raises(InvalidInput):
        check_unit_interval(value, name="importance")


def test_episode_validates_scores_and_times() -> None:
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    with pytest.raises(InvalidInput, match="importance"):
        Episode("e", Scope("haru", "u"), "hi", "hello", moment, importance=7.0)
    with pytest.raises(InvalidInput, match="recorded_at"):
        Episode("e", Scope("haru", "u"), "hi", "hello", datetime(2026, 1, 1), importance=0.5)


def test_metadata_must_be_flat() -> None:
    assert check_metadata({"dia_id": "D1:3", "n": 3, "ok": True, "x": None}) == {
        "dia_id": "D1:3",
        "n": 3,
        "ok": True,
        "x": None,
    }
    with pytest.raises(InvalidInput, match="nested"):
        check_metadata({"nested": {"a": 1}})
    with pytest.raises(InvalidInput):
        check_metadata({"bad": float("inf")})


def test_fixed_clock_moves_only_when_told() -> None:
    clock = FixedClock(datetime(2025, 1, 1, tzinfo=UTC))
    assert clock.now() == datetime(2025, 1, 1, tzinfo=UTC)
    clock.set(datetime(2025, 6, 1, 12, tzinfo=KST))
    assert clock.now() == datetime(2025, 6, 1, 3, tzinfo=UTC)


def test_ids_sort_in_the_order_they_were_made() -> None:
    made = [new_id() for _ in range(2000)]
    assert sorted(made) == made
    assert len(set(made)) == len(made)
    assert all(len(made_id) == 32 and int(made_id, 16) >= 0 for made_id in made)


def test_ids_made_on_several_threads_are_unique() -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        made = list(pool.map(lambda _: new_id(), range(4000)))
    assert len(set(made)) == len(made)


def test_the_first_of_our_errors_is_found_inside_nested_task_group_failures() -> None:
    ours = InvalidInput("bad")
    nested = ExceptionGroup("outer", [ValueError("x"), ExceptionGroup("inner", [ours])])
    assert first_omoide_error(nested) is ours
    theirs = ExceptionGroup("only theirs", [ValueError("x")])
    assert first_omoide_error(theirs) is theirs

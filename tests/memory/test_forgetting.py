from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import Episode, Fact, FactCategory, Scope
from omoide.errors import InvalidInput
from omoide.memory.forgetting import (
    DecayPolicy,
    last_reinforced_at,
    reinforcements_of,
    retention,
    retention_of,
    select_for_archive,
    stability_days,
)

NOW = datetime(2025, 11, 5, 12, tzinfo=UTC)
SCOPE = Scope("haru", "minjun")


def episode(
    episode_id: str = "e1",
    *,
    importance: float = 0.5,
    age: timedelta = timedelta(0),
    recalls: int = 0,
    recalled_ago: timedelta | None = None,
    archived: bool = False,
) -> Episode:
    return Episode(
        id=episode_id,
        scope=SCOPE,
        user_message="나 롤 게임 엄청 좋아해요!",
        bot_message="롤이요?",
        recorded_at=NOW - age,
        importance=importance,
        recall_count=recalls,
        last_recalled_at=None if recalled_ago is None else NOW - recalled_ago,
        archived_at=NOW if archived else None,
    )


@pytest.mark.parametrize(
    ("importance", "count", "days"),
    [(0.3, 1, 4.0), (0.7, 1, 8.0), (0.9, 20, 50.0), (0.0, 1, 1.0)],
)
def test_stability_matches_the_seeds_consistent_examples(
    importance: float, count: int, days: float
) -> None:
    assert stability_days(importance, count) == pytest.approx(days)


def test_the_seeds_inconsistent_example_comes_out_as_documented() -> None:
    assert stability_days(0.9, 5) == pytest.approx(10 * (1 + 16 / 19))  # 18.4, not 20


def test_retention_is_one_over_e_after_one_stability_and_full_at_reinforcement() -> None:
    last = NOW - timedelta(days=8)
    assert retention(
        importance=0.7, reinforcements=1, last_reinforced_at=last, now=NOW
    ) == pytest.approx(math.exp(-1))
    assert retention(importance=0.7, reinforcements=1, last_reinforced_at=NOW, now=NOW) == 1.0
    future = NOW + timedelta(days=2)
    assert retention(importance=0.1, reinforcements=1, last_reinforced_at=future, now=NOW) == 1.0


def test_retention_never_reaches_zero() -> None:
    ancient = NOW - timedelta(days=365 * 50)
    assert retention(importance=0.0, reinforcements=1, last_reinforced_at=ancient, now=NOW) > 0.0


@pytest.mark.parametrize(
    ("importance", "count"), [(0.5, 0), (0.5, -3), (1.5, 1), (-0.1, 1), (0.5, True), (0.5, 2.0)]
)
def test_stability_refuses_impossible_inputs(importance: float, count: int) -> None:
    with pytest.raises(InvalidInput):
        stability_days(importance, count)


def test_retention_refuses_naive_times() -> None:
    with pytest.raises(InvalidInput):
        retention(
            importance=0.5, reinforcements=1, last_reinforced_at=datetime(2025, 1, 1), now=NOW
        )


def test_an_episode_counts_from_its_last_recall_and_each_recall_reinforces() -> None:
    recalled = episode(age=timedelta(days=30), recalls=2, recalled_ago=timedelta(days=1))

    assert last_reinforced_at(recalled) == NOW - timedelta(days=1)
    assert reinforcements_of(recalled) == 3
    expected = math.exp(-1 / stability_days(0.5, 3))
    assert retention_of(recalled, NOW) == pytest.approx(expected)
    assert last_reinforced_at(episode(age=timedelta(days=4))) == NOW - timedelta(days=4)


def test_a_fact_counts_confirmations_and_recalls_and_uses_its_salience() -> None:
    fact = Fact(
        id="f1",
        scope=SCOPE,
        text="likes FPS games",
        category=FactCategory.PREFERENCE,
        confidence=0.6,
        salience=0.9,
        recorded_at=NOW - timedelta(days=50),
        valid_from=NOW - timedelta(days=50),
        confirmation_count=15,
        recall_count=5,
    )

    assert reinforcements_of(fact) == 20
    assert retention_of(fact, NOW) == pytest.approx(math.exp(-1))  # 0.9 / 20 -> 50 days


def test_select_for_archive_takes_only_unarchived_episodes_below_the_threshold() -> None:
    faded = episode("faded", importance=0.0, age=timedelta(days=10))  # e^-10
    fresh = episode("fresh", importance=0.0, age=timedelta(hours=1))
    already = episode("already", importance=0.0, age=timedelta(days=10), archived=True)
    kept_by_recall = episode(
        "recalled", importance=0.0, age=timedelta(days=10), recalls=1, recalled_ago=timedelta(0)
    )

    chosen = select_for_archive(
        [faded, fresh, already, kept_by_recall], policy=DecayPolicy(), now=NOW
    )

    assert chosen == ["faded"]


def test_an_episode_exactly_at_the_threshold_is_kept() -> None:
    two_stabilities = episode("edge", importance=0.0, age=timedelta(days=2))

    at_threshold = DecayPolicy(archive_below=math.exp(-2.0))

    assert retention_of(two_stabilities, NOW) == math.exp(-2.0)
    assert select_for_archive([two_stabilities], policy=at_threshold, now=NOW) == []


def test_the_threshold_and_the_importance_exemption_are_configurable() -> None:
    aging = episode("aging", importance=0.9, age=timedelta(days=20))  # e^-2 = 0.135

    assert select_for_archive([aging], policy=DecayPolicy(), now=NOW) == []
    assert select_for_archive([aging], policy=DecayPolicy(archive_below=0.2), now=NOW) == ["aging"]
    exempt = DecayPolicy(archive_below=0.2, keep_importance_at_least=0.9)
    assert select_for_archive([aging], policy=exempt, now=NOW) == []


@pytest.mark.parametrize(
    "arguments", [{"archive_below": -0.1}, {"archive_below": 1.5}, {"keep_importance_at_least": 2}]
)
def test_decay_policy_refuses_values_outside_the_unit_interval(
    arguments: dict[str, float],
) -> None:
    with pytest.raises(InvalidInput):
        DecayPolicy(**arguments)


# --- properties ---------------------------------------------------------------------------

importances = st.floats(min_value=0.0, max_value=1.0)
counts = st.integers(min_value=1, max_value=200)
hours = st.floats(min_value=0.0, max_value=24.0 * 365 * 30)


@settings(deadline=None)
@given(importance=importances, count=counts, first=hours, later=hours)
def test_retention_never_rises_while_time_passes_without_a_recall(
    importance: float, count: int, first: float, later: float
) -> None:
    start = NOW - timedelta(days=400)
    early, late = sorted((first, later))

    def at(offset: float) -> float:
        moment = start + timedelta(hours=offset)
        return retention(
            importance=importance, reinforcements=count, last_reinforced_at=start, now=moment
        )

    assert at(late) <= at(early)


@settings(deadline=None)
@given(importance=importances, count=counts, recall_after=hours, check_after=hours)
def test_a_recall_never_lowers_retention_at_any_later_time(
    importance: float, count: int, recall_after: float, check_after: float
) -> None:
    last = NOW - timedelta(days=3000)
    recall = last + timedelta(hours=recall_after)
    later = recall + timedelta(hours=check_after)

    without = retention(
        importance=importance, reinforcements=count, last_reinforced_at=last, now=later
    )
    with_recall = retention(
        importance=importance, reinforcements=count + 1, last_reinforced_at=recall, now=later
    )

    assert with_recall >= without


@settings(deadline=None)
@given(importance=importances, count=counts, elapsed=hours)
def test_retention_lies_in_the_half_open_unit_interval(
    importance: float, count: int, elapsed: float
) -> None:
    value = retention(
        importance=importance,
        reinforcements=count,
        last_reinforced_at=NOW - timedelta(hours=elapsed),
        now=NOW,
    )

    assert 0.0 < value <= 1.0


@settings(deadline=None)
@given(
    rows=st.lists(
        st.tuples(importances, hours, st.integers(min_value=0, max_value=30), st.booleans()),
        max_size=20,
    ),
    threshold=st.floats(min_value=0.0, max_value=1.0),
)
def test_archive_selection_is_exactly_the_unarchived_episodes_below_threshold(
    rows: list[tuple[float, float, int, bool]], threshold: float
) -> None:
    episodes = [
        episode(f"e{i}", importance=imp, age=timedelta(hours=age), recalls=recalls, archived=done)
        for i, (imp, age, recalls, done) in enumerate(rows)
    ]

    chosen = set(select_for_archive(episodes, policy=DecayPolicy(archive_below=threshold), now=NOW))

    for item in episodes:
        below = retention_of(item, NOW) < threshold
        assert (item.id in chosen) == (below and item.archived_at is None)

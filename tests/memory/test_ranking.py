from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.errors import InvalidInput
from omoide.memory.ranking import (
    Candidate,
    FusionConfig,
    FusionMethod,
    Ranked,
    RankingWeights,
    fuse_relevance,
    normalise,
    rank,
    raw_recency,
)

NOW = datetime(2025, 11, 5, 12, tzinfo=UTC)
DEFAULTS = RankingWeights()
WEIGHTED = FusionConfig(vector_weight=0.7, keyword_weight=0.3)
RRF = FusionConfig(method=FusionMethod.RECIPROCAL_RANK, vector_weight=0.7, keyword_weight=0.3)


def candidate(
    name: str, relevance: float, importance: float, age: timedelta = timedelta(0)
) -> Candidate[str]:
    return Candidate(item=name, relevance=relevance, importance=importance, last_activity=NOW - age)


def order(ranked: list[Ranked[str]]) -> list[str]:
    return [entry.item for entry in ranked]


# --- the decision seed 001 asks us to make ------------------------------------------------


def test_default_weights_prefer_the_relevant_fresh_memory_over_an_important_irrelevant_one() -> (
    None
):
    relevant = candidate("relevant", relevance=1.0, importance=0.1)
    important = candidate("important", relevance=0.0, importance=1.0, age=timedelta(days=120))

    ranked = rank([important, relevant], weights=DEFAULTS, now=NOW)

    assert order(ranked) == ["relevant", "important"]


def test_default_weights_prefer_relevance_even_when_it_is_old_and_unimportant() -> None:
    relevant_but_stale = candidate("relevant", 1.0, 0.1, age=timedelta(days=120))
    fresh_and_important = candidate("fresh", 0.0, 1.0)

    ranked = rank([fresh_and_important, relevant_but_stale], weights=DEFAULTS, now=NOW)

    assert order(ranked) == ["relevant", "fresh"]
    assert DEFAULTS.relevance > DEFAULTS.recency + DEFAULTS.importance


def critique_total(entry: Candidate[str]) -> float:
    """VirtualWife's ``normalize_scores``: raw relevance + raw importance + raw recency."""
    return (
        entry.relevance
        + entry.importance
        + raw_recency(entry.last_activity, now=NOW, decay_per_hour=0.99)
    )


def test_summing_raw_scales_lets_importance_on_ten_win_but_normalising_does_not() -> None:
    relevant = candidate("relevant", relevance=1.0, importance=1.0)  # "mundane", on 1-10
    important = candidate("important", relevance=0.0, importance=10.0, age=timedelta(days=120))

    by_raw_sum = sorted([relevant, important], key=critique_total, reverse=True)
    normalised = rank([relevant, important], weights=RankingWeights(1.0, 1.0, 1.0), now=NOW)

    assert [entry.item for entry in by_raw_sum] == ["important", "relevant"]
    assert order(normalised) == ["relevant", "important"]


# --- components ---------------------------------------------------------------------------


def test_a_single_candidate_gets_full_components_and_keeps_its_raw_values() -> None:
    (only,) = rank([candidate("only", 0.3, 0.2, age=timedelta(hours=2))], weights=DEFAULTS, now=NOW)

    parts = only.components
    assert (parts.relevance, parts.recency, parts.importance, parts.total) == (1.0, 1.0, 1.0, 1.0)
    assert (parts.raw_relevance, parts.raw_importance) == (0.3, 0.2)
    assert parts.raw_recency == pytest.approx(0.99**2)
    assert only.total == parts.total


def test_components_are_min_max_normalised_and_total_is_the_weighted_mean() -> None:
    ranked = rank(
        [candidate("a", 0.2, 0.5), candidate("b", 0.6, 0.1), candidate("c", 1.0, 0.9)],
        weights=RankingWeights(relevance=2.0, recency=1.0, importance=1.0),
        now=NOW,
    )

    by_name = {entry.item: entry.components for entry in ranked}
    assert by_name["b"].relevance == pytest.approx(0.5)
    assert by_name["b"].importance == pytest.approx(0.0)
    assert by_name["a"].importance == pytest.approx(0.5)
    assert by_name["b"].total == pytest.approx((2 * 0.5 + 1 * 1.0 + 1 * 0.0) / 4)
    assert by_name["a"].total == pytest.approx((2 * 0.0 + 1 * 1.0 + 1 * 0.5) / 4)
    assert order(ranked) == ["c", "b", "a"]


def test_recency_decays_per_hour_and_is_full_for_activity_after_now() -> None:
    assert raw_recency(NOW - timedelta(hours=1), now=NOW, decay_per_hour=0.99) == pytest.approx(
        0.99
    )
    assert raw_recency(NOW - timedelta(days=120), now=NOW, decay_per_hour=0.99) == pytest.approx(
        0.99 ** (120 * 24)
    )
    assert raw_recency(NOW + timedelta(days=3), now=NOW, decay_per_hour=0.5) == 1.0


def test_ties_go_to_raw_relevance_then_importance_then_recent_activity_then_input_order() -> None:
    weights = RankingWeights(relevance=0.0, recency=1.0, importance=0.0)
    same_time = [candidate("low", 0.1, 0.5), candidate("high", 0.9, 0.5)]
    assert order(rank(same_time, weights=weights, now=NOW)) == ["high", "low"]
    conflicting = [candidate("important", 0.1, 0.9), candidate("relevant", 0.9, 0.1)]
    assert order(rank(conflicting, weights=weights, now=NOW)) == ["relevant", "important"]
    same_relevance = [candidate("minor", 0.5, 0.1), candidate("major", 0.5, 0.9)]
    assert order(rank(same_relevance, weights=weights, now=NOW)) == ["major", "minor"]

    weights = RankingWeights(relevance=1.0, recency=0.0, importance=0.0)
    newer_first = [candidate("old", 0.5, 0.5, timedelta(days=2)), candidate("new", 0.5, 0.5)]
    assert order(rank(newer_first, weights=weights, now=NOW)) == ["new", "old"]
    twins = [candidate("first", 0.5, 0.5), candidate("second", 0.5, 0.5)]
    assert order(rank(twins, weights=weights, now=NOW)) == ["first", "second"]


def test_float_noise_from_rescaling_cannot_reorder_equal_totals() -> None:
    rows = [
        (1.0, 0.4, 1),
        (0.0, 0.7, 1),
        (0.5, 0.6, 0),
        (1.0, 0.3, 5),
        (1.0, 0.1, 0),
        (0.5, 0.4, 1),
    ]
    weights = RankingWeights(relevance=0.5, recency=0.0, importance=0.5)

    def names(scale: float) -> list[str]:
        candidates = [
            candidate(f"m{i}", relevance, importance * scale, timedelta(hours=age))
            for i, (relevance, importance, age) in enumerate(rows)
        ]
        return order(rank(candidates, weights=weights, now=NOW))

    assert names(7.0) == names(1.0)  # m2 and m3 tie at 0.5 up to rounding noise


def test_rank_of_nothing_is_empty() -> None:
    assert rank([], weights=DEFAULTS, now=NOW) == []


def test_normalise_treats_float_noise_as_equal_and_survives_huge_spreads() -> None:
    assert normalise([0.3, 0.3 + 1e-17]) == [1.0, 1.0]
    assert normalise([-1e308, 1e308]) == [0.0, 1.0]
    assert normalise([]) == []


@pytest.mark.parametrize(
    "arguments",
    [
        {"relevance": -1.0},
        {"relevance": 0.0, "recency": 0.0, "importance": 0.0},
        {"recency": math.nan},
        {"importance": math.inf},
        {"recency_decay_per_hour": 0.0},
        {"recency_decay_per_hour": 1.5},
        {"relevance": True},
    ],
)
def test_ranking_weights_refuse_meaningless_values(arguments: dict[str, float]) -> None:
    with pytest.raises(InvalidInput):
        RankingWeights(**arguments)


def test_candidates_refuse_naive_times_and_non_finite_scores() -> None:
    with pytest.raises(InvalidInput):
        Candidate(item="x", relevance=0.5, importance=0.5, last_activity=datetime(2025, 1, 1))
    with pytest.raises(InvalidInput):
        candidate("x", math.nan, 0.5)
    with pytest.raises(InvalidInput):
        rank([candidate("x", 0.5, 0.5)], weights=DEFAULTS, now=datetime(2025, 1, 1))


# --- properties ---------------------------------------------------------------------------

scores = st.floats(min_value=0.0, max_value=1.0)
ages = st.floats(min_value=-48.0, max_value=24.0 * 400)
rows = st.lists(st.tuples(scores, scores, ages), min_size=1, max_size=12)
weights = st.builds(
    RankingWeights,
    relevance=st.floats(min_value=0.0, max_value=5.0),
    recency=st.floats(min_value=0.0, max_value=5.0),
    importance=st.floats(min_value=0.01, max_value=5.0),
    recency_decay_per_hour=st.floats(min_value=0.5, max_value=1.0),
)


def candidates_from(
    rows: list[tuple[float, float, float]], scale: float = 1.0
) -> list[Candidate[str]]:
    return [
        candidate(f"m{index}", relevance, importance * scale, timedelta(hours=age))
        for index, (relevance, importance, age) in enumerate(rows)
    ]


@settings(deadline=None)
@given(rows=rows, weights=weights)
def test_every_component_and_total_lies_in_the_unit_interval(
    rows: list[tuple[float, float, float]], weights: RankingWeights
) -> None:
    for entry in rank(candidates_from(rows), weights=weights, now=NOW):
        parts = entry.components
        for value in (parts.relevance, parts.recency, parts.importance, parts.total):
            assert 0.0 <= value <= 1.0


@settings(deadline=None)
@given(rows=rows, weights=weights, data=st.data())
def test_a_candidate_that_dominates_another_ranks_above_it(
    rows: list[tuple[float, float, float]], weights: RankingWeights, data: st.DataObject
) -> None:
    relevance, importance, age = rows[0]
    better = (
        data.draw(st.floats(min_value=relevance, max_value=1.0)),
        data.draw(st.floats(min_value=importance, max_value=1.0)),
        data.draw(st.floats(min_value=-48.0, max_value=age)),
    )
    candidates = candidates_from([*rows, better])  # the last is at least as good on all three
    weaker, stronger = candidates[0], candidates[-1]

    names = order(rank(candidates, weights=weights, now=NOW))

    if (stronger.relevance, stronger.importance, stronger.last_activity) == (
        weaker.relevance,
        weaker.importance,
        weaker.last_activity,
    ):
        assert names.index(weaker.item) < names.index(stronger.item)  # equals keep input order
    else:
        assert names.index(stronger.item) < names.index(weaker.item)


@settings(deadline=None)
@given(rows=rows, weights=weights, data=st.data())
def test_raising_a_candidates_relevance_never_lowers_its_position(
    rows: list[tuple[float, float, float]], weights: RankingWeights, data: st.DataObject
) -> None:
    chosen = data.draw(st.integers(min_value=0, max_value=len(rows) - 1))
    relevance, importance, age = rows[chosen]
    raised = list(rows)
    raised[chosen] = (data.draw(st.floats(min_value=relevance, max_value=1.0)), importance, age)

    before = order(rank(candidates_from(rows), weights=weights, now=NOW)).index(f"m{chosen}")
    after = order(rank(candidates_from(raised), weights=weights, now=NOW)).index(f"m{chosen}")

    assert after <= before


grid_scores = st.integers(min_value=0, max_value=1000).map(lambda n: n / 1000)
grid_rows = st.lists(st.tuples(scores, grid_scores, ages), min_size=1, max_size=12)


@settings(deadline=None)
@given(rows=grid_rows, weights=weights, scale=st.floats(min_value=0.01, max_value=100.0))
def test_the_scale_of_importance_does_not_change_the_ranking(
    rows: list[tuple[float, float, float]], weights: RankingWeights, scale: float
) -> None:
    unit = order(rank(candidates_from(rows), weights=weights, now=NOW))
    scaled = order(rank(candidates_from(rows, scale), weights=weights, now=NOW))
    one_to_ten = [
        candidate(f"m{index}", relevance, 1.0 + 9.0 * importance, timedelta(hours=age))
        for index, (relevance, importance, age) in enumerate(rows)
    ]

    assert scaled == unit
    assert order(rank(one_to_ten, weights=weights, now=NOW)) == unit


# --- fusion -------------------------------------------------------------------------------


def test_weighted_fusion_normalises_each_list_and_gives_missing_hits_zero() -> None:
    config = FusionConfig(vector_weight=0.5, keyword_weight=0.5)
    fused = fuse_relevance({"a": 0.9, "b": 0.5, "c": 0.1}, {"b": 40.0, "d": 10.0}, config=config)

    assert fused == pytest.approx({"b": 0.75, "a": 0.5, "c": 0.0, "d": 0.0})
    assert list(fused) == ["b", "a", "c", "d"]


def test_bm25_magnitudes_do_not_swamp_similarity() -> None:
    small = fuse_relevance({"a": 0.9, "b": 0.2}, {"b": 1.5, "a": 1.0}, config=WEIGHTED)
    huge = fuse_relevance({"a": 0.9, "b": 0.2}, {"b": 1500.0, "a": 1000.0}, config=WEIGHTED)

    assert huge == pytest.approx(small)
    assert list(huge) == ["a", "b"]  # vector leads with these weights


def test_reciprocal_rank_fusion_uses_ranks_and_scales_first_in_both_to_one() -> None:
    fused = fuse_relevance({"a": 0.9, "b": 0.8}, {"a": 12.0, "c": 3.0}, config=RRF)

    assert fused["a"] == pytest.approx(1.0)
    assert fused["b"] == pytest.approx(0.7 / 62 / (1.0 / 61))
    assert fused["c"] == pytest.approx(0.3 / 62 / (1.0 / 61))
    assert list(fused) == ["a", "b", "c"]


@pytest.mark.parametrize("method", list(FusionMethod))
def test_an_empty_list_leaves_the_other_to_decide_alone(method: FusionMethod) -> None:
    config = FusionConfig(method=method)

    only_vector = fuse_relevance({"a": 0.8, "b": 0.3}, {}, config=config)
    only_keyword = fuse_relevance({}, {"a": 9.0, "b": 2.0}, config=config)

    assert only_vector["a"] == only_keyword["a"] == pytest.approx(1.0)
    assert only_vector["b"] < 1.0 and only_keyword["b"] < 1.0


def test_a_list_with_zero_weight_is_ignored() -> None:
    config = FusionConfig(vector_weight=1.0, keyword_weight=0.0)

    fused = fuse_relevance({"a": 0.8, "b": 0.3}, {"b": 50.0, "c": 1.0}, config=config)

    assert fused == pytest.approx({"a": 1.0, "b": 0.0, "c": 0.0})


def test_fusion_of_nothing_is_empty_and_bad_scores_are_refused() -> None:
    assert fuse_relevance({}, {}, config=WEIGHTED) == {}
    with pytest.raises(InvalidInput):
        fuse_relevance({"a": math.nan}, {}, config=WEIGHTED)


@pytest.mark.parametrize(
    "arguments",
    [
        {"vector_weight": 0.0, "keyword_weight": 0.0},
        {"vector_weight": -0.1},
        {"rrf_k": 0},
        {"rrf_k": 2.5},
        {"method": "reciprocal_rank_typo"},
    ],
)
def test_fusion_config_refuses_meaningless_values(arguments: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        FusionConfig(**arguments)  # type: ignore[arg-type]


hit_lists = st.dictionaries(
    st.sampled_from([f"m{index}" for index in range(10)]),
    st.floats(min_value=-1.0, max_value=1.0),
    max_size=10,
)
bm25_lists = st.dictionaries(
    st.sampled_from([f"m{index}" for index in range(10)]),
    st.integers(min_value=0, max_value=5000).map(lambda n: n / 100),
    max_size=10,
)


@settings(deadline=None)
@given(vector=hit_lists, keyword=bm25_lists, method=st.sampled_from(FusionMethod))
def test_fused_relevance_covers_every_hit_and_stays_in_the_unit_interval(
    vector: dict[str, float], keyword: dict[str, float], method: FusionMethod
) -> None:
    fused = fuse_relevance(vector, keyword, config=FusionConfig(method=method))

    assert set(fused) == set(vector) | set(keyword)
    assert all(0.0 <= value <= 1.0 for value in fused.values())
    assert list(fused.values()) == sorted(fused.values(), reverse=True)


@settings(deadline=None)
@given(vector=hit_lists, keyword=bm25_lists, factor=st.floats(min_value=0.5, max_value=1000.0))
def test_reciprocal_rank_fusion_ignores_score_magnitudes(
    vector: dict[str, float], keyword: dict[str, float], factor: float
) -> None:
    stretched = {item_id: score * factor + 7.0 for item_id, score in keyword.items()}

    assert fuse_relevance(vector, stretched, config=RRF) == pytest.approx(
        fuse_relevance(vector, keyword, config=RRF)
    )

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
    Ranked,
    RankingWeights,
    Relevance,
    RelevanceScale,
    fuse_relevance,
    rank,
    raw_recency,
)

NOW = datetime(2025, 11, 5, 12, tzinfo=UTC)
DEFAULTS = RankingWeights()
SCALE = RelevanceScale(cosine_unrelated=0.2, cosine_related=0.7, keyword_half=1.0)
EVEN = FusionConfig(agreement=0.5)


def candidate(
    name: str, relevance: float, importance: float, age: timedelta = timedelta(0)
) -> Candidate[str]:
    return Candidate(
        item=name, relevance=Relevance(relevance), importance=importance, last_activity=NOW - age
    )


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


def test_no_age_or_importance_lifts_an_irrelevant_memory() -> None:
    stale_but_relevant = candidate("relevant", 0.3, 0.0, age=timedelta(days=365))
    fresh_important_unrelated = candidate("unrelated", 0.0, 1.0)

    ranked = rank([fresh_important_unrelated, stale_but_relevant], weights=DEFAULTS, now=NOW)

    assert order(ranked) == ["relevant", "unrelated"]
    assert ranked[1].total == 0.0


def test_importance_on_a_ten_point_scale_is_refused_not_allowed_to_dominate() -> None:
    """VirtualWife summed a 1-10 importance with [0, 1] scores; here it must be in [0, 1]."""
    with pytest.raises(InvalidInput):
        candidate("important", relevance=0.0, importance=10.0)


# --- components: absolute, never rescaled per query ---------------------------------------


def test_components_keep_their_absolute_values_whatever_the_other_candidates() -> None:
    alone = rank([candidate("a", 0.3, 0.2, age=timedelta(hours=2))], weights=DEFAULTS, now=NOW)
    crowd = rank(
        [
            candidate("a", 0.3, 0.2, age=timedelta(hours=2)),
            candidate("b", 0.31, 0.21, age=timedelta(hours=2, seconds=7)),
        ],
        weights=DEFAULTS,
        now=NOW,
    )

    parts = alone[0].components
    assert parts == next(entry.components for entry in crowd if entry.item == "a")
    assert (parts.relevance, parts.importance) == (0.3, 0.2)
    assert parts.recency == pytest.approx(0.99**2)
    assert (parts.raw_recency, parts.raw_importance) == (parts.recency, parts.importance)
    factor = (1.0 + 0.1 * 0.99**2 + 1.0 * 0.2) / 2.1
    assert parts.total == pytest.approx(0.3 * factor)


def test_an_unrelated_pool_stays_low_instead_of_its_best_member_getting_one() -> None:
    fused = fuse_relevance(
        {"a": 0.12, "b": 0.15, "c": 0.18}, {}, scale=SCALE, query_terms=4, config=EVEN
    )

    assert all(relevance.value == 0.0 for relevance in fused.values())


def test_recency_decays_per_hour_and_is_full_for_activity_after_now() -> None:
    assert raw_recency(NOW - timedelta(hours=1), now=NOW, decay_per_hour=0.99) == pytest.approx(
        0.99
    )
    assert raw_recency(NOW - timedelta(days=120), now=NOW, decay_per_hour=0.99) == pytest.approx(
        0.99 ** (120 * 24)
    )
    assert raw_recency(NOW + timedelta(days=3), now=NOW, decay_per_hour=0.5) == 1.0


def test_seven_seconds_apart_is_no_difference_in_recency() -> None:
    ranked = rank(
        [candidate("a", 0.5, 0.5), candidate("b", 0.5, 0.5, age=timedelta(seconds=7))],
        weights=DEFAULTS,
        now=NOW,
    )

    recencies = [entry.components.recency for entry in ranked]
    assert recencies[0] - recencies[1] < 1e-4


def test_ties_go_to_relevance_then_importance_then_recent_activity_then_input_order() -> None:
    weights = RankingWeights(relevance=1.0, recency=0.0, importance=0.0)
    newer_first = [candidate("old", 0.5, 0.5, timedelta(days=2)), candidate("new", 0.5, 0.5)]
    assert order(rank(newer_first, weights=weights, now=NOW)) == ["new", "old"]
    same_relevance = [candidate("minor", 0.5, 0.1), candidate("major", 0.5, 0.9)]
    assert order(rank(same_relevance, weights=weights, now=NOW)) == ["major", "minor"]
    twins = [candidate("first", 0.5, 0.5), candidate("second", 0.5, 0.5)]
    assert order(rank(twins, weights=weights, now=NOW)) == ["first", "second"]


def test_rank_of_nothing_is_empty() -> None:
    assert rank([], weights=DEFAULTS, now=NOW) == []


@pytest.mark.parametrize(
    "arguments",
    [
        {"relevance": -1.0},
        {"relevance": 0.0},
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


def test_candidates_refuse_naive_times_and_scores_off_the_unit_interval() -> None:
    with pytest.raises(InvalidInput):
        Candidate(
            item="x", relevance=Relevance(0.5), importance=0.5, last_activity=datetime(2025, 1, 1)
        )
    for relevance, importance in ((math.nan, 0.5), (1.5, 0.5), (0.5, -0.1)):
        with pytest.raises(InvalidInput):
            candidate("x", relevance, importance)
    with pytest.raises(InvalidInput):
        rank([candidate("x", 0.5, 0.5)], weights=DEFAULTS, now=datetime(2025, 1, 1))


# --- properties ---------------------------------------------------------------------------

scores = st.floats(min_value=0.0, max_value=1.0)
ages = st.floats(min_value=-48.0, max_value=24.0 * 400)
rows = st.lists(st.tuples(scores, scores, ages), min_size=1, max_size=12)
weights = st.builds(
    RankingWeights,
    relevance=st.floats(min_value=0.01, max_value=5.0),
    recency=st.floats(min_value=0.0, max_value=5.0),
    importance=st.floats(min_value=0.0, max_value=5.0),
    recency_decay_per_hour=st.floats(min_value=0.5, max_value=1.0),
)


def candidates_from(rows: list[tuple[float, float, float]]) -> list[Candidate[str]]:
    return [
        candidate(f"m{index}", relevance, importance, timedelta(hours=age))
        for index, (relevance, importance, age) in enumerate(rows)
    ]


@settings(deadline=None)
@given(rows=rows, weights=weights)
def test_every_component_and_total_lies_in_the_unit_interval_and_total_bounds_hold(
    rows: list[tuple[float, float, float]], weights: RankingWeights
) -> None:
    floor = weights.relevance / weights.weight_sum
    for entry in rank(candidates_from(rows), weights=weights, now=NOW):
        parts = entry.components
        for value in (parts.relevance, parts.recency, parts.importance, parts.total):
            assert 0.0 <= value <= 1.0
        assert parts.relevance * floor - 1e-9 <= parts.total <= parts.relevance + 1e-9


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
def test_a_candidates_components_do_not_depend_on_the_others(
    rows: list[tuple[float, float, float]], weights: RankingWeights, data: st.DataObject
) -> None:
    chosen = data.draw(st.integers(min_value=0, max_value=len(rows) - 1))
    together = rank(candidates_from(rows), weights=weights, now=NOW)
    (alone,) = rank([candidates_from(rows)[chosen]], weights=weights, now=NOW)

    assert next(entry for entry in together if entry.item == f"m{chosen}") == alone


# --- fusion -------------------------------------------------------------------------------


def test_cosines_map_linearly_between_the_models_unrelated_and_related_levels() -> None:
    assert SCALE.of_cosine(0.1) == 0.0
    assert SCALE.of_cosine(0.45) == pytest.approx(0.5)
    assert SCALE.of_cosine(0.95) == 1.0


def test_bm25_is_taken_per_query_term_and_saturates() -> None:
    assert SCALE.of_keywords(4.0, query_terms=4) == pytest.approx(0.5)
    assert SCALE.of_keywords(4.0, query_terms=1) == pytest.approx(0.8)
    assert SCALE.of_keywords(0.0, query_terms=3) == 0.0
    assert SCALE.of_keywords(1e9, query_terms=1) < 1.0


def test_the_stronger_search_decides_and_agreement_adds_a_share_keeping_the_raw_scores() -> None:
    fused = fuse_relevance(
        {"a": 0.7, "b": 0.45}, {"b": 2.0, "c": 6.0}, scale=SCALE, query_terms=2, config=EVEN
    )

    assert fused["a"] == Relevance(1.0, cosine=0.7, bm25=None)
    assert fused["b"].value == pytest.approx(0.5 + 0.5 * 0.5)
    assert (fused["b"].cosine, fused["b"].bm25) == (0.45, 2.0)
    assert fused["c"].value == pytest.approx(0.75)
    assert fused["c"].raw == 6.0 and fused["a"].raw == 0.7
    assert list(fused) == ["a", "b", "c"]  # 1.0, 0.75, 0.75 (ties by id)


def test_a_memory_one_search_alone_finds_keeps_its_full_relevance() -> None:
    only_meaning = fuse_relevance({"a": 0.45}, {}, scale=SCALE, query_terms=3, config=EVEN)
    no_agreement = fuse_relevance(
        {"a": 0.45}, {"a": 2.0}, scale=SCALE, query_terms=2, config=FusionConfig(agreement=0.0)
    )

    assert only_meaning["a"].value == pytest.approx(0.5)
    assert no_agreement["a"].value == pytest.approx(0.5)


def test_fusion_does_not_depend_on_the_other_hits() -> None:
    small = fuse_relevance({"a": 0.5}, {"a": 3.0}, scale=SCALE, query_terms=3, config=EVEN)
    crowded = fuse_relevance(
        {"a": 0.5, "b": 0.9}, {"a": 3.0, "b": 300.0}, scale=SCALE, query_terms=3, config=EVEN
    )

    assert small["a"] == crowded["a"]


def test_fusion_refuses_non_finite_scores_and_bad_scales() -> None:
    assert fuse_relevance({}, {}, scale=SCALE, query_terms=1, config=EVEN) == {}
    with pytest.raises(InvalidInput):
        fuse_relevance({"a": math.nan}, {}, scale=SCALE, query_terms=1, config=EVEN)
    with pytest.raises(InvalidInput):
        RelevanceScale(cosine_unrelated=0.5, cosine_related=0.5)
    with pytest.raises(InvalidInput):
        RelevanceScale(cosine_unrelated=0.1, cosine_related=0.5, keyword_half=0.0)
    for agreement in (-0.1, 1.5, math.nan):
        with pytest.raises(InvalidInput):
            FusionConfig(agreement=agreement)


fusion_scores = st.dictionaries(
    st.sampled_from("abcdef"), st.floats(min_value=-1.0, max_value=1.0), max_size=6
)
bm25_scores = st.dictionaries(
    st.sampled_from("abcdef"), st.floats(min_value=0.0, max_value=1e6), max_size=6
)


@settings(deadline=None)
@given(vector=fusion_scores, keyword=bm25_scores, terms=st.integers(min_value=0, max_value=40))
def test_fused_relevance_lies_in_the_unit_interval_and_is_best_first(
    vector: dict[str, float], keyword: dict[str, float], terms: int
) -> None:
    fused = fuse_relevance(vector, keyword, scale=SCALE, query_terms=terms, config=EVEN)

    values = [relevance.value for relevance in fused.values()]
    assert set(fused) == {*vector, *keyword}
    assert all(0.0 <= value <= 1.0 for value in values)
    assert values == sorted(values, reverse=True)

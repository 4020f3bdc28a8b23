from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.quality.metrics import (
    QuestionScore,
    all_at,
    by_category,
    distinct,
    hit_at,
    ndcg_at,
    recall_at,
    reciprocal_rank,
    score_ranking,
    to_groups,
)

IDS = st.sampled_from([f"u{index}" for index in range(12)])
RANKINGS = st.lists(IDS, max_size=20)
EVIDENCE = st.frozensets(IDS, min_size=1, max_size=5)
KS = st.integers(min_value=1, max_value=15)


def test_recall_counts_the_share_of_evidence_in_the_top_k() -> None:
    ranking = ["a", "b", "c", "d"]
    assert recall_at(ranking, frozenset({"b", "d", "z"}), 2) == pytest.approx(1 / 3)
    assert recall_at(ranking, frozenset({"b", "d", "z"}), 4) == pytest.approx(2 / 3)


def test_hit_and_all_need_any_and_every_evidence_unit() -> None:
    ranking = ["a", "b", "c"]
    assert hit_at(ranking, frozenset({"c", "z"}), 3) == 1.0
    assert hit_at(ranking, frozenset({"c", "z"}), 2) == 0.0
    assert all_at(ranking, frozenset({"a", "c"}), 3) == 1.0
    assert all_at(ranking, frozenset({"a", "c"}), 2) == 0.0


def test_reciprocal_rank_is_of_the_first_relevant_unit() -> None:
    assert reciprocal_rank(["a", "b", "c"], frozenset({"c", "b"})) == pytest.approx(0.5)
    assert reciprocal_rank(["a"], frozenset({"z"})) == 0.0


def test_ndcg_follows_the_longmemeval_formula() -> None:
    # relevant at ranks 2 and 3; ideal puts two relevant at ranks 1 and 2
    actual = 1 / math.log2(2) + 1 / math.log2(3)
    ideal = 1 + 1 / math.log2(2)
    assert ndcg_at(["x", "a", "b"], frozenset({"a", "b"}), 3) == pytest.approx(actual / ideal)
    assert ndcg_at(["a", "b", "x"], frozenset({"a", "b"}), 3) == pytest.approx(1.0)


def test_repeated_ids_count_at_their_first_position_only() -> None:
    ranking = ["a", "a", "a", "b"]
    assert distinct(ranking) == ["a", "b"]
    assert hit_at(ranking, frozenset({"b"}), 2) == 1.0
    assert reciprocal_rank(ranking, frozenset({"b"})) == pytest.approx(0.5)


def test_metrics_refuse_empty_evidence_and_k_below_one() -> None:
    with pytest.raises(ValueError):
        recall_at(["a"], frozenset(), 1)
    with pytest.raises(ValueError):
        hit_at(["a"], frozenset({"a"}), 0)


def test_units_become_sessions_by_first_appearance() -> None:
    groups = {"s1_1": "s1", "s2_1": "s2", "s1_3": "s1", "s3_1": "s3"}
    assert to_groups(["s1_1", "s2_1", "s1_3", "s3_1"], groups) == ["s1", "s2", "s3"]


@given(RANKINGS, EVIDENCE, KS)
def test_all_recall_hit_are_ordered_and_bounded(
    ranking: list[str], evidence: frozenset[str], k: int
) -> None:
    every, share, any_hit = (
        all_at(ranking, evidence, k),
        recall_at(ranking, evidence, k),
        hit_at(ranking, evidence, k),
    )
    assert 0.0 <= every <= share <= any_hit <= 1.0
    assert 0.0 <= ndcg_at(ranking, evidence, k) <= 1.0 + 1e-12


@given(RANKINGS, EVIDENCE, KS)
def test_metrics_never_fall_as_k_grows(
    ranking: list[str], evidence: frozenset[str], k: int
) -> None:
    for metric in (recall_at, hit_at, all_at):
        assert metric(ranking, evidence, k) <= metric(ranking, evidence, k + 1)


@given(EVIDENCE, KS)
def test_evidence_first_is_perfect(evidence: frozenset[str], k: int) -> None:
    ranking = [*sorted(evidence), "other1", "other2"]
    assert ndcg_at(ranking, evidence, k) == pytest.approx(1.0)
    assert recall_at(ranking, evidence, k) == pytest.approx(min(1.0, k / len(evidence)))
    assert reciprocal_rank(ranking, evidence) == 1.0


def test_score_ranking_names_every_metric_per_k() -> None:
    scores = score_ranking(["a", "b"], frozenset({"b"}), ks=(1, 2))
    assert scores == {
        "mrr": 0.5,
        "recall@1": 0.0,
        "hit@1": 0.0,
        "all@1": 0.0,
        "ndcg@1": 0.0,
        "recall@2": 1.0,
        "hit@2": 1.0,
        "all@2": 1.0,
        "ndcg@2": pytest.approx(1 / math.log2(2)),
    }


def test_by_category_averages_each_category_and_all_without_excluded() -> None:
    rows = [
        QuestionScore("q1", "single", {"hit@1": 1.0}),
        QuestionScore("q2", "single", {"hit@1": 0.0}),
        QuestionScore("q3", "adversarial", {"hit@1": 1.0}),
    ]
    table = by_category(rows, include=lambda category: category != "adversarial")
    assert table["single"] == {"hit@1": 0.5, "n": 2.0}
    assert table["adversarial"] == {"hit@1": 1.0, "n": 1.0}
    assert table["all"] == {"hit@1": 0.5, "n": 2.0}

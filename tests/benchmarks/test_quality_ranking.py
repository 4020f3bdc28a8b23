"""The fast grid ranking must order every pool exactly as omoide's own ``rank`` does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.quality.dataset import Probe, Unit
from benchmarks.quality.harness import UNIT_KEY, Pool
from benchmarks.quality.systems import (
    FAMILIES,
    Family,
    PoolRanker,
    SystemKind,
    SystemSpec,
    config_label,
    default_config,
    exact_order,
    fusion_grid,
    omoide_spec,
    ranking_grid,
    recall_config,
)
from benchmarks.quality.variants import LocalBM25, fuse_max_scaled
from omoide.domain import Episode, Scope
from omoide.memory.config import MemoryConfig
from omoide.memory.ranking import FusionConfig, FusionMethod, RankingWeights
from omoide.store.base import Hit

NOW = datetime(2024, 1, 10, tzinfo=UTC)
SCOPE = Scope("bench", "viewer")


def episode(index: int, importance: float, hours_ago: int, recalled: int | None) -> Episode:
    recorded = NOW - timedelta(hours=hours_ago)
    return Episode(
        id=f"e{index:02d}",
        scope=SCOPE,
        user_message=f"turn {index}",
        bot_message="",
        recorded_at=recorded,
        importance=importance,
        last_recalled_at=None if recalled is None else recorded + timedelta(hours=recalled),
        metadata={UNIT_KEY: f"u{index}"},
    )


EPISODES = st.builds(
    episode,
    index=st.integers(0, 40),
    importance=st.sampled_from([0.1, 0.3, 0.3, 0.6, 1.0]),
    hours_ago=st.integers(0, 2000),
    recalled=st.none() | st.integers(0, 5),
)
SCORES = st.sampled_from([0.1, 0.5, 0.5, 0.9, 3.0])


@st.composite
def pools(draw: st.DrawFn) -> Pool:
    found = {item.id: item for item in draw(st.lists(EPISODES, min_size=1, max_size=12))}
    items = list(found.values())
    vector = [Hit(item, draw(SCORES)) for item in items if draw(st.booleans())]
    keyword = [Hit(item, draw(SCORES)) for item in items if draw(st.booleans())]
    stemmed = [Hit(item, draw(SCORES)) for item in items if draw(st.booleans())]
    probe = Probe("p", "question", NOW, frozenset({"u1"}), "c")
    return Pool(probe, tuple(vector), tuple(keyword), {"unstemmed": tuple(stemmed)})


CONFIGS = st.builds(
    recall_config,
    fusion=st.builds(
        FusionConfig,
        method=st.sampled_from(list(FusionMethod)),
        vector_weight=st.sampled_from([0.0, 0.3, 0.7, 1.0]),
        keyword_weight=st.sampled_from([0.3, 1.0]),
    ),
    weights=st.builds(
        RankingWeights,
        relevance=st.sampled_from([0.5, 1.0]),
        recency=st.sampled_from([0.0, 0.25, 1.0]),
        importance=st.sampled_from([0.0, 0.5]),
        recency_decay_per_hour=st.sampled_from([0.99, 0.9]),
    ),
)


@settings(max_examples=150, deadline=None)
@given(pools(), st.lists(st.tuples(CONFIGS, st.sampled_from(FAMILIES)), min_size=1, max_size=4))
def test_fast_order_equals_omoide_rank(
    pool: Pool, configs: list[tuple[MemoryConfig, Family]]
) -> None:
    ranker = PoolRanker(pool)
    for config, family in configs:
        spec = omoide_spec("hash", config, family)
        assert ranker.order(spec) == exact_order(spec, pool)


def test_max_scaling_keeps_the_share_of_the_best_score() -> None:
    fused = fuse_max_scaled(
        {"a": 0.8, "b": 0.4, "c": -0.2},
        {"b": 10.0, "d": 5.0},
        config=FusionConfig(vector_weight=0.5, keyword_weight=0.5),
    )
    assert fused == pytest.approx({"b": 0.75, "a": 0.5, "d": 0.25, "c": 0.0})
    assert list(fused) == ["b", "a", "d", "c"]


def test_baselines_keep_the_store_order() -> None:
    first, second = episode(1, 0.3, 5, None), episode(2, 0.9, 1, None)
    probe = Probe("p", "q", NOW, frozenset({"u1"}), "c")
    pool = Pool(probe, (Hit(second, 0.9), Hit(first, 0.2)), (Hit(first, 4.0),), {"unstemmed": ()})
    ranker = PoolRanker(pool)
    assert ranker.order(SystemSpec(SystemKind.KEYWORD)) == ["u1"]
    unstemmed = SystemSpec(SystemKind.KEYWORD, family=Family(keywords="unstemmed"))
    assert unstemmed.name == "bm25:unstemmed"
    assert ranker.order(SystemSpec(SystemKind.VECTOR, embedder="hash")) == ["u2", "u1"]


def test_grids_cover_both_methods_and_name_configs_uniquely() -> None:
    stage_one = fusion_grid()
    methods = {config.fusion.method for config in stage_one}
    assert methods == set(FusionMethod)
    labels = [config_label(config) for config in stage_one]
    assert len(labels) == len(set(labels))
    stage_two = ranking_grid([stage_one[0].fusion])
    assert {config.ranking.recency for config in stage_two} == {0.0, 0.1, 0.25, 0.5}
    assert all(config.recall.episode_candidates == 50 for config in stage_two)
    assert config_label(default_config()) in {config_label(c) for c in stage_two}


def test_local_bm25_ranks_by_rare_shared_words_and_stems() -> None:
    start = NOW - timedelta(days=3)
    texts = ["I adopted a cat", "We talked about the adoption agency", "Just chatting", "Later"]
    units = [
        Unit(f"u{index}", text, start + timedelta(hours=index), "S1")
        for index, text in enumerate(texts)
    ]
    plain = LocalBM25(units, stem_words=False)
    assert [unit for unit, _ in plain.search("adoption", until=NOW, limit=5)] == ["u1"]
    stemmed = LocalBM25(units)
    assert {unit for unit, _ in stemmed.search("adoption", until=NOW, limit=5)} == {"u0", "u1"}
    early = start + timedelta(minutes=30)
    ((only, score),) = stemmed.search("adoption", until=early, limit=5)
    assert only == "u0"
    assert score == pytest.approx(stemmed.search("adopt", until=early, limit=5)[0][1])

"""The benchmark's rankings must be omoide's: the fast grid ranking orders every pool
exactly as ``rank`` does, and the baselines keep the store's order."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.quality.dataset import Probe, Unit
from benchmarks.quality.harness import UNIT_KEY, Pool
from benchmarks.quality.systems import (
    DEPTH,
    PoolRanker,
    SystemKind,
    SystemSpec,
    config_label,
    default_name,
    default_spec,
    exact_order,
    grid,
)
from benchmarks.quality.variants import LocalBM25
from omoide.domain import Episode, Scope
from omoide.memory.config import MemoryConfig
from omoide.memory.ranking import FusionConfig, RankingWeights, RelevanceScale
from omoide.store.base import Hit

NOW = datetime(2024, 1, 10, tzinfo=UTC)
SCOPE = Scope("bench", "viewer")
SCALE = RelevanceScale(cosine_unrelated=0.2, cosine_related=0.7)


def episode(index: int, importance: float, hours_ago: int, recalled: int | None) -> Episode:
    recorded = NOW - timedelta(hours=hours_ago)
    return Episode(
        id=f"e{index:02d}",
        scope=SCOPE,
        user_message=f"turn {index}" + ("?" if index % 3 == 0 else ""),
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
COSINES = st.sampled_from([0.1, 0.3, 0.45, 0.45, 0.7, 0.9])
BM25 = st.sampled_from([0.5, 2.0, 2.0, 6.0, 15.0])


@st.composite
def pools(draw: st.DrawFn) -> Pool:
    found = {item.id: item for item in draw(st.lists(EPISODES, min_size=1, max_size=12))}
    items = list(found.values())
    vector = [Hit(item, draw(COSINES)) for item in items if draw(st.booleans())]
    keyword = [Hit(item, draw(BM25)) for item in items if draw(st.booleans())]
    ordered = sorted(items, key=lambda item: (item.recorded_at, item.id))
    neighbours = {
        item.id: tuple(ordered[max(0, index - 1) : index] + ordered[index + 1 : index + 2])
        for index, item in enumerate(ordered)
    }
    probe = Probe("p", "question", NOW, frozenset({"u1"}), "c")
    terms = draw(st.integers(1, 6))
    return Pool(probe, tuple(vector), tuple(keyword), SCALE, terms, neighbours=neighbours)


SPECS = st.builds(
    SystemSpec,
    kind=st.just(SystemKind.OMOIDE),
    embedder=st.just("hash"),
    config=st.builds(
        MemoryConfig,
        fusion=st.builds(
            FusionConfig,
            agreement=st.sampled_from([0.0, 0.3, 0.7, 1.0]),
        ),
        ranking=st.builds(
            RankingWeights,
            relevance=st.sampled_from([0.5, 1.0]),
            recency=st.sampled_from([0.0, 0.1, 1.0]),
            importance=st.sampled_from([0.0, 0.25, 2.0]),
            recency_decay_per_hour=st.sampled_from([0.99, 0.9]),
        ),
    ),
    keyword_half=st.sampled_from([0.5, 1.0, 4.0]),
)


@settings(max_examples=200, deadline=None)
@given(pools(), st.lists(SPECS, min_size=1, max_size=4))
def test_fast_order_equals_omoide_rank(pool: Pool, specs: list[SystemSpec]) -> None:
    ranker = PoolRanker(pool)
    for spec in [*specs, default_spec("hash")]:
        assert ranker.order(spec) == exact_order(spec, pool)


def stored(index: int, importance: float, hours_ago: int, text: str = "") -> Episode:
    return Episode(
        id=f"e{index}",
        scope=SCOPE,
        user_message=text or f"turn {index}",
        bot_message="",
        recorded_at=NOW - timedelta(hours=hours_ago),
        importance=importance,
        metadata={UNIT_KEY: f"u{index}"},
    )


def test_importance_and_the_keyword_half_reorder_as_configured() -> None:
    plain, important = stored(1, 0.0, 1), stored(2, 1.0, 1)
    probe = Probe("p", "q", NOW, frozenset({"u1"}), "c")
    pool = Pool(probe, (Hit(plain, 0.46), Hit(important, 0.45)), (), SCALE, 1)
    ranker = PoolRanker(pool)
    assert ranker.order(default_spec("hash")) == ["u2", "u1"]
    flat = MemoryConfig(ranking=RankingWeights(recency=0.0, importance=0.0))
    assert ranker.order(SystemSpec(SystemKind.OMOIDE, "hash", flat)) == ["u1", "u2"]

    by_words = Pool(probe, (Hit(plain, 0.6),), (Hit(important, 3.0),), SCALE, 1)
    soft = SystemSpec(SystemKind.OMOIDE, "hash", flat, keyword_half=0.5)
    strict = SystemSpec(SystemKind.OMOIDE, "hash", flat, keyword_half=4.0)
    assert PoolRanker(by_words).order(soft) == ["u2", "u1"]
    assert PoolRanker(by_words).order(strict) == ["u1", "u2"]


def test_the_answer_to_a_best_asking_episode_joins_the_ranking() -> None:
    asks, answer = stored(1, 0.5, 3, "any plans for the summer?"), stored(2, 0.5, 3)
    answer = replace(answer, recorded_at=asks.recorded_at + timedelta(minutes=1))
    probe = Probe("p", "summer plans", NOW, frozenset({"u2"}), "c")
    pool = Pool(
        probe, (Hit(asks, 0.7),), (Hit(asks, 5.0),), SCALE, 2, neighbours={asks.id: (answer,)}
    )
    assert PoolRanker(pool).order(default_spec("hash")) == ["u1", "u2"]


def test_baselines_keep_the_store_order() -> None:
    first, second = stored(1, 0.3, 5), stored(2, 0.9, 1)
    probe = Probe("p", "q", NOW, frozenset({"u1"}), "c")
    pool = Pool(probe, (Hit(second, 0.9), Hit(first, 0.2)), (Hit(first, 4.0),), SCALE, 1)
    ranker = PoolRanker(pool)
    assert ranker.order(SystemSpec(SystemKind.KEYWORD)) == ["u1"]
    assert ranker.order(SystemSpec(SystemKind.VECTOR, embedder="hash")) == ["u2", "u1"]


def test_the_grid_names_configs_uniquely_and_holds_todays_defaults() -> None:
    specs = grid("use")
    names = [spec.name for spec in specs]
    assert len(names) == len(set(names)) == 5 * 4 * 2 * 3
    assert default_name("use") in names
    assert default_name("use") == f"omoide:use {config_label(MemoryConfig())}"
    assert {spec.keyword_half for spec in specs} == {0.5, 1.0, 2.0, 4.0}
    assert {spec.config.ranking.recency for spec in specs} == {0.0, RankingWeights().recency}
    assert DEPTH >= 10


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

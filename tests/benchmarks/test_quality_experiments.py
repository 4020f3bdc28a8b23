"""The experiment variants: z-score fusion, variant selection, and ranking a pool."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.quality.dataset import Probe, Unit
from benchmarks.quality.experiment_variants import chosen, fuse_z_scores, omoide
from benchmarks.quality.harness import UNIT_KEY, Pool
from benchmarks.quality.variants import LocalBM25
from omoide.domain import Episode, Scope
from omoide.errors import ConfigError
from omoide.memory.ranking import FusionConfig
from omoide.store.base import Hit

NOW = datetime(2025, 6, 1, tzinfo=UTC)
CONFIG = FusionConfig()


def test_z_fusion_rewards_standing_out_in_both_lists() -> None:
    vector = {"a": 0.9, "b": 0.5, "c": 0.4, "d": 0.41}
    keyword = {"a": 2.0, "b": 9.0, "c": 1.0}

    fused = fuse_z_scores(vector, keyword, config=CONFIG)

    assert list(fused)[:2] == ["b", "a"]
    assert fused["b"] == 1.0
    assert min(fused.values()) == 0.0


def test_z_fusion_gives_a_missing_id_the_lowest_score_of_that_list() -> None:
    vector = {"a": 0.9, "b": 0.2}
    keyword = {"a": 3.0, "b": 1.0}
    with_c = fuse_z_scores({**vector, "c": 0.2}, keyword, config=CONFIG)

    assert with_c["c"] == with_c["b"] == 0.0


SCORES = st.dictionaries(
    st.sampled_from("abcdefgh"), st.floats(min_value=-5, max_value=50), max_size=8
)


@given(SCORES, SCORES)
def test_z_fusion_is_in_unit_range_and_covers_every_id(
    vector: dict[str, float], keyword: dict[str, float]
) -> None:
    fused = fuse_z_scores(vector, keyword, config=CONFIG)

    assert set(fused) == {*vector, *keyword}
    assert all(0.0 <= value <= 1.0 for value in fused.values())
    assert list(fused.values()) == sorted(fused.values(), reverse=True)


def test_unknown_variant_names_are_refused() -> None:
    assert [variant.name for variant in chosen("today,c30")] == ["today", "c30"]
    with pytest.raises(ConfigError, match="nope"):
        chosen("today,nope")


def stored(unit: str, text: str, age_hours: float) -> Episode:
    return Episode(
        id=f"e-{unit}",
        scope=Scope("haru", "viewer"),
        user_message=text,
        bot_message="",
        recorded_at=NOW - timedelta(hours=age_hours),
        importance=0.5,
        metadata={UNIT_KEY: unit},
    )


def test_variants_choose_stemmed_or_unstemmed_keyword_hits_and_cut_candidates() -> None:
    first, second, third = stored("u1", "one", 5), stored("u2", "two", 4), stored("u3", "x", 3)
    far = stored("u4", "far", 6)
    probe = Probe("q", "question", NOW, frozenset({"u1"}), "single-hop")
    pool = Pool(
        probe,
        vector=(Hit(third, 0.9), Hit(second, 0.8), Hit(first, 0.8), Hit(far, 0.0)),
        keyword=(Hit(second, 5.0),),
        variants={"unstemmed": (Hit(first, 5.0),)},
    )

    assert omoide()(pool)[0] == "u2"
    assert omoide(keywords="unstemmed")(pool)[0] == "u1"
    assert omoide(candidates=1)(pool) == ["u3", "u2"]


def test_expanded_search_finds_units_sharing_terms_with_the_first_hits() -> None:
    start = NOW - timedelta(days=1)
    texts = [
        "We visited the adoption agency downtown",
        "The agency called back about the paperwork",
        *(f"Filler message number {index}" for index in range(8)),
    ]
    units = [
        Unit(f"u{index}", text, start + timedelta(hours=index), "S1")
        for index, text in enumerate(texts)
    ]
    search = LocalBM25(units)

    plain = [unit for unit, _ in search.search("adoption", until=NOW, limit=5)]
    expanded = search.expanded_search("adoption", until=NOW, limit=5, feedback=1, extra=3)

    assert plain == ["u0"]
    assert [unit for unit, _ in expanded][:2] == ["u0", "u1"]
    assert expanded[1][1] < expanded[0][1]

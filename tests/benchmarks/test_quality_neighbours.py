"""Conversation-neighbour re-ranking and contextual document vectors (experiments)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from benchmarks.quality.contextual import CONTEXTUAL, CosineIndex, contextual_texts
from benchmarks.quality.dataset import Dataset, Haystack, Probe, Unit
from benchmarks.quality.experiment_variants import chosen, contextual_variants
from benchmarks.quality.harness import UNIT_KEY, Pool
from benchmarks.quality.neighbours import Timeline, expand, propagate, timelines
from omoide.domain import Episode, Scope
from omoide.errors import ConfigError
from omoide.memory.ranking import RelevanceScale
from omoide.store.base import Hit

NOW = datetime(2025, 6, 1, tzinfo=UTC)
START = NOW - timedelta(days=2)
SCOPE = Scope("haru", "viewer")


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def test_timeline_orders_by_recorded_time_and_hides_later_and_distant_units() -> None:
    timeline = Timeline.of([("c", at(20)), ("a", at(0)), ("b", at(10)), ("d", at(7200))])

    assert timeline.unit_ids == ("a", "b", "c", "d")
    assert timeline.neighbours("b", until=NOW) == ["a", "c"]
    assert timeline.neighbours("a", until=NOW) == ["b"]
    assert timeline.neighbours("b", until=at(15)) == ["a"]
    assert timeline.neighbours("c", until=NOW, max_gap=timedelta(hours=1)) == ["b"]


NEXT = {"a": ["b"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c"], "x": []}


def test_propagation_lifts_the_turn_after_a_strong_match() -> None:
    ranked = [("a", 1.0), ("x", 0.5), ("b", 0.45), ("c", 0.1)]

    lifted = propagate(ranked, NEXT.__getitem__, weight=0.3)

    assert [unit for unit, _ in lifted] == ["a", "b", "x", "c"]
    assert dict(lifted)["b"] == pytest.approx(0.75)
    assert dict(lifted)["a"] == pytest.approx(1.135)
    assert propagate(ranked, NEXT.__getitem__, weight=0.0) == ranked


def test_expansion_adds_the_neighbours_of_the_best_candidates_only() -> None:
    ranked = [("b", 1.0), ("x", 0.7), ("d", 0.6)]

    expanded = expand(ranked, NEXT.__getitem__, top=1, fraction=0.5)

    assert expanded == [("b", 1.0), ("x", 0.7), ("d", 0.6), ("a", 0.5), ("c", 0.5)]
    raised = expand(ranked, NEXT.__getitem__, top=1, fraction=0.8)
    assert [unit for unit, _ in raised] == ["b", "a", "c", "x", "d"]


def episode(unit: str, text: str, seconds: float) -> Episode:
    return Episode(
        id=f"e-{unit}",
        scope=SCOPE,
        user_message=text,
        bot_message="",
        recorded_at=at(seconds),
        importance=0.5,
        metadata={UNIT_KEY: unit},
    )


TURNS = [
    ("asks", "Haru: what are your plans for the summer?", 0),
    ("answers", "Viewer: researching adoption agencies", 1),
    ("other", "Viewer: summer is hot, I stay home", 3600),
    ("filler", "Viewer: nice weather", 7200),
]


def pool_and_timelines() -> tuple[Pool, dict[Scope, Timeline]]:
    stored = {unit: episode(unit, text, seconds) for unit, text, seconds in TURNS}
    units = tuple(Unit(unit, text, at(seconds), "S1") for unit, text, seconds in TURNS)
    probe = Probe("q", "plans for the summer", NOW, frozenset({"answers"}), "single-hop")
    pool = Pool(
        probe,
        vector=(Hit(stored["asks"], 0.9), Hit(stored["other"], 0.4), Hit(stored["filler"], 0.1)),
        keyword=(Hit(stored["asks"], 6.0), Hit(stored["other"], 1.5)),
        scale=RelevanceScale(cosine_unrelated=0.2, cosine_related=0.7),
        query_terms=3,
        variants={CONTEXTUAL: (Hit(stored["answers"], 0.8), Hit(stored["asks"], 0.7))},
    )
    dataset = Dataset("talk", (Haystack("viewer", "en", units, (probe,)),))
    return pool, timelines([(dataset, "haru")])


def test_neighbour_variants_bring_the_unpooled_answer_into_the_ranking() -> None:
    pool, found = pool_and_timelines()
    variants = {variant.name: variant for variant in chosen("today,nb0.5,ex3 f0.8", found)}

    assert "answers" not in variants["today"].order(pool)
    assert variants["nb0.5"].order(pool) == variants["today"].order(pool)
    assert variants["ex3 f0.8"].order(pool)[:2] == ["asks", "answers"]


def test_neighbour_variants_need_the_pool_scope_timeline() -> None:
    pool, _ = pool_and_timelines()
    (variant,) = chosen("ex3 f0.5")

    with pytest.raises(ConfigError, match="no timeline"):
        variant.order(pool)


def test_contextual_variants_rank_with_the_contextual_vector_hits() -> None:
    pool, found = pool_and_timelines()
    variants = {variant.name: variant for variant in contextual_variants(found)}

    assert variants["ctx vector"].order(pool) == ["answers", "asks"]
    assert "answers" in variants["ctx"].order(pool)
    assert "answers" not in variants["today"].order(pool)


def test_contextual_text_carries_the_previous_unit_of_the_same_sitting() -> None:
    units = [Unit(unit, text, at(seconds), "S1") for unit, text, seconds in TURNS]

    texts = contextual_texts(list(reversed(units)), max_gap=timedelta(minutes=30))

    assert texts["asks"] == "Haru: what are your plans for the summer?"
    assert texts["answers"] == (
        "Haru: what are your plans for the summer?\nViewer: researching adoption agencies"
    )
    assert texts["other"] == "Viewer: summer is hot, I stay home"


def test_cosine_index_ranks_by_similarity_among_units_recorded_in_time() -> None:
    units = [Unit(f"u{index}", "", at(index), "S1") for index in range(3)]
    vectors = np.array([[1.0, 0.0], [3.0, 3.0], [0.0, 2.0]], dtype=np.float32)
    index = CosineIndex.of(units, vectors)

    found = index.search(np.array([0.0, 1.0], dtype=np.float32), until=at(1), limit=5)

    assert [unit for unit, _ in found] == ["u1", "u0"]
    assert found[0][1] == pytest.approx(2**-0.5)
    assert found[1][1] == pytest.approx(0.0)

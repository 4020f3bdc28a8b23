"""The experiment variants: variant selection, and ranking a pool with omoide's ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from benchmarks.quality.dataset import Probe, Unit
from benchmarks.quality.experiment_variants import chosen, omoide
from benchmarks.quality.harness import UNIT_KEY, Pool
from benchmarks.quality.variants import LocalBM25
from omoide.domain import Episode, Scope
from omoide.errors import ConfigError
from omoide.memory.ranking import FusionConfig, RelevanceScale
from omoide.store.base import Hit

NOW = datetime(2025, 6, 1, tzinfo=UTC)
SCALE = RelevanceScale(cosine_unrelated=0.2, cosine_related=0.7)


def test_unknown_variant_names_are_refused() -> None:
    assert [variant.name for variant in chosen("today,c50,h2")] == ["today", "c50", "h2"]
    with pytest.raises(ConfigError, match="rrf60"):
        chosen("rrf60")
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
        vector=(Hit(third, 0.6), Hit(second, 0.45), Hit(first, 0.45), Hit(far, 0.0)),
        keyword=(Hit(second, 5.0),),
        scale=SCALE,
        query_terms=1,
        variants={"unstemmed": (Hit(first, 5.0),)},
    )

    assert omoide()(pool)[0] == "u2"
    assert omoide(keywords="unstemmed")(pool)[0] == "u1"
    assert omoide(candidates=1)(pool) == ["u3", "u2"]
    by_meaning = FusionConfig(agreement=0.0)
    assert omoide(fusion=by_meaning)(pool)[:2] == ["u3", "u2"]


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

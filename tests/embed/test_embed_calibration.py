"""Duplicate-threshold calibration: the choice rule, real models, and the file cache."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.embed import (
    CALIBRATION_SET_ID,
    DuplicateThreshold,
    E5Embedder,
    HashingEmbedder,
    ThresholdCache,
    USEEmbedder,
    cached_duplicate_threshold,
    calibrate_duplicate_threshold,
)
from omoide.embed.calibration import calibration_set_id, choose_threshold
from omoide.embed.calibration_pairs import DIFFERENT_FACT_PAIRS, PARAPHRASE_PAIRS
from omoide.errors import BackendError, InvalidInput

pytestmark = pytest.mark.anyio

scores = st.lists(st.floats(-1.0, 1.0, allow_nan=False), min_size=1, max_size=30)


def test_the_built_in_set_is_multilingual_and_balanced() -> None:
    assert len(PARAPHRASE_PAIRS) >= 30
    assert len(DIFFERENT_FACT_PAIRS) >= 30
    texts = " ".join(text for pair in PARAPHRASE_PAIRS + DIFFERENT_FACT_PAIRS for text in pair)
    for sample in ("League of Legends", "롤", "猫", "我"):  # en, ko, ja, zh
        assert sample in texts


@settings(max_examples=200, deadline=None)
@given(
    paraphrases=st.lists(st.floats(0.5, 1.0), min_size=1, max_size=30),
    different=st.lists(st.floats(-1.0, 0.49), min_size=1, max_size=30),
    cost=st.floats(0.1, 10.0),
)
def test_separable_sets_are_separated(
    paraphrases: list[float], different: list[float], cost: float
) -> None:
    threshold = choose_threshold(
        np.asarray(paraphrases), np.asarray(different), false_merge_cost=cost
    )
    assert all(score >= threshold for score in paraphrases)
    assert all(score < threshold for score in different)
    assert threshold == pytest.approx((min(paraphrases) + max(different)) / 2)


@settings(max_examples=200, deadline=None)
@given(paraphrases=scores, different=scores, cost=st.floats(0.1, 10.0))
def test_no_other_threshold_costs_less(
    paraphrases: list[float], different: list[float], cost: float
) -> None:
    para, diff = np.asarray(paraphrases), np.asarray(different)

    def cost_at(threshold: float) -> float:
        return float((para < threshold).sum() + cost * (diff >= threshold).sum())

    chosen = cost_at(choose_threshold(para, diff, false_merge_cost=cost))
    every_threshold = [*paraphrases, *different, 1.5, -1.5]
    assert chosen <= min(cost_at(threshold) for threshold in every_threshold) + 1e-9


def test_ties_go_to_the_middle_of_the_widest_gap() -> None:
    threshold = choose_threshold(
        np.asarray([0.8, 0.9]), np.asarray([0.2, 0.3]), false_merge_cost=1.0
    )
    assert threshold == pytest.approx(0.55)


async def test_use_and_e5_need_different_thresholds(
    use_embedder: USEEmbedder, e5_embedder: E5Embedder
) -> None:
    use = await calibrate_duplicate_threshold(use_embedder)
    e5 = await calibrate_duplicate_threshold(e5_embedder)
    assert use.model_name == use_embedder.model_name
    assert e5.model_name == e5_embedder.model_name
    # e5 puts even different facts above 0.9: its threshold sits far above USE's.
    assert e5.different_facts.median > use.different_facts.median + 0.1
    assert e5.threshold > use.threshold + 0.05
    for result in (use, e5):
        assert result.accuracy > 0.65  # most pairs land on the right side
        assert result.paraphrases.mean > result.different_facts.mean
        assert result.paraphrases.low_quantile < result.threshold
        assert result.threshold <= result.paraphrases.maximum
        assert result.calibration_set == CALIBRATION_SET_ID
        total = result.paraphrases.count + result.different_facts.count
        errors = result.missed_paraphrases + result.false_merges
        assert result.accuracy == pytest.approx((total - errors) / total)


async def test_a_higher_false_merge_cost_never_lowers_the_threshold(
    use_embedder: USEEmbedder,
) -> None:
    lenient = await calibrate_duplicate_threshold(use_embedder, false_merge_cost=0.25)
    strict = await calibrate_duplicate_threshold(use_embedder, false_merge_cost=8.0)
    assert strict.threshold >= lenient.threshold
    assert strict.false_merges <= lenient.false_merges


async def test_custom_pairs_are_used() -> None:
    result = await calibrate_duplicate_threshold(
        HashingEmbedder(512),
        paraphrases=[("red apple pie", "apple pie red"), ("blue sky today", "today blue sky")],
        different_facts=[("red apple pie", "green tea"), ("blue sky", "dark night")],
    )
    assert result.accuracy == 1.0
    assert result.is_duplicate(0.999)
    assert not result.is_duplicate(0.0)
    assert result.calibration_set != CALIBRATION_SET_ID


@pytest.mark.parametrize(
    "options",
    [
        {"paraphrases": []},
        {"different_facts": [("only one",)]},
        {"false_merge_cost": 0.0},
        {"false_merge_cost": float("inf")},
    ],
)
async def test_bad_calibration_input_is_refused(options: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        await calibrate_duplicate_threshold(HashingEmbedder(), **options)  # type: ignore[arg-type]


def test_calibration_set_id_changes_with_any_pair() -> None:
    changed = (*PARAPHRASE_PAIRS[:-1], ("another", "pair"))
    assert calibration_set_id(PARAPHRASE_PAIRS, DIFFERENT_FACT_PAIRS) == CALIBRATION_SET_ID
    assert calibration_set_id(changed, DIFFERENT_FACT_PAIRS) != CALIBRATION_SET_ID


async def test_cache_round_trips_a_result(tmp_path: Path) -> None:
    result = await calibrate_duplicate_threshold(HashingEmbedder(128))
    cache = ThresholdCache(tmp_path / "nested" / "thresholds.json")
    assert await cache.load(result.model_name) is None
    await cache.save(result)
    assert await ThresholdCache(cache.path).load(result.model_name) == result
    assert await cache.load(result.model_name, false_merge_cost=1.0) is None
    assert await cache.load(result.model_name, calibration_set="other") is None


async def test_cached_threshold_is_computed_once(tmp_path: Path) -> None:
    cache = ThresholdCache(tmp_path / "thresholds.json")
    first = await cached_duplicate_threshold(HashingEmbedder(64), cache)
    stored = json.loads(cache.path.read_text(encoding="utf-8"))
    (key,) = stored["entries"]
    stored["entries"][key]["threshold"] = 0.123  # prove the second answer is read back
    cache.path.write_text(json.dumps(stored), encoding="utf-8")
    second = await cached_duplicate_threshold(HashingEmbedder(64), cache)
    assert second.threshold == 0.123
    assert second.model_name == first.model_name
    other = await cached_duplicate_threshold(HashingEmbedder(32), cache)
    assert other.model_name == "hashing:32"
    assert len(json.loads(cache.path.read_text(encoding="utf-8"))["entries"]) == 2


@pytest.mark.parametrize(
    "content", ["{broken", "[]", '{"version": 99, "entries": {}}', '{"version": 1}']
)
async def test_an_unreadable_cache_is_recomputed_and_replaced(
    tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "thresholds.json"
    path.write_text(content, encoding="utf-8")
    cache = ThresholdCache(path)
    with caplog.at_level(logging.WARNING, logger="omoide.embed.threshold_cache"):
        result = await cached_duplicate_threshold(HashingEmbedder(64), cache)
    assert "ignoring" in caplog.text
    assert isinstance(result, DuplicateThreshold)
    assert await ThresholdCache(path).load("hashing:64") == result


async def test_a_malformed_entry_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "thresholds.json"
    cache = ThresholdCache(path)
    result = await calibrate_duplicate_threshold(HashingEmbedder(64))
    await cache.save(result)
    stored = json.loads(path.read_text(encoding="utf-8"))
    (key,) = stored["entries"]
    del stored["entries"][key]["threshold"]
    path.write_text(json.dumps(stored), encoding="utf-8")
    assert await cache.load("hashing:64") is None


async def test_an_unwritable_cache_is_a_backend_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    cache = ThresholdCache(blocker / "thresholds.json")
    with pytest.raises(BackendError, match="threshold cache"):
        await cached_duplicate_threshold(HashingEmbedder(64), cache)


def test_a_gap_narrower_than_a_float_still_splits_its_edges() -> None:
    """The midpoint of 0.0 and the smallest subnormal rounds to 0.0 itself."""
    smallest = 5e-324
    threshold = choose_threshold(np.asarray([smallest]), np.asarray([0.0]), false_merge_cost=1.0)
    assert threshold == smallest

"""Percentiles, latency summaries and rates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.speed.stats import per_second, percentile, ratio, summarise_latencies
from omoide.errors import InvalidInput

samples = st.lists(
    st.floats(min_value=0.0, max_value=1e6, allow_nan=False), min_size=1, max_size=200
)
quantiles = st.floats(min_value=0.0, max_value=1.0)


def test_percentile_interpolates_between_closest_ranks() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([10.0, 0.0, 5.0], 0.5) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.95) == pytest.approx(4.8)
    assert percentile([7.0], 0.99) == 7.0


@given(values=samples, quantile=quantiles)
@settings(max_examples=200, deadline=None)
def test_percentile_matches_numpys_linear_method(values: list[float], quantile: float) -> None:
    expected = float(np.percentile(values, quantile * 100, method="linear"))
    assert percentile(values, quantile) == pytest.approx(expected, rel=1e-9, abs=1e-9)


@given(values=samples, low=quantiles, high=quantiles)
@settings(max_examples=200, deadline=None)
def test_percentile_is_monotone_and_bounded(values: list[float], low: float, high: float) -> None:
    low, high = min(low, high), max(low, high)
    assert min(values) <= percentile(values, low) <= percentile(values, high) <= max(values)
    assert percentile(values, 0.0) == min(values)
    assert percentile(values, 1.0) == max(values)


@pytest.mark.parametrize(
    ("values", "quantile"), [([], 0.5), ([1.0], -0.1), ([1.0], 1.1), ([math.nan], 0.5)]
)
def test_percentile_refuses_what_is_undefined(values: list[float], quantile: float) -> None:
    with pytest.raises(InvalidInput):
        percentile(values, quantile)


def test_latency_summary_is_in_milliseconds() -> None:
    summary = summarise_latencies([0.001 * n for n in range(1, 101)])
    assert summary.count == 100
    assert summary.p50_ms == pytest.approx(50.5)
    assert summary.p95_ms == pytest.approx(95.05)
    assert summary.p99_ms == pytest.approx(99.01)
    assert summary.mean_ms == pytest.approx(50.5)
    assert (summary.min_ms, summary.max_ms) == pytest.approx((1.0, 100.0))


@given(values=st.lists(st.floats(min_value=0.0, max_value=10.0), min_size=1, max_size=100))
@settings(max_examples=100, deadline=None)
def test_summary_percentiles_are_ordered(values: list[float]) -> None:
    summary = summarise_latencies(values)
    assert summary.min_ms <= summary.p50_ms <= summary.p95_ms <= summary.p99_ms <= summary.max_ms


def test_summaries_refuse_empty_and_negative_latencies() -> None:
    with pytest.raises(InvalidInput):
        summarise_latencies([])
    with pytest.raises(InvalidInput):
        summarise_latencies([0.1, -0.1])


def test_rates_and_ratios() -> None:
    assert per_second(300, 1.5) == 200.0
    with pytest.raises(InvalidInput):
        per_second(10, 0.0)
    assert ratio(3.0, 2.0) == 1.5
    assert ratio(None, 2.0) is None
    assert ratio(3.0, 0.0) is None

"""Percentiles, latency summaries, throughputs and ratios: pure helpers over measurements."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from omoide.errors import InvalidInput


def percentile(values: Sequence[float], quantile: float) -> float:
    """The ``quantile`` (0..1) of ``values`` by linear interpolation between closest ranks.

    This is the common definition (numpy's default, Hyndman & Fan type 7): the 0.5
    quantile of [1, 2, 3, 4] is 2.5.
    """
    if not values:
        raise InvalidInput("a percentile of no values is undefined")
    if not 0.0 <= quantile <= 1.0:
        raise InvalidInput(f"quantile must be in [0, 1] (got {quantile})")
    if any(math.isnan(value) for value in values):
        raise InvalidInput("values must not contain NaN")
    ordered = sorted(values)
    position = (len(ordered) - 1) * quantile
    lower = math.floor(position)
    upper = min(lower + 1, len(ordered) - 1)
    weight = position - lower
    return ordered[lower] + (ordered[upper] - ordered[lower]) * weight


@dataclass(frozen=True, slots=True)
class LatencySummary:
    """Latencies of repeated calls, in milliseconds."""

    count: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float
    min_ms: float
    max_ms: float


def summarise_latencies(seconds: Sequence[float]) -> LatencySummary:
    """Summarise call durations given in seconds."""
    if not seconds:
        raise InvalidInput("cannot summarise zero latencies")
    if any(value < 0 for value in seconds):
        raise InvalidInput("latencies must not be negative")
    millis = [value * 1000.0 for value in seconds]
    return LatencySummary(
        count=len(millis),
        p50_ms=percentile(millis, 0.50),
        p95_ms=percentile(millis, 0.95),
        p99_ms=percentile(millis, 0.99),
        mean_ms=sum(millis) / len(millis),
        min_ms=min(millis),
        max_ms=max(millis),
    )


def per_second(count: int, seconds: float) -> float:
    """Items per second; ``seconds`` must be positive."""
    if count < 0:
        raise InvalidInput(f"count must be non-negative (got {count})")
    if not seconds > 0:
        raise InvalidInput(f"a rate needs a positive duration (got {seconds})")
    return count / seconds


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """``numerator / denominator``, or None when either is missing or the denominator is 0."""
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def median(values: Sequence[float]) -> float:
    return percentile(values, 0.5)


class Stopwatch:
    """Seconds since construction on the monotonic performance counter."""

    def __init__(self) -> None:
        self._started = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self._started

"""Counters that the service reports: LLM calls, unscored turns, parse failures, ..."""

from __future__ import annotations

import threading
from collections import Counter


class Metrics:
    """Thread-safe named counters. One instance is built in the composition root."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self._lock = threading.Lock()

    def increment(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[name] += amount

    def get(self, name: str) -> int:
        with self._lock:
            return self._counts[name]

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

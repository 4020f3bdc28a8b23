"""Dev and held-out halves of every dataset, fixed before any result is looked at.

The recommended configuration is chosen on the dev half only; every target is reported
on the held-out half next to it, so a gain that exists only where it was tuned shows.

* LoCoMo (10 conversations) and MemoryBank (a few dozen users): whole haystacks
  alternate in the dataset's order (the file's), the first to dev; a conversation or a
  user is never in both halves.
* LongMemEval (one haystack per question): by a stable hash of the question id, so a
  question's half does not depend on which other questions a profile loads.

The split depends on ids and order only, never on a score.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from benchmarks.quality.dataset import Dataset

DEV = "dev"
HELDOUT = "heldout"
SPLITS = (DEV, HELDOUT)
HASHED = frozenset({"longmemeval"})
"""Datasets split by a hash of the haystack key (one question per haystack)."""


def dataset_kind(name: str) -> str:
    """``locomo-context`` is split as ``locomo``, ``memorybank-en`` as ``memorybank``."""
    return name.split("-", 1)[0]


def hashed_split(key: str) -> str:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return DEV if digest[0] % 2 == 0 else HELDOUT


def alternating_splits(keys: Sequence[str]) -> dict[str, str]:
    if len(set(keys)) != len(keys):
        raise ValueError("haystack keys must be distinct to be split")
    return {key: SPLITS[index % 2] for index, key in enumerate(keys)}


def haystack_splits(dataset: Dataset) -> dict[str, str]:
    """Haystack key -> :data:`DEV` or :data:`HELDOUT`."""
    keys = [haystack.key for haystack in dataset.haystacks]
    if dataset_kind(dataset.name) in HASHED:
        return {key: hashed_split(key) for key in keys}
    return alternating_splits(keys)


def probe_splits(dataset: Dataset) -> dict[str, str]:
    """Probe id -> the half of the haystack it is asked of."""
    halves = haystack_splits(dataset)
    return {
        probe.probe_id: halves[haystack.key]
        for haystack in dataset.haystacks
        for probe in haystack.probes
    }

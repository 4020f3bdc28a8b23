"""The dev / held-out split: fixed by ids and order, disjoint, covering, stable."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from benchmarks.quality.dataset import Dataset, Haystack, Probe
from benchmarks.quality.split import (
    DEV,
    HELDOUT,
    hashed_split,
    haystack_splits,
    probe_splits,
)

NOW = datetime(2024, 5, 1, tzinfo=UTC)


def dataset(name: str, keys: list[str], questions: int = 2) -> Dataset:
    haystacks = tuple(
        Haystack(
            key,
            "en",
            (),
            tuple(
                Probe(f"{key}#{index}", "q", NOW, frozenset({"u"}), "c")
                for index in range(questions)
            ),
        )
        for key in keys
    )
    return Dataset(name, haystacks)


LOCOMO_KEYS = [f"conv-{number}" for number in (26, 30, 41, 42, 43, 44, 47, 48, 49, 50)]


def test_conversations_alternate_and_no_conversation_is_in_both_halves() -> None:
    halves = haystack_splits(dataset("locomo", LOCOMO_KEYS))

    assert [halves[key] for key in LOCOMO_KEYS] == [DEV, HELDOUT] * 5
    probes = probe_splits(dataset("locomo", LOCOMO_KEYS))
    for key in LOCOMO_KEYS:
        assert {probes[f"{key}#0"], probes[f"{key}#1"]} == {halves[key]}


def test_locomo_context_and_memorybank_languages_split_like_their_dataset() -> None:
    plain = haystack_splits(dataset("locomo", LOCOMO_KEYS))
    assert haystack_splits(dataset("locomo-context", LOCOMO_KEYS)) == plain
    users = [f"en-{index}" for index in range(7)]
    halves = haystack_splits(dataset("memorybank-en", users))
    assert sorted(halves.values()).count(DEV) == 4


@given(st.sets(st.text(min_size=1, max_size=12), min_size=1, max_size=40), st.randoms())
def test_longmemeval_halves_depend_on_the_question_id_alone(
    keys: set[str], order: random.Random
) -> None:
    listed = sorted(keys)
    shuffled = list(listed)
    order.shuffle(shuffled)

    first = haystack_splits(dataset("longmemeval", listed))
    again = haystack_splits(dataset("longmemeval", shuffled[: len(shuffled) // 2 + 1]))

    assert set(first) == keys
    assert set(first.values()) <= {DEV, HELDOUT}
    assert all(first[key] == half for key, half in again.items())
    assert all(first[key] == hashed_split(key) for key in keys)


def test_the_hash_splits_question_ids_about_in_half() -> None:
    keys = [f"{index:08x}_abs" if index % 7 == 0 else f"q{index}" for index in range(2000)]

    dev = sum(hashed_split(key) == DEV for key in keys)

    assert 900 < dev < 1100

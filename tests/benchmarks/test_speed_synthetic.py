"""The synthetic chat generator and the vector perturbation used to build large stores."""

from __future__ import annotations

import string
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.speed.languages import FACT_TEMPLATES, LANGUAGE_PACKS, LANGUAGES, SLOT_NAMES
from benchmarks.speed.synthetic import (
    ChatGenerator,
    Timeline,
    distinct_facts,
    distinct_turns,
    perturbed_unit_vectors,
)
from omoide.domain import Matrix
from omoide.errors import InvalidInput
from omoide.memory.importance import score_by_rules
from omoide.memory.patterns import is_low_signal

TIMELINE = Timeline(datetime(2024, 1, 1, tzinfo=UTC), timedelta(days=30))


def generator(seed: int = 1, **options: float) -> ChatGenerator:
    return ChatGenerator(seed=seed, viewers=40, timeline=TIMELINE, **options)


def test_every_template_fills_from_its_packs_slots() -> None:
    for pack in LANGUAGE_PACKS.values():
        assert set(pack.slots) == set(SLOT_NAMES), pack.code
        templates = (*pack.user_templates, *pack.bot_templates, *pack.query_templates)
        for template in (*templates, *(text for text, _ in FACT_TEMPLATES)):
            names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
            filled = template.format_map({name: pack.slots[name][0] for name in names})
            assert "{" not in filled and filled.strip(), (pack.code, template)


@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=20, deadline=None)
def test_the_same_seed_gives_the_same_chat(seed: int) -> None:
    first, second = generator(seed), generator(seed)
    assert first.turns(30) == second.turns(30)
    assert [first.query(3) for _ in range(5)] == [second.query(3) for _ in range(5)]


def test_different_seeds_give_different_chat() -> None:
    assert generator(1).turns(30) != generator(2).turns(30)


def test_viewers_are_spread_evenly_over_the_languages() -> None:
    chat = ChatGenerator(seed=3, viewers=400, timeline=TIMELINE)
    counts = {code: 0 for code in LANGUAGES}
    for viewer in range(400):
        counts[chat.language_of(viewer)] += 1
    assert set(counts.values()) == {100}


def test_without_code_switching_a_viewer_always_writes_in_their_language() -> None:
    chat = generator(code_switch_share=0.0)
    for turn in chat.turns(200):
        assert turn.language == chat.language_of(turn.viewer_index)


def test_code_switching_happens_in_about_the_share_asked_for() -> None:
    chat = ChatGenerator(seed=5, viewers=40, timeline=TIMELINE, code_switch_share=0.1)
    turns = chat.turns(4000)
    switched = sum(turn.language != chat.language_of(turn.viewer_index) for turn in turns)
    assert 0.06 < switched / len(turns) < 0.14


def test_low_signal_turns_are_what_the_write_path_drops() -> None:
    chat = generator(low_signal_share=1.0)
    for turn in chat.turns(100):
        assert is_low_signal(turn.user_message), turn.user_message
        assert turn.topics == ()


def test_other_turns_are_worth_storing_by_the_rules() -> None:
    for turn in generator(low_signal_share=0.0).turns(300):
        score = score_by_rules(
            turn.user_message, turn.bot_message, emotion_intensity=turn.emotion_intensity
        )
        assert score.worth_storing, turn.user_message


def test_turns_fall_inside_the_timeline_and_carry_valid_states() -> None:
    for turn in generator().turns(300):
        assert TIMELINE.start <= turn.recorded_at <= TIMELINE.end
        assert 0.0 <= turn.emotion_intensity <= 1.0
        assert turn.searchable_text == f"{turn.user_message}\n{turn.bot_message}".strip()


def test_queries_are_in_the_viewers_language() -> None:
    chat = generator()
    hangul = [chat.query(0) for _ in range(20)]  # viewer 0 speaks Korean
    assert all(any("\uac00" <= c <= "\ud7a3" for c in text) for text in hangul)


def test_distinct_turns_have_pairwise_different_texts() -> None:
    turns = distinct_turns(generator(), 3000)
    assert len(turns) == 3000
    assert len({turn.searchable_text for turn in turns}) == 3000
    assert not any(is_low_signal(turn.user_message) for turn in turns)


def test_distinct_facts_respect_the_per_language_cap() -> None:
    facts = distinct_facts(generator(), 25)
    assert len({fact.text for fact in facts}) == len(facts)
    for code in LANGUAGES:
        assert len([fact for fact in facts if fact.language == code]) == 25


@pytest.mark.parametrize(
    ("start", "span"),
    [(datetime(2024, 1, 1), timedelta(days=1)), (TIMELINE.start, timedelta(0))],
)
def test_a_timeline_needs_an_aware_start_and_a_positive_span(
    start: datetime, span: timedelta
) -> None:
    with pytest.raises(InvalidInput):
        Timeline(start, span)


def test_a_generator_refuses_shares_outside_the_unit_interval() -> None:
    with pytest.raises(InvalidInput):
        generator(low_signal_share=1.5)


def _unit_rows(seed: int, rows: int = 50, dimensions: int = 64) -> Matrix:
    matrix = np.random.default_rng(seed).standard_normal((rows, dimensions), dtype=np.float32)
    unit: Matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


@given(
    seed=st.integers(min_value=0, max_value=10_000),
    noise=st.floats(min_value=0.0, max_value=0.5),
    picks=st.lists(st.integers(min_value=0, max_value=49), min_size=1, max_size=40),
)
@settings(max_examples=40, deadline=None)
def test_perturbed_vectors_are_unit_length_and_close_to_their_source(
    seed: int, noise: float, picks: list[int]
) -> None:
    base = _unit_rows(seed + 1, dimensions=512)  # the same seed would draw the noise itself
    moved = perturbed_unit_vectors(base, picks, noise=noise, seed=seed)
    assert moved.shape == (len(picks), 512)
    assert moved.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(moved, axis=1), 1.0, rtol=1e-5)
    cosines = np.sum(moved * base[picks], axis=1)
    expected = 1.0 / np.sqrt(1.0 + noise**2)
    assert np.all(np.abs(cosines - expected) < 0.05)


def test_perturbation_is_deterministic_and_depends_on_the_seed() -> None:
    base = _unit_rows(1)
    first = perturbed_unit_vectors(base, [1, 2, 3], noise=0.2, seed=9)
    np.testing.assert_array_equal(first, perturbed_unit_vectors(base, [1, 2, 3], noise=0.2, seed=9))
    assert not np.array_equal(first, perturbed_unit_vectors(base, [1, 2, 3], noise=0.2, seed=10))


def test_zero_noise_returns_the_source_rows() -> None:
    base = _unit_rows(2)
    np.testing.assert_allclose(perturbed_unit_vectors(base, [4, 0], noise=0.0, seed=1),
                               base[[4, 0]], rtol=1e-6)  # fmt: skip


@pytest.mark.parametrize(("picks", "noise"), [([50], 0.1), ([-1], 0.1), ([0], -0.1)])
def test_perturbation_refuses_bad_picks_and_noise(picks: list[int], noise: float) -> None:
    with pytest.raises(InvalidInput):
        perturbed_unit_vectors(_unit_rows(3), picks, noise=noise, seed=1)

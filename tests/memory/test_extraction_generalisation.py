"""How the rule fact extractor does on chat lines it was not tuned on.

``disclosure_texts`` holds self-disclosures and ordinary chat lines in four languages,
written independently of any benchmark and split into halves: the rules were tuned on
the first half only. These tests hold the second half to the recall and false-positive
rates measured when the rules last changed, so a later change cannot silently lose them.

Recall: a disclosure gives at least one fact in its profile group whose text contains its
key term. False positive: an ordinary line gives any fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from omoide.domain import Fact, Scope
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facets import Facet, facet_of
from tests.memory.disclosure_texts import (
    DISCLOSURES,
    ORDINARY,
    Disclosure,
    held_out,
    tuning,
)

SCOPE = Scope("char", "viewer")
MOMENT = datetime(2024, 5, 1, tzinfo=UTC)

RECALL_FLOOR = {"en": 15 / 24, "ko": 14 / 22, "ja": 15 / 22, "zh": 11 / 22}
"""Held-out recall measured last, per language (a floor: it may rise, never fall)."""
FALSE_POSITIVE_CEILING = {"en": 0.0, "ko": 0.0, "ja": 0.0, "zh": 0.0}
"""Held-out share of ordinary lines given a fact, measured last (it may fall, never rise)."""


def _facet(candidate: FactCandidate) -> Facet:
    fact = Fact(
        "fact",
        SCOPE,
        candidate.text,
        candidate.category,
        candidate.confidence,
        candidate.salience,
        MOMENT,
        MOMENT,
        slot=candidate.slot,
        terms=candidate.terms,
    )
    return facet_of(fact)


def recalled(row: Disclosure) -> bool:
    """Whether ``row``'s message gives a fact in its group whose text holds its key term."""
    message, facet, term = row
    return any(
        _facet(c) is facet and term.casefold() in c.text.casefold() for c in find_facts(message)
    )


def recall(rows: Sequence[Disclosure]) -> float:
    return sum(recalled(row) for row in rows) / len(rows)


def false_positive_rate(lines: Sequence[str]) -> float:
    return sum(bool(find_facts(line)) for line in lines) / len(lines)


LANGUAGES = sorted(DISCLOSURES)


def test_the_sets_are_large_enough_and_split_in_halves() -> None:
    for language in LANGUAGES:
        assert len(DISCLOSURES[language]) >= 40
        assert len(ORDINARY[language]) >= 30
        rows = DISCLOSURES[language]
        first, second = tuning(rows), held_out(rows)
        assert not set(first) & set(second)
        assert sorted(first + second) == sorted(rows)


@pytest.mark.parametrize("language", LANGUAGES)
def test_held_out_recall_stays_at_its_floor(language: str) -> None:
    assert recall(held_out(DISCLOSURES[language])) >= RECALL_FLOOR[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_held_out_false_positives_stay_under_their_ceiling(language: str) -> None:
    rate = false_positive_rate(held_out(ORDINARY[language]))
    assert rate <= FALSE_POSITIVE_CEILING[language]


def test_the_measure_can_fail() -> None:
    """A wrong group or a key term not in the text is not recalled."""
    assert recalled(("저 대구 살아요", Facet.IDENTITY, "대구"))
    assert not recalled(("저 대구 살아요", Facet.PLANS, "대구"))
    assert not recalled(("저 대구 살아요", Facet.IDENTITY, "부산"))
    assert false_positive_rate(["저 대구 살아요", "ㅋㅋㅋ"]) == 0.5

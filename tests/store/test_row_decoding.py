"""Stored enumeration values decode to their members, and an unknown one is refused."""

from __future__ import annotations

import pytest

from omoide.domain import FactCategory, ScoringMethod, TrustState
from omoide.store.sqlite.codec import ROW_DECODER

EPISODE_ROW = ("haru", "minjun", "e1", "hi", "hello", 0, 0.5, "neutral", 0.5, "[]", "rules")
EPISODE_REST = (None, 0, None, "{}", None)
FACT_ROW = ("haru", "minjun", "f1", "likes tea", "preference", 0.8, 0.5, 0, 0, "stated", 1)
FACT_REST = (None, None, None, None, 0, None, "[]", "[]")


def episode_row(scoring: str) -> tuple[object, ...]:
    return (*EPISODE_ROW[:10], scoring, *EPISODE_REST)


def fact_row(category: str, trust: str) -> tuple[object, ...]:
    return (*FACT_ROW[:4], category, *FACT_ROW[5:9], trust, FACT_ROW[10], *FACT_REST)


@pytest.mark.parametrize("method", list(ScoringMethod))
def test_every_scoring_method_decodes_to_its_member(method: ScoringMethod) -> None:
    assert ROW_DECODER.episode(episode_row(method.value)).scoring is method


@pytest.mark.parametrize("category", list(FactCategory))
@pytest.mark.parametrize("trust", list(TrustState))
def test_every_category_and_trust_decode_to_their_members(
    category: FactCategory, trust: TrustState
) -> None:
    decoded = ROW_DECODER.fact(fact_row(category.value, trust.value))
    assert (decoded.category, decoded.trust) == (category, trust)
    assert decoded.category is category and decoded.trust is trust


def test_an_unknown_stored_value_is_refused_as_the_enumeration_refuses_it() -> None:
    with pytest.raises(ValueError, match="'guessed' is not a valid ScoringMethod"):
        ROW_DECODER.episode(episode_row("guessed"))
    with pytest.raises(ValueError, match="'hobby' is not a valid FactCategory"):
        ROW_DECODER.fact(fact_row("hobby", "stated"))
    with pytest.raises(ValueError, match="'maybe' is not a valid TrustState"):
        ROW_DECODER.fact(fact_row("preference", "maybe"))

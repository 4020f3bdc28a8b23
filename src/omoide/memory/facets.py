"""The parts of a viewer's profile, and which part a fact belongs to.

A profile is read by a person (and by the model) as a few short groups: who the viewer
is, the people and pets in their life, what they like and dislike, health and limits,
habits, plans and dates, what is going on for them now, and how they like to be talked
to. :func:`facet_of` places a fact in one of them.
"""

from __future__ import annotations

import enum

from omoide.domain import Fact, FactCategory


class Facet(enum.StrEnum):
    """One group of the viewer profile, in the order the profile shows them."""

    IDENTITY = "identity"
    PEOPLE = "people"
    LIKES = "likes"
    HEALTH = "health"
    HABITS = "habits"
    PLANS = "plans"
    SITUATION = "situation"
    STYLE = "style"


FACET_ORDER: tuple[Facet, ...] = tuple(Facet)

_BY_CATEGORY: dict[FactCategory, Facet] = {
    FactCategory.PREFERENCE: Facet.LIKES,
    FactCategory.PERSONAL: Facet.IDENTITY,
    FactCategory.EMOTION: Facet.SITUATION,
    FactCategory.HABIT: Facet.HABITS,
    FactCategory.GOAL: Facet.PLANS,
}


def facet_of(fact: Fact) -> Facet:
    """The profile group ``fact`` belongs to (by its category)."""
    return _BY_CATEGORY[fact.category]

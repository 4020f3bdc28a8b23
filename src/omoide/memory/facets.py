"""The parts of a viewer's profile, and which part a fact belongs to.

A profile is read by a person (and by the model) as a few short groups: who the viewer
is, the people and pets in their life, what they like and dislike, health and limits,
habits, plans and dates, what is going on for them now, and how they like to be talked
to. :func:`facet_of` places a fact in one of them.
"""

from __future__ import annotations

import enum
import re

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

FACET_LABELS: dict[Facet, str] = {
    # how each group is named in the prompt, the API and the page
    Facet.IDENTITY: "about them",
    Facet.PEOPLE: "people & pets",
    Facet.LIKES: "likes & dislikes",
    Facet.HEALTH: "health & limits",
    Facet.HABITS: "habits",
    Facet.PLANS: "plans & dates",
    Facet.SITUATION: "going on lately",
    Facet.STYLE: "how to talk with them",
}

_BY_CATEGORY: dict[FactCategory, Facet] = {
    FactCategory.PREFERENCE: Facet.LIKES,
    FactCategory.PERSONAL: Facet.IDENTITY,
    FactCategory.EMOTION: Facet.SITUATION,
    FactCategory.HABIT: Facet.HABITS,
    FactCategory.GOAL: Facet.PLANS,
}


_BY_SLOT: dict[str, Facet] = {
    **dict.fromkeys(
        ("name", "nickname", "age", "job", "workplace", "school", "home", "hometown", "birthday"),
        Facet.IDENTITY,
    ),
    **dict.fromkeys(("pet", "person"), Facet.PEOPLE),
    **dict.fromkeys(("like", "dislike", "hobby", "hooked", "game_now", "quit"), Facet.LIKES),
    **dict.fromkeys(("allergy", "limit", "diet", "health", "fear"), Facet.HEALTH),
    "habit": Facet.HABITS,
    **dict.fromkeys(("plan", "goal"), Facet.PLANS),
    **dict.fromkeys(("situation", "care"), Facet.SITUATION),
    "style": Facet.STYLE,
    **{f"told_{facet.value}": facet for facet in Facet},
    "told_work": Facet.IDENTITY,
    "told_said": Facet.SITUATION,
}
"""Slot prefixes (the part before ":", see ``omoide.memory.facts.text``) by profile group."""


_HABIT_QUITS = re.compile(
    r"smok|vap|drink|alcohol|booze|cigar|nicotine|caffeine|soda|sugar|gambl|금연|금주|단주|담배"
    r"|술|禁煙|禁酒|断酒|タバコ|たばこ|煙草|酒|烟|戒",
    re.IGNORECASE,
)
"""What a viewer quits as a habit (smoking, drinking...), not as a like (a game, a show)."""


def facet_of_kind(kind: str) -> Facet | None:
    """The profile group of a kind of fact (a slot prefix such as ``pet`` or ``told_health``),
    ``None`` for a kind no group names."""
    return _BY_SLOT.get(kind)


def facet_of(fact: Fact) -> Facet:
    """The profile group ``fact`` belongs to: by its slot when it has a known one ("pet:猫"
    is PEOPLE, "allergy:땅콩" HEALTH, "style:..." STYLE; quitting smoking or drinking is a
    habit, quitting a game a like), otherwise by its category."""
    if fact.slot:
        prefix, _, key = fact.slot.partition(":")
        if prefix == "quit" and _HABIT_QUITS.search(key):
            return Facet.HABITS
        facet = _BY_SLOT.get(prefix)
        if facet is not None:
            return facet
    return _BY_CATEGORY[fact.category]

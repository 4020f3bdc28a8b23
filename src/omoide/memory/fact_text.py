"""How rule-extracted facts are phrased, and how such a phrase is read back.

A fact is an English predicate followed by the viewer's own words, never translated:
``likes 롤 게임``, ``dislikes ピーマン``, ``name: 민준``, ``lives in 東京``,
``has a pet 猫 named ミケ``, ``hobby: 読書``, ``age: 23``, ``birthday: 3월 5일``,
``is allergic to 花生``, ``wants to become 声優``, ``every day: 跑步``. Predicates are
English so that a reader of the prompt (a person or a model) understands every fact
alike; objects stay as said, because translating them needs knowledge that rules do not
have ("롤" is League of Legends only to someone who knows). A strong statement reads
``really likes X``.

Reading a phrase back (:func:`read_statement`) lets extraction compare a new fact with
the stored ones: the same relation and object confirms, the opposite relation (likes vs
dislikes) or a new value of a single-valued relation (name, home, birthday) supersedes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from omoide.domain import FactCategory


@dataclass(frozen=True, slots=True)
class Relation:
    """One kind of rule fact: how it is phrased and how it behaves when it changes."""

    key: str
    template: str
    """The phrase, with ``{}`` where the viewer's words go."""
    category: FactCategory
    salience: float
    single_valued: bool = False
    """A new value replaces the old one (a viewer has one name, one home)."""
    opposite: str | None = None
    """The key of the relation that contradicts this one for the same object."""

    def phrase(self, words: str, *, strong: bool = False) -> str:
        text = self.template.replace("{}", words)
        return f"really {text}" if strong and self.opposite is not None else text


FREQUENCIES = (
    "always",
    "usually",
    "often",
    "never",
    "every day",
    "every morning",
    "every night",
    "every week",
    "every weekend",
)

_PERSONAL, _GOAL = FactCategory.PERSONAL, FactCategory.GOAL
_RELATION_LIST = (
    Relation("likes", "likes {}", FactCategory.PREFERENCE, 0.5, opposite="dislikes"),
    Relation("dislikes", "dislikes {}", FactCategory.PREFERENCE, 0.5, opposite="likes"),
    Relation("hobby", "hobby: {}", FactCategory.PREFERENCE, 0.55),
    Relation("name", "name: {}", _PERSONAL, 0.8, single_valued=True),
    Relation("nickname", "wants to be called {}", _PERSONAL, 0.7, single_valued=True),
    Relation("age", "age: {}", _PERSONAL, 0.6, single_valued=True),
    Relation("job", "job: {}", _PERSONAL, 0.6, single_valued=True),
    Relation("workplace", "works at {}", _PERSONAL, 0.5, single_valued=True),
    Relation("home", "lives in {}", _PERSONAL, 0.6, single_valued=True),
    Relation("origin", "is from {}", _PERSONAL, 0.5, single_valued=True),
    Relation("pet", "has a pet {}", _PERSONAL, 0.6),
    Relation("birthday", "birthday: {}", _PERSONAL, 0.8, single_valued=True),
    Relation("allergy", "is allergic to {}", _PERSONAL, 0.8),
    Relation("become", "wants to become {}", _GOAL, 0.6),
    Relation("goal", "goal: {}", _GOAL, 0.6),
    Relation("dream", "dream: {}", _GOAL, 0.6),
    *(
        Relation(f"habit:{frequency}", f"{frequency}: {{}}", FactCategory.HABIT, 0.4)
        for frequency in FREQUENCIES
    ),
)
RELATIONS: Mapping[str, Relation] = MappingProxyType({r.key: r for r in _RELATION_LIST})


def habit_relation(frequency: str) -> Relation:
    return RELATIONS[f"habit:{frequency}"]


@dataclass(frozen=True, slots=True)
class Statement:
    """A fact text read back: its relation and the normalised key of its object."""

    relation: Relation
    object_key: str


def _template_pattern(template: str) -> re.Pattern[str]:
    before, after = template.split("{}")
    return re.compile(f"^(?:really )?{re.escape(before)}(.+){re.escape(after)}$", re.DOTALL)


_READERS = tuple((relation, _template_pattern(relation.template)) for relation in _RELATION_LIST)
_LOOSE_PREFERENCE = re.compile(
    r"^(?:\S+\s+){0,3}?(?:really\s+|strongly\s+)?"
    r"(likes|loves|enjoys|adores|dislikes|hates|doesn't like|does not like)\s+(.+)$",
    re.IGNORECASE | re.DOTALL,
)
_NEGATIVE_VERBS = frozenset({"dislikes", "hates", "doesn't like", "does not like"})
_PARENTHESISED = re.compile(r"\s*[(（][^()（）]*[)）]\s*")
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_LETTERS_AND_DIGITS = re.compile(r"[^\W_]+")
"""Unicode categories L and N: ``\\w`` is ``str.isalnum()`` and "_" for str patterns."""


def object_key(words: str) -> str:
    """Comparable form of an object: NFKC, casefolded, no notes, articles or spacing."""
    text = _PARENTHESISED.sub(" ", unicodedata.normalize("NFKC", words)).strip()
    text = _ARTICLE.sub("", text).casefold()
    return "".join(_LETTERS_AND_DIGITS.findall(text))


def read_statement(text: str) -> Statement | None:
    """The relation and object of a fact phrased here, or of "<someone> likes X" text."""
    flat = " ".join(unicodedata.normalize("NFKC", text).split())
    for relation, pattern in _READERS:
        matched = pattern.match(flat)
        key = object_key(matched.group(1)) if matched is not None else ""
        if key:
            return Statement(relation, key)
    loose = _LOOSE_PREFERENCE.match(flat)
    key = object_key(loose.group(2)) if loose is not None else ""
    if loose is None or not key:
        return None
    verb = "dislikes" if loose.group(1).casefold() in _NEGATIVE_VERBS else "likes"
    return Statement(RELATIONS[verb], key)

"""Which of a viewer's facts a correction or a change is about.

A correction ("my bad, the party is in Incheon") is about the fact most alike in words and
letter pairs, weighted by how few facts hold each; a change of work ("finally got a job")
about what the viewer did before; another change ("renamed the kitten") about the latest
fact of its group holding the word that placed it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from omoide.domain import Fact
from omoide.memory.extraction.change_words import CHANGING_KINDS
from omoide.memory.extraction.mentions import about_work
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facets import facet_of, facet_of_kind
from omoide.memory.facts.text import slot_parts

_LATIN_WORD = re.compile(r"\b[a-z0-9]{3,}\b")
_NOT_WORD = re.compile(r"[\W_]+")


def _pairs(text: str) -> set[str]:
    """What ``text`` is compared by: its words in Latin letters (of three or more) and the
    letter pairs of the rest ("galway"; "서윤", "윤이")."""
    read = _NOT_WORD.sub(" ", text.casefold())
    latin = set(_LATIN_WORD.findall(read))
    rest = _LATIN_WORD.sub(" ", read)
    return latin | {rest[i : i + 2] for i in range(len(rest) - 1) if " " not in rest[i : i + 2]}


def corrected_fact(candidate: FactCandidate, facts: Sequence[Fact]) -> Fact:
    """The fact a correction is about: the one most alike in words and letter pairs (cosine
    over the sets: "the party is in Suwon" and "the party is in Incheon"), each weighted by how
    few of ``facts`` hold it (the "galway" of "the galway thing, i had the date wrong"
    counts, the "th" of every English sentence hardly), the latest on a tie, and of facts
    recorded at the same moment (one sentence read as a birthday and a plan) the first made
    (the smallest id). The sums over the sets are exact (``fsum``): the same whatever order
    the string hashes give them."""
    said = _pairs(candidate.text)
    held = {fact.id: _pairs(fact.text) for fact in facts}
    holding = Counter(pair for pairs in held.values() for pair in pairs)
    weights = {pair: math.log((1 + len(facts)) / (1 + holding[pair])) + 1.0 for pair in holding}

    def norm(pairs: set[str]) -> float:
        return math.sqrt(math.fsum(weights.get(pair, 1.0) ** 2 for pair in pairs))

    def alike(fact: Fact) -> float:
        pairs = held[fact.id]
        if not said or not pairs:
            return 0.0
        shared = math.fsum(weights[pair] ** 2 for pair in said & pairs)
        return shared / (norm(said) * norm(pairs))

    return min(facts, key=lambda fact: (-alike(fact), -fact.recorded_at.timestamp(), fact.id))


def replaced_fact(candidate: FactCandidate, facts: Sequence[Fact]) -> Fact | None:
    """The fact a viewer's change replaces: for work ("finally got a job"), what they did
    before (a fact of work, or any fact naming their work: "居酒屋でバイトしてる" read as a
    habit), the most alike; for another group ("renamed the kitten"), the latest fact of
    that group holding the word that placed the change (no such fact: nothing replaced)."""
    if not candidate.changes or candidate.slot is None:
        return None
    prefix = slot_parts(candidate.slot)[0]
    kinds = CHANGING_KINDS.get(prefix)
    if kinds is not None:
        same = [
            fact
            for fact in facts
            if (fact.slot and slot_parts(fact.slot)[0] in kinds) or about_work(fact.text)
        ]
        return corrected_fact(candidate, same) if same else None
    words = {term.casefold() for term in candidate.terms}
    group = facet_of_kind(prefix)
    holding = [
        fact
        for fact in facts
        if facet_of(fact) is group and words & {term.casefold() for term in fact.terms}
    ]
    return max(holding, key=lambda fact: (fact.recorded_at, fact.id)) if holding else None

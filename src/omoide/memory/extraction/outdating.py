"""What else a change makes outdated, besides the one fact it replaces.

A viewer who left the cinema for a bowling alley told of the cinema more than once: the
job, its closing shifts, the free passes. The change replaces one fact
(:func:`~omoide.memory.extraction.decisions.decide`); the others would stay current and the
profile would tell of both jobs. They end too (not contradicted: they held until then):

* a change of work ends every other fact naming the viewer's work (a job, a workplace, its
  shifts: :func:`~omoide.memory.extraction.mentions.about_work`);
* a new game played now ends what was told of the game before
  (:mod:`omoide.memory.extraction.switching`);
* any update ends the facts that name the old value by its own words: a name or place the
  replaced fact holds ("Boulder Barn", "スプラ", "메이플", "麺屋") and the new one does not;
* a correction also ends the facts read from the same words as the one it corrects that
  hold the same value ("내 생일 7월 3일임" read as a birthday and as the plan of it:
  corrected to 8월 3일, neither holds; :func:`told_with`). A plan that changes leaves the
  birthday it is for.

Facts of other people and of dates ahead are left alone (a sister still lives in the city
the viewer left, and a plan is its own), and an old value's name ends only what was of the
moment (who they are, habits, what is going on): a like outlives a move.

A value's words are read without a dictionary: capitalised Latin names, katakana words,
kanji words in Japanese, Hangul nouns (their particles cut off, not verbs) and Chinese runs
of two to four Han characters shared whole; the commonest words of chat ("요즘", "今日",
"today") never count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from omoide.domain import Fact
from omoide.memory.extraction.change_words import CHANGING_KINDS
from omoide.memory.extraction.mentions import about_work
from omoide.memory.extraction.switching import of_another_game, plays_now
from omoide.memory.extraction.value_words import COMMON_WORDS, HAN_RUN, KANA, holds, value_words
from omoide.memory.extraction.values import FactDecision
from omoide.memory.facets import Facet, facet_of
from omoide.memory.facts.text import object_key, slot_parts

_OTHERS = frozenset({Facet.PEOPLE, Facet.PLANS})
"""Groups whose facts tell of others (a sister's hospital, a friend's city) or of a date
ahead: no change of the viewer's own ends them."""
_OF_THE_MOMENT = frozenset({Facet.IDENTITY, Facet.HABITS, Facet.SITUATION})
"""Groups whose facts an old value's name outdates (the rides through the city left, the
old game's rank); a like, a health limit or a way of talking outlives a move."""


@dataclass(frozen=True, slots=True)
class _OldValue:
    """What a replaced fact named that the new statement no longer holds, read once."""

    words: tuple[str, ...]
    """The replaced fact's value words the new statement does not hold."""
    han_pieces: frozenset[str]
    """Its Chinese runs of two to four Han characters, no common word and not said now
    (菜鸟驿站: 驿站, …); none for Japanese text."""

    @classmethod
    def of(cls, old: Fact, new_text: str) -> _OldValue:
        said_now = new_text.casefold()
        words = tuple(word for word in value_words(old.text) if not holds(said_now, word))
        if KANA.search(old.text):
            return cls(words, frozenset())
        pieces = {
            run[start : start + size]
            for run in HAN_RUN.findall(old.text)
            for size in (4, 3, 2)
            for start in range(len(run) - size + 1)
        }
        kept = frozenset(p for p in pieces if p not in COMMON_WORDS and p not in said_now)
        return cls(words, kept)

    def named_by(self, other: Fact) -> bool:
        """Whether ``other`` names this old value (菜鸟驿站 / 驿站老板: 驿站)."""
        text = other.text.casefold()
        if any(holds(text, word) for word in self.words):
            return True
        if not self.han_pieces or KANA.search(other.text):
            return False
        theirs = "".join(HAN_RUN.findall(other.text))
        return any(piece in theirs for piece in self.han_pieces)


def outdated(decision: FactDecision, known: Sequence[Fact], taken: set[str]) -> list[Fact]:
    """The current facts ``decision`` (an update) makes outdated besides its target."""
    candidate = decision.candidate
    if decision.action != "update" or candidate is None:
        return []
    replaced = next((fact for fact in known if fact.id == decision.target_fact_id), None)
    old_value = None if replaced is None else _OldValue.of(replaced, candidate.text)
    work_changed = (
        candidate.changes
        and candidate.slot is not None
        and slot_parts(candidate.slot)[0] in CHANGING_KINDS
    )
    other_game = (
        {fact.id for fact in of_another_game(candidate, known)} if plays_now(candidate) else set()
    )

    def of_the_old_value(fact: Fact) -> bool:
        if facet_of(fact) in _OTHERS:
            return False
        if work_changed and about_work(fact.text):
            return True
        return (
            old_value is not None and facet_of(fact) in _OF_THE_MOMENT and old_value.named_by(fact)
        )

    return [
        fact
        for fact in known
        if fact.id not in taken
        and fact.id != decision.target_fact_id
        and (fact.id in other_game or of_the_old_value(fact))
    ]


def told_with(replaced: Fact, known: Sequence[Fact]) -> set[str]:
    """The ids of the facts read from the words of ``replaced`` that hold one of its terms."""
    words = object_key(replaced.text)
    terms = {term.casefold() for term in replaced.terms}
    return {
        fact.id
        for fact in known
        if fact.id != replaced.id
        and object_key(fact.text) == words
        and terms & {term.casefold() for term in fact.terms}
    }

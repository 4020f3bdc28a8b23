"""Rule-based fact extraction: no model, Korean, Japanese, Chinese and English.

Only the viewer's message is read; the character's reply never becomes a fact about the
viewer. Facts are phrased as in ``memory.fact_text`` and marked STATED with confidence
0.75 (0.8 when said strongly: "엄청 좋아해", "大好き", "最喜欢", "really love").

Decisions against the viewer's existing facts, without a model:

* same category and the same object (normalised): ``confirm``;
* the opposite relation for the same object (likes X when "dislikes X" is known, or the
  reverse): ``update``, superseding it;
* a new value of a single-valued relation (name, nickname, job, workplace, home, origin,
  birthday) when another value is known: ``update`` (a viewer who moved lives in one
  place, not two);
* otherwise ``add``. Merging near-duplicates by meaning is the caller's job.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from omoide.domain import Fact, FactCategory, TrustState
from omoide.memory.extraction_clauses import Clause, clean_name, clean_object, split_clauses
from omoide.memory.extraction_patterns import (
    EN_PETS,
    FREQUENCY_WORDS,
    JA_PETS,
    KO_PETS,
    OTHER_PERSON,
    RULES,
    SOFTENERS,
    STRONG_WORDS,
    ZH_PETS,
    FactRule,
)
from omoide.memory.extraction_values import FactCandidate, FactDecision
from omoide.memory.fact_text import (
    Relation,
    Statement,
    habit_relation,
    object_key,
    read_statement,
)
from omoide.memory.pattern_gates import PatternGate, set_bits
from omoide.memory.patterns import SIGNAL_GROUPS, normalise

RULE_CONFIDENCE = 0.75
STRONG_CONFIDENCE = 0.8
STRONG_SALIENCE_BONUS = 0.15

_NAMED = frozenset({"name", "nickname"})
_PET_WORDS = re.compile(f"{EN_PETS}|{KO_PETS}|{JA_PETS}|{ZH_PETS}", re.IGNORECASE)
_SELF_MENTION = re.compile(
    r"\bmy\b|\bI\b|(?:^|\s)(?:제|내|저의|나의)\s|私|僕|俺|わたし|あたし|我", re.IGNORECASE
)
_NOT_HABITS = tuple(SIGNAL_GROUPS[name] for name in ("preference", "dislike", "affection"))
_RULE_GATE = PatternGate.of([rule.pattern for rule in RULES])
_SUBJECT_DROPPING = sum(
    1 << index for index, rule in enumerate(RULES) if rule.script in ("ko", "ja")
)
"""Korean and Japanese rules: skipped when the clause's subject is someone else."""


def _relation(rule: FactRule, match: re.Match[str]) -> Relation | None:
    if rule.relation is not None:
        return rule.relation
    frequency = FREQUENCY_WORDS.get(" ".join(match.group("freq").casefold().split()))
    return habit_relation(frequency) if frequency is not None else None


def _words(rule: FactRule, relation: Relation, match: re.Match[str]) -> str | None:
    raw = match.group("obj")
    if relation.key in _NAMED:
        return clean_name(raw, rule.script)
    words = clean_object(raw, rule.script)
    if words is None:
        return None
    if relation.category is FactCategory.HABIT:
        folded = normalise(words)
        return None if any(group.search(folded) for group in _NOT_HABITS) else words
    pet_name = match.groupdict().get("name")
    if relation.key == "pet" and pet_name:
        name = clean_name(pet_name, rule.script)
        return f"{words} named {name}" if name else words
    return words


def _candidate(rule: FactRule, match: re.Match[str], *, strong: bool) -> FactCandidate | None:
    relation = _relation(rule, match)
    if relation is None:
        return None
    words = _words(rule, relation, match)
    if words is None:
        return None
    strong = strong and relation.category is FactCategory.PREFERENCE
    return FactCandidate(
        text=relation.phrase(words, strong=strong),
        category=relation.category,
        confidence=STRONG_CONFIDENCE if strong else RULE_CONFIDENCE,
        salience=min(1.0, relation.salience + (STRONG_SALIENCE_BONUS if strong else 0.0)),
        trust=TrustState.STATED,
    )


def _is_strong(text: str) -> bool:
    return STRONG_WORDS.search(text) is not None and not SOFTENERS.search(text)


def _possible_rules(text: str) -> Iterator[FactRule]:
    """The rules that can match ``text``, in table order; the others are not searched."""
    possible = _RULE_GATE.possible(text)
    if possible & _SUBJECT_DROPPING and OTHER_PERSON.search(text):
        possible &= ~_SUBJECT_DROPPING
    return (RULES[index] for index in set_bits(possible))


def _ambiguous_name(clause: Clause, message: str) -> bool:
    """A name in a message about a pet, with no "I"/"my": maybe the pet's name."""
    return _PET_WORDS.search(message) is not None and not _SELF_MENTION.search(clause.text)


def _clause_facts(clause: Clause, message: str) -> Iterator[FactCandidate]:
    strong: bool | None = None
    for rule in _possible_rules(clause.text):
        match = rule.pattern.search(clause.text)
        if match is None:
            continue
        strong = _is_strong(clause.text) if strong is None else strong
        candidate = _candidate(rule, match, strong=strong)
        if candidate is None:
            continue
        if candidate.text.startswith("name: ") and _ambiguous_name(clause, message):
            continue
        yield candidate


Read = tuple[FactCandidate, Statement | None]
"""A candidate with its text read back once."""


def _drop_contradicted_likes(found: list[Read]) -> list[FactCandidate]:
    """A clause matched as both a like and a dislike of one object is a dislike."""
    disliked = {s.object_key for _c, s in found if s is not None and s.relation.key == "dislikes"}
    return [
        candidate
        for candidate, statement in found
        if statement is None
        or statement.relation.key != "likes"
        or statement.object_key not in disliked
    ]


def _identity(candidate: FactCandidate, statement: Statement | None) -> tuple[str, str]:
    if statement is None:
        return (candidate.category.value, object_key(candidate.text))
    return (statement.relation.key, statement.object_key)


def find_facts(message: str) -> list[FactCandidate]:
    """Facts the viewer states about themselves in ``message``, in order, without repeats."""
    found: dict[tuple[str, str], Read] = {}
    for clause in split_clauses(message):
        if clause.is_question:
            continue
        for candidate in _clause_facts(clause, message):
            statement = read_statement(candidate.text)
            found.setdefault(_identity(candidate, statement), (candidate, statement))
    return _drop_contradicted_likes(list(found.values()))


# --- decisions against what is already known ----------------------------------------

Known = tuple[Fact, Statement | None]


def _same_object(candidate: FactCandidate, new: Statement | None, known: Known) -> str | None:
    """ "confirm", "update" or None for one existing fact of the candidate's category."""
    fact, old = known
    if new is None or old is None:
        return "confirm" if object_key(fact.text) == object_key(candidate.text) else None
    if old.object_key != new.object_key:
        return None
    return "update" if old.relation.key == new.relation.opposite else "confirm"


def _decide(candidate: FactCandidate, known: Sequence[Known], taken: set[str]) -> FactDecision:
    new = read_statement(candidate.text)
    open_facts = [k for k in known if k[0].id not in taken and k[0].category is candidate.category]
    for entry in open_facts:
        action = _same_object(candidate, new, entry)
        if action == "confirm":
            return FactDecision("confirm", candidate, entry[0].id)
        if action == "update":
            return FactDecision("update", candidate, entry[0].id)
    if new is not None and new.relation.single_valued:
        for fact, old in open_facts:
            if old is not None and old.relation.key == new.relation.key:
                return FactDecision("update", candidate, fact.id)
    return FactDecision("add", candidate, None)


def decide(candidates: Sequence[FactCandidate], existing: Sequence[Fact]) -> list[FactDecision]:
    """One decision per candidate; no existing fact is the target of two decisions."""
    known = [(fact, read_statement(fact.text)) for fact in existing if fact.is_current]
    taken: set[str] = set()
    decisions = []
    for candidate in candidates:
        decision = _decide(candidate, known, taken)
        if decision.target_fact_id is not None:
            taken.add(decision.target_fact_id)
        decisions.append(decision)
    return decisions


class RuleFactExtractor:
    """A :class:`~omoide.memory.extraction.FactExtractor` made of patterns; no model."""

    def may_hold_facts(self, user_message: str) -> bool:
        return bool(find_facts(user_message))

    async def extract(
        self,
        user_message: str,
        bot_message: str,
        *,
        user_name: str | None,
        existing: Sequence[Fact],
    ) -> list[FactDecision]:
        """Decisions for the facts in ``user_message``; the reply and name are not read."""
        return decide(find_facts(user_message), existing)

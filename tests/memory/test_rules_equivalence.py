"""The gated fact finding and importance scoring give exactly what the plain paths give.

The production paths skip rule and signal patterns whose literals are missing from the
text (see ``memory.pattern_gates``) and count characters with patterns instead of one by
one. The references below are the plain paths: every rule tried on every clause
(``find_facts(..., gated=False)``), every signal group searched, every character
weighed. Any difference, on any text, is a bug in the fast path.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from omoide.domain import ScoringMethod
from omoide.memory import patterns
from omoide.memory.extraction.patterns import (
    RULES,
    FactRule,
)
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts import text as fact_text
from omoide.memory.facts.text import object_key
from omoide.memory.importance import (
    BASE_SCORE,
    EMOTION_WEIGHT,
    LONG_MESSAGE_BONUS,
    LONG_MESSAGE_LENGTH,
    LOW_SIGNAL_SCORE,
    ImportanceResult,
    score_by_rules,
    signal_bonus,
)
from omoide.memory.patterns import (
    SIGNAL_GROUPS,
    asks_without_self,
    english_equivalent_length,
    is_low_signal,
    matched_signals,
    normalise,
)
from tests.memory.rule_texts import (
    fixture_strings,
    fragment_message,
    fragment_messages,
    fragment_strategy,
    synthetic_turns,
)

# --- references: the plain paths -------------------------------------------------------


def reference_object_key(words: str) -> str:
    text = fact_text._PARENTHESISED.sub(" ", unicodedata.normalize("NFKC", words)).strip()
    text = fact_text._ARTICLE.sub("", text).casefold()
    return "".join(c for c in text if unicodedata.category(c)[0] in "LN")


def reference_find_facts(message: str) -> list[FactCandidate]:
    """Every rule searched on every clause (no gate)."""
    return find_facts(message, gated=False)


def _reference_squeezed(token: str, *, keep: int) -> str:
    return re.sub(r"(.)\1+", lambda run: run.group(1) * min(keep, len(run.group(0))), token)


def _reference_low_signal_token(token: str) -> bool:
    forms = {token, _reference_squeezed(token, keep=2), _reference_squeezed(token, keep=1)}
    if patterns._LATIN_TOKEN.fullmatch(token):
        return any(
            form in patterns._LATIN_ACKNOWLEDGEMENTS
            or patterns._LATIN_LAUGHTER.fullmatch(form)
            or patterns._INTERNET_NUMERALS.fullmatch(form)
            for form in forms
        )
    return any(patterns._CJK_ACKNOWLEDGEMENTS.fullmatch(form) for form in forms)


def reference_is_low_signal(message: str) -> bool:
    kept = "".join(c if unicodedata.category(c)[0] in "LN" else " " for c in normalise(message))
    tokens = kept.split()
    if not tokens:
        return True
    joined = "".join(tokens)
    if len(joined) >= 3 and len(set(joined)) == 1:
        return True
    return all(_reference_low_signal_token(token) for token in tokens)


def reference_matched_signals(text: str) -> tuple[str, ...]:
    folded = normalise(text)
    return tuple(name for name, pattern in SIGNAL_GROUPS.items() if pattern.search(folded))


def _reference_weight(character: str) -> float:
    code = ord(character)
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3131 <= code <= 0x318E:
        return 3.0
    if 0x3040 <= code <= 0x30FF:
        return 2.5
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
        return 4.0
    return 1.0


def reference_english_equivalent_length(text: str) -> float:
    squeezed = _reference_squeezed(unicodedata.normalize("NFKC", text).strip(), keep=2)
    return sum(_reference_weight(character) for character in squeezed)


def reference_score(user: str, bot: str, intensity: float) -> ImportanceResult:
    """The scoring formula over the plain paths (every signal group searched)."""
    said = user if user.strip() else bot
    if reference_is_low_signal(said):
        return ImportanceResult(LOW_SIGNAL_SCORE, False, ("low_signal",), ScoringMethod.RULES)
    signals = reference_matched_signals(said)
    score = BASE_SCORE + signal_bonus(signals, asks=asks_without_self(said))
    score += EMOTION_WEIGHT * intensity
    if reference_english_equivalent_length(said) > LONG_MESSAGE_LENGTH:
        score += LONG_MESSAGE_BONUS
        signals = (*signals, "long_message")
    score = round(min(1.0, max(0.0, score)), 6)
    return ImportanceResult(score, score >= 0.3, signals, ScoringMethod.RULES)


# --- checks ----------------------------------------------------------------------------


def _check_facts(message: str) -> int:
    """Asserts both paths agree on ``message``; returns facts found."""
    facts = find_facts(message)
    assert facts == reference_find_facts(message), message
    return len(facts)


def _check_score(user: str, bot: str, intensity: float = 0.5) -> tuple[str, ...]:
    assert is_low_signal(user) == reference_is_low_signal(user), user
    assert english_equivalent_length(user) == reference_english_equivalent_length(user), user
    exchange = f"{user}\n{bot}"
    assert matched_signals(exchange) == reference_matched_signals(exchange), exchange
    assert matched_signals(user) == reference_matched_signals(user), user
    result = score_by_rules(user, bot, emotion_intensity=intensity)
    assert result == reference_score(user, bot, intensity), (user, bot)
    return result.signals


def _check_statements(texts: Iterable[str]) -> None:
    for text in texts:
        assert object_key(text) == reference_object_key(text), text


def test_fixture_messages_give_the_same_facts() -> None:
    texts = fixture_strings()
    assert len(texts) > 3000
    assert sum(_check_facts(text) for text in texts) > 200


def test_fixture_messages_score_the_same() -> None:
    texts = fixture_strings()
    signals = [_check_score(user, bot) for user, bot in pairwise(texts)]
    assert sum(map(len, signals)) > 1000


def test_fixture_texts_read_back_the_same() -> None:
    found = [fact.text for text in fixture_strings() for fact in find_facts(text)]
    _check_statements([*fixture_strings(), *found])


def test_synthetic_chat_gives_the_same_facts_and_scores() -> None:
    facts = signals = 0
    for turn in synthetic_turns(3000):
        facts += _check_facts(turn.user_message)
        signals += len(_check_score(turn.user_message, turn.bot_message, turn.emotion_intensity))
    assert facts > 500
    assert signals > 1000


def test_messages_made_of_pattern_words_give_the_same_facts_and_scores() -> None:
    messages = list(fragment_messages(3000, seed=7))
    facts = sum(_check_facts(message) for message in messages)
    signals = sum(len(_check_score(message, "")) for message in messages)
    assert facts > 300
    assert signals > 1000


def _rule_id(rule: FactRule) -> str:
    return f"{rule.script}-{rule.kind}"


@pytest.mark.parametrize("rule", RULES, ids=map(_rule_id, RULES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_text_drawn_from_each_rule_gives_the_same_facts_and_scores(
    rule: FactRule, data: st.DataObject
) -> None:
    """Every rule, in every branch, inside a mixed-script message."""
    context = st.randoms(use_true_random=False).map(fragment_message)
    before, after = data.draw(context), data.draw(context)
    message = before + data.draw(st.from_regex(rule.pattern)) + after
    _check_facts(message)
    _check_score(message, after)


@settings(max_examples=400, deadline=None)
@given(fragment_strategy(), fragment_strategy())
@example("をはがもmumww", "")  # laughter glued to a word: the gate reads it as the sentences do
def test_any_mix_of_pattern_words_gives_the_same_facts_and_scores(user: str, bot: str) -> None:
    _check_facts(user)
    _check_score(user, bot)
    _check_statements([user, *(fact.text for fact in find_facts(user))])

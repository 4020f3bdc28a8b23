"""Pattern gates: the literals read from a pattern are really needed by every match.

A gate that claims a literal a pattern does not need would silently drop facts and
signals, so the claims are checked three ways: on small patterns of every shape the
reader knows, by breaking every required literal in texts the rule patterns match (the
pattern must then fail), and by checking the case folding against every code point.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.speed.corpus import DEFAULT_TIMELINE
from benchmarks.speed.synthetic import ChatGenerator
from omoide.memory.extraction.clauses import split_clauses
from omoide.memory.extraction.patterns import RULES, FactRule
from omoide.memory.pattern_gates import (
    CASE_FOLDS,
    PatternGate,
    required_literals,
    set_bits,
    top_level_alternatives,
)
from omoide.memory.patterns import _ALTERNATIVES, SIGNAL_GROUPS

GATED_PATTERNS = [rule.pattern for rule in RULES] + [pattern for _name, pattern in _ALTERNATIVES]


def _required(source: str, flags: int = 0) -> frozenset[str] | None:
    return required_literals(re.compile(source, flags))


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("abc", {"abc"}),
        (r"\bI\s+(?:love|like)\s+(?P<obj>.+)", {"love", "like"}),
        ("(?:a|b)c", {"ac", "bc"}),
        ("[xy]z", {"xz", "yz"}),
        ("[xy]z+", {"z"}),  # the fewer alternatives, the better
        ("좋아(?:해|함)", {"좋아해", "좋아함"}),
        (r"(?<!안)좋아", {"좋아"}),  # a lookbehind consumes nothing
        (r"x\by", {"xy"}),
        ("a(?:b)?cd", {"cd"}),  # the optional part splits the run; the longer one is kept
        ("a{2,5}", {"a"}),
        ("(?>ab|cd)", {"ab", "cd"}),
    ],
)
def test_required_literals_of_each_shape(source: str, expected: set[str]) -> None:
    assert _required(source) == frozenset(expected)


@pytest.mark.parametrize(
    "source",
    [
        "a?",  # may match nothing
        "a*",
        "a|b*",  # one branch needs nothing
        ".+",
        r"\d+",
        "[^a]",
        "[a-zA-Z]+",  # a class too wide to list
        "(?i:abc)",  # an inline flag changes how letters compare
        "é",  # a cased letter outside ASCII: its case variants are not folded here
        "(a)?(?(1)b|c)",  # a conditional
    ],
)
def test_patterns_without_a_known_requirement_are_not_gated(source: str) -> None:
    assert _required(source) is None


def test_literals_are_folded_like_the_text_under_ignorecase() -> None:
    assert _required("LIKE", re.IGNORECASE) == frozenset({"like"})
    gate = PatternGate.of([re.compile("like", re.IGNORECASE), re.compile("好き")])
    assert gate.possible("I LİKE it") == 0b01  # İ matches "i" under IGNORECASE
    assert gate.possible("ラーメンが好き") == 0b10
    assert gate.possible("nothing here") == 0


def test_a_gate_lets_through_exactly_the_patterns_whose_literals_are_present() -> None:
    patterns = [re.compile(source) for source in ("cat", "a?", "dog|bird", "x")]
    gate = PatternGate.of(patterns)
    assert list(set_bits(gate.possible("a bird and a cat"))) == [0, 1, 2]
    assert list(set_bits(gate.possible(""))) == [1]  # "a?" needs nothing


@given(st.integers(min_value=0, max_value=2**130))
def test_set_bits_lists_the_set_bits_in_order(mask: int) -> None:
    bits = list(set_bits(mask))
    assert bits == sorted(bits)
    assert sum(1 << bit for bit in bits) == mask


def test_every_rule_and_signal_alternative_is_gated() -> None:
    """The whole speed-up rests on this: no pattern in the tables is always searched."""
    assert [p.pattern for p in GATED_PATTERNS if required_literals(p) is None] == []


# --- the required literals are really required ----------------------------------------


def _without(text: str, literals: frozenset[str]) -> str:
    """``text`` with one character of every occurrence of the literals broken."""
    characters = list(text)
    folded = text.translate(CASE_FOLDS)
    for literal in literals:
        start = folded.find(literal)
        while start >= 0:
            characters[start] = "\x00"
            start = folded.find(literal, start + 1)
    return "".join(characters)


def _sample_texts() -> Iterator[str]:
    generator = ChatGenerator(seed=77, viewers=100, timeline=DEFAULT_TIMELINE)
    for turn in generator.turns(1500):
        yield turn.user_message
        yield f"{turn.user_message}\n{turn.bot_message}"
        yield from (clause.text for clause in split_clauses(turn.user_message))


def test_a_pattern_never_matches_chat_once_its_required_literals_are_broken() -> None:
    texts = list(_sample_texts())
    checked = 0
    for pattern in GATED_PATTERNS:
        literals = required_literals(pattern)
        assert literals is not None
        for text in texts:
            if pattern.search(text) is None:
                continue
            assert pattern.search(_without(text, literals)) is None, (pattern.pattern, text)
            checked += 1
    assert checked > 2000  # the sample really exercises the patterns


def _assert_needs_its_literals(pattern: re.Pattern[str], text: str) -> None:
    assert pattern.search(text) is not None
    literals = required_literals(pattern)
    assert literals is not None
    assert any(literal in text.translate(CASE_FOLDS) for literal in literals)
    assert pattern.search(_without(text, literals)) is None


def _rule_id(rule: FactRule) -> str:
    return f"{rule.script}-{rule.kind}"


@pytest.mark.parametrize("rule", RULES, ids=map(_rule_id, RULES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_texts_drawn_from_a_rule_need_its_literals(rule: FactRule, data: st.DataObject) -> None:
    """Texts drawn from the pattern itself, down its branches at random: each one must
    hold a required literal, and must stop matching once those literals are broken."""
    _assert_needs_its_literals(rule.pattern, data.draw(st.from_regex(rule.pattern)))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_texts_drawn_from_a_signal_need_its_literals(data: st.DataObject) -> None:
    _name, pattern = data.draw(st.sampled_from(_ALTERNATIVES))
    _assert_needs_its_literals(pattern, data.draw(st.from_regex(pattern)))


@given(st.lists(st.sampled_from(sorted({"\x00", " ", "I", "ı", "İ", "my", "나", "我", "の"}))))
def test_breaking_literals_never_leaves_one_behind(pieces: list[str]) -> None:
    text = "".join(pieces) + "I like my cat"
    literals = frozenset({"i", "my", "cat"})
    broken = _without(text, literals).translate(CASE_FOLDS)
    assert not any(literal in broken for literal in literals)


# --- case folding and letter classes, against every code point --------------------------

EVERY_CHARACTER = "".join(map(chr, range(0x110000)))


def _literal_characters() -> set[str]:
    characters = {chr(code) for code in range(ord("A"), ord("Z") + 1)}
    for pattern in GATED_PATTERNS:
        characters.update("".join(required_literals(pattern) or ()))
    return characters


def test_case_folds_cover_every_character_ignorecase_equates_with_a_literal() -> None:
    characters = _literal_characters()
    any_of_them = re.compile(
        "[" + "".join(re.escape(c) for c in sorted(characters)) + "]", re.IGNORECASE
    )
    matchers = {
        c: re.compile(f"{re.escape(c)}|[{re.escape(c)}]", re.IGNORECASE) for c in characters
    }
    equated = set(any_of_them.findall(EVERY_CHARACTER))
    assert {"ı", "İ", "ſ", "\u212a"} <= equated  # the ones ASCII letters pick up
    for text_character in equated:
        for literal, matcher in matchers.items():
            if matcher.fullmatch(text_character):
                folded = text_character.translate(CASE_FOLDS)
                assert folded == literal.translate(CASE_FOLDS), (text_character, literal)


def test_word_characters_without_underscore_are_exactly_letters_and_digits() -> None:
    """``[^\\W_]`` stands for "Unicode category L or N" in patterns.py and fact_text.py."""
    by_pattern = set(re.findall(r"[^\W_]", EVERY_CHARACTER))
    by_category = {c for c in EVERY_CHARACTER if unicodedata.category(c)[0] in "LN"}
    assert by_pattern == by_category


# --- signal groups cut into alternatives ------------------------------------------------


@pytest.mark.parametrize(("name", "pattern"), list(SIGNAL_GROUPS.items()))
def test_signal_groups_are_cut_only_at_top_level_bars(name: str, pattern: re.Pattern[str]) -> None:
    alternatives = top_level_alternatives(pattern.pattern)
    assert "|".join(alternatives) == pattern.pattern
    assert len(alternatives) > 5
    for alternative in alternatives:
        compiled = re.compile(alternative)  # a cut inside a group or class would not compile
        assert compiled.flags == pattern.flags  # no inline flag left behind in one part


def test_top_level_alternatives_respect_groups_classes_and_escapes() -> None:
    assert top_level_alternatives(r"a|(b|c)|[|]|\||d") == ["a", "(b|c)", "[|]", r"\|", "d"]
    assert top_level_alternatives("[]|]x|y") == ["[]|]x", "y"]

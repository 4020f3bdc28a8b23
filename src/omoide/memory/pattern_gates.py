"""Which patterns of a table can possibly match a text, decided from their literals.

Most rule patterns cannot match a text that lacks one of a few literal strings: a rule
for "좋아해" needs a "좋", "I love X" needs one of "love", "like", "adore", "enjoy". The
strings a pattern requires (:func:`required_literals`) are read from the pattern's own
parse tree, so they cannot drift from it: every match of the pattern contains one of
them. A :class:`PatternGate` then tells, for one text, which patterns of a table are
worth searching; the others cannot match it, and skipping them changes no result.

Case: a pattern compiled with ``re.IGNORECASE`` matches "I" against "i", "ı" and "İ";
both the literals and the text are mapped through :data:`CASE_FOLDS` (one character to
one character) so that such characters compare equal. Only literals whose case
variants :data:`CASE_FOLDS` covers are used (ASCII letters and caseless scripts); a
pattern whose requirements need anything else gets no gate and is always searched.

The parse tree is CPython's (``re._parser``). A node this module does not know makes the
requirement unknown, never wrong: that pattern is then always searched.
"""

from __future__ import annotations

import importlib
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

_sre_parser = importlib.import_module("re._parser")  # CPython's regex parser, 3.11 and on
_sre_constants = importlib.import_module("re._constants")
ParseTree = Sequence[Any]
"""A list of (opcode, argument) nodes as ``re._parser`` builds them."""

CASE_FOLDS = str.maketrans(
    {
        **{chr(code): chr(code + 32) for code in range(ord("A"), ord("Z") + 1)},
        "\u0130": "i",  # İ: re.IGNORECASE matches it with "i"
        "\u0131": "i",  # ı
        "\u017f": "s",  # ſ
        "\u212a": "k",  # Kelvin sign
    }
)
"""Every character ``re.IGNORECASE`` equates with an ASCII letter, mapped to its lower
case; the test suite checks this against every code point."""

MAX_LITERALS = 64
"""A requirement with more alternatives than this is not worth checking."""
_MAX_CLASS = 32

Requirement = frozenset[str]
"""Strings of which every match contains at least one (after :data:`CASE_FOLDS`)."""


def _caseless_or_ascii(character: str) -> bool:
    return character.isascii() or (character.lower() == character == character.upper())


@dataclass(frozen=True, slots=True)
class _Reading:
    """What one node of a parse tree says: the exact strings it can match (when few and
    known) and a requirement that every match meets (when there is one)."""

    exact: Requirement | None
    required: Requirement | None


_UNKNOWN = _Reading(None, None)
_EMPTY = _Reading(frozenset({""}), None)


def _selectivity(requirement: Requirement) -> tuple[int, int]:
    return (min(4, *map(len, requirement)), -len(requirement))


def _better(best: Requirement | None, other: Requirement | None) -> Requirement | None:
    """The more selective requirement: longer shortest string, then fewer; ``best`` on
    a tie. A requirement that the empty string meets requires nothing."""
    if not other or "" in other:
        return best
    if best is None:
        return other
    return max(best, other, key=_selectivity)


def _concatenation(parts: Sequence[Requirement]) -> Requirement | None:
    size = 1
    for part in parts:
        size *= len(part)
    if size > MAX_LITERALS:
        return None
    return frozenset("".join(strings) for strings in itertools.product(*parts))


def _read_sequence(nodes: ParseTree) -> _Reading:
    readings = [_read_node(op, argument) for op, argument in nodes]
    best: Requirement | None = None
    run: list[Requirement] = []
    for reading in [*readings, _UNKNOWN]:
        best = _better(best, reading.required)
        if reading.exact is not None:
            run.append(reading.exact)
            continue
        best = _better(best, _concatenation(run))
        run = []
    exact = [r.exact for r in readings]
    whole = _concatenation([e for e in exact if e is not None]) if None not in exact else None
    return _Reading(whole, _better(best, whole))


def _read_class(items: ParseTree) -> _Reading:
    characters: set[str] = set()
    for op, argument in items:
        if op is _sre_constants.LITERAL and isinstance(argument, int):
            characters.add(chr(argument))
        elif op is _sre_constants.RANGE and isinstance(argument, tuple):
            low, high = argument
            if high - low >= _MAX_CLASS:
                return _UNKNOWN
            characters.update(chr(code) for code in range(low, high + 1))
        else:  # NEGATE, CATEGORY: too many characters to list
            return _UNKNOWN
    if len(characters) > _MAX_CLASS or not all(map(_caseless_or_ascii, characters)):
        return _UNKNOWN
    folded = frozenset(c.translate(CASE_FOLDS) for c in characters)
    return _Reading(folded, folded)


def _union(parts: Sequence[Requirement | None]) -> Requirement | None:
    """Any one of ``parts`` may have matched: the union, when every part is known."""
    known = [part for part in parts if part is not None]
    if len(known) < len(parts):
        return None
    union = frozenset[str]().union(*known)
    return union if len(union) <= MAX_LITERALS else None


def _read_branches(branches: Sequence[ParseTree]) -> _Reading:
    readings = [_read_sequence(branch) for branch in branches]
    required = _union([reading.required or reading.exact for reading in readings])
    exact = _union([reading.exact for reading in readings])
    return _Reading(exact, None if required is None or "" in required else required)


def _read_node(op: Any, argument: Any) -> _Reading:
    constants = _sre_constants
    if op is constants.LITERAL and isinstance(argument, int):
        character = chr(argument)
        if not _caseless_or_ascii(character):
            return _UNKNOWN
        folded = frozenset({character.translate(CASE_FOLDS)})
        return _Reading(folded, folded)
    if op is constants.IN and isinstance(argument, list):
        return _read_class(argument)
    if op is constants.SUBPATTERN and isinstance(argument, tuple):
        _group, added_flags, removed_flags, nodes = argument
        return _UNKNOWN if added_flags or removed_flags else _read_sequence(nodes)
    if op is constants.ATOMIC_GROUP:
        return _read_sequence(argument)
    if op is constants.BRANCH and isinstance(argument, tuple):
        return _read_branches(argument[1])
    if op in (constants.MAX_REPEAT, constants.MIN_REPEAT, constants.POSSESSIVE_REPEAT):
        low, high, nodes = argument
        inner = _read_sequence(nodes)
        if low == 0:
            return _UNKNOWN
        return _Reading(inner.exact if low == high == 1 else None, inner.required)
    if op in (constants.AT, constants.ASSERT, constants.ASSERT_NOT):
        return _EMPTY  # zero width: the match around it is contiguous
    return _UNKNOWN


def required_literals(pattern: re.Pattern[str]) -> Requirement | None:
    """Strings one of which is in every text ``pattern`` matches (after CASE_FOLDS)."""
    try:
        tree = _sre_parser.parse(pattern.pattern, pattern.flags)
    except (re.error, TypeError, ValueError):  # pragma: no cover - compiled already
        return None
    return _read_sequence(list(tree)).required


_COMMON_CHARACTERS = " etaoinshrdlcumwfgypbvkjxqz"
"""Space and English letters, most frequent first; a literal is looked up by its rarest
character, so that a text's common letters bring few literals to check."""


def _rarity(character: str) -> int:
    common = _COMMON_CHARACTERS.find(character)
    return len(_COMMON_CHARACTERS) if common < 0 else common


def _key_character(literal: str) -> str:
    return max(literal, key=_rarity)


@dataclass(frozen=True, slots=True)
class _Literals:
    """The required literals filed under one of their characters."""

    single: int
    """Patterns for which the character alone is enough."""
    longer: tuple[tuple[str, int], ...]
    """Longer literals, each with the patterns that need it."""


@dataclass(frozen=True, slots=True)
class PatternGate:
    """For a table of patterns, the ones that can match a given text (as a bit mask)."""

    always: int
    """Patterns with no known requirement: always possible."""
    by_character: Mapping[str, _Literals]
    """Each required literal (folded) under its rarest character."""
    characters: frozenset[str]
    """The keys of ``by_character``."""

    @classmethod
    def of(cls, patterns: Sequence[re.Pattern[str]]) -> PatternGate:
        always = 0
        needed_by: dict[str, int] = {}
        for index, pattern in enumerate(patterns):
            required = required_literals(pattern)
            if required is None:
                always |= 1 << index
                continue
            for literal in required:
                needed_by[literal] = needed_by.get(literal, 0) | 1 << index
        filed: dict[str, list[tuple[str, int]]] = {}
        for literal, mask in sorted(needed_by.items()):
            filed.setdefault(_key_character(literal), []).append((literal, mask))
        by_character = {key: _literals(key, pairs) for key, pairs in filed.items()}
        return cls(always, MappingProxyType(by_character), frozenset(by_character))

    def possible(self, text: str) -> int:
        """Bit ``i`` is set when pattern ``i`` may match ``text``; unset ones cannot."""
        folded = text.translate(CASE_FOLDS)
        possible = self.always
        for character in self.characters.intersection(folded):
            literals = self.by_character[character]
            possible |= literals.single
            for literal, mask in literals.longer:
                if mask & ~possible and literal in folded:
                    possible |= mask
        return possible


def _literals(key: str, filed: Sequence[tuple[str, int]]) -> _Literals:
    single = sum(mask for literal, mask in filed if literal == key)
    return _Literals(single, tuple((literal, mask) for literal, mask in filed if literal != key))


def top_level_alternatives(source: str) -> list[str]:
    """``source`` cut at each ``|`` outside groups and classes: ``"a|(b|c)"`` gives
    ``["a", "(b|c)"]``. A pattern finds a match exactly when one of these does, and each
    may have a requirement the whole alternation lacks."""
    alternatives, start, depth, in_class, escaped = [], 0, 0, False, False
    for position, character in enumerate(source):
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif in_class:
            in_class = character != "]" or source[position - 1] == "["
        elif character == "[":
            in_class = True
        elif character in "()":
            depth += 1 if character == "(" else -1
        elif character == "|" and depth == 0:
            alternatives.append(source[start:position])
            start = position + 1
    return [*alternatives, source[start:]]


def set_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        lowest = mask & -mask
        yield lowest.bit_length() - 1
        mask ^= lowest

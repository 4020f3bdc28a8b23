"""Texts on which the rule and signal patterns actually match, for equivalence tests.

Three sources: every string written in the test suite and the benchmarks (the
fixtures), synthetic chat from the speed benchmark, and messages assembled from the
literal words of the patterns themselves, in pattern order, so that "I" + "love" + "obj"
or "obj" + "싫어" come out and the rules fire.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from benchmarks.speed.corpus import DEFAULT_TIMELINE
from benchmarks.speed.synthetic import ChatGenerator, SyntheticTurn
from omoide.memory.extraction.hits import NOT_ABOUT_NOW, STRONG_WORDS
from omoide.memory.extraction.patterns import OTHER_PERSON, RULES, SOFTENERS
from omoide.memory.patterns import SIGNAL_GROUPS

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_FOLDERS = ("tests", "benchmarks/speed", "benchmarks/quality", "benchmarks/stream")
MAX_FIXTURE_CHARS = 2500


@cache
def fixture_strings() -> tuple[str, ...]:
    """Every string constant in the test suite's and the benchmarks' Python files."""
    found: set[str] = set()
    for folder in FIXTURE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                    continue
                if node.value.strip() and len(node.value) <= MAX_FIXTURE_CHARS:
                    found.add(node.value)
    return tuple(sorted(found))


def synthetic_turns(count: int = 3000, *, seed: int = 31) -> list[SyntheticTurn]:
    return ChatGenerator(seed=seed, viewers=100, timeline=DEFAULT_TIMELINE).turns(count)


_WORD = re.compile(r"[^\W\d_]{1,16}")
_NOT_WORDS = re.compile(r"\\.|\(\?P<\w+>|\(\?<?[=!]")
"""Escapes ("\\b", "\\s"), group names and lookaround openers in a pattern's source."""
_SOURCES = (
    *(rule.pattern.pattern for rule in RULES),
    *(pattern.pattern for pattern in SIGNAL_GROUPS.values()),
    OTHER_PERSON.pattern,
    STRONG_WORDS.pattern,
    SOFTENERS.pattern,
    NOT_ABOUT_NOW.pattern,
)
PATTERN_WORDS = tuple(tuple(_WORD.findall(_NOT_WORDS.sub(" ", source))) for source in _SOURCES)
"""The literal words of each pattern, in the order the pattern has them."""
JOINERS = ("", "", " ", " ", "  ", "、", ", ", "。", ". ", "! ", "? ", "\n", " but ", "けど")
NOISE = (
    "I",
    "my",
    "İ",
    "ı",
    "ſ",
    "MY",
    "나",
    "저는",
    "私は",
    "我",
    "23",
    "3월 5일",
    "ㅋㅋ",
    "w",
    "cats",
    "猫",
)


def _phrase(rng: random.Random) -> str:
    words = rng.choice(PATTERN_WORDS)
    if not words:
        return rng.choice(NOISE)
    count = rng.randint(1, min(5, len(words)))
    chosen = sorted(rng.sample(range(len(words)), count))
    return "".join(words[index] + rng.choice(("", " ", " ")) for index in chosen).strip()


def fragment_message(rng: random.Random) -> str:
    """A message of one to three pattern phrases with joiners and a little noise."""
    parts = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.3:
            parts.append(rng.choice(NOISE))
        parts.append(_phrase(rng))
    return "".join(part + rng.choice(JOINERS) for part in parts)


def fragment_messages(count: int, *, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    return (fragment_message(rng) for _ in range(count))


def fragment_strategy() -> st.SearchStrategy[str]:
    """Hypothesis: mixed-script strings of pattern words, joiners and free text."""
    words = sorted({word for words in PATTERN_WORDS for word in words})
    piece = st.one_of(
        st.sampled_from(words),
        st.sampled_from(sorted(set(JOINERS) | set(NOISE))),
        st.text(max_size=3),
    )
    seeded = st.randoms(use_true_random=False).map(fragment_message)
    drawn = st.sampled_from(RULES).flatmap(lambda rule: st.from_regex(rule.pattern))
    return st.one_of(seeded, drawn, st.lists(piece, max_size=12).map("".join))

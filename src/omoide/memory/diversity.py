"""One line per thing said: repeated and near-identical episodes collapse into one.

A viewer who says "it's raining again" on five days should not fill the memory section
five times. Episodes are compared by what the viewer said (the character's reply when the
viewer's message is empty): the same words after normalisation, or word sets that overlap
by at least ``similarity`` (Jaccard over the keyword analyzer's terms, so Korean, Japanese
and Chinese compare by character bigrams). The best-ranked episode of each group stays, and
:class:`Repeats` says how often and between which dates the thing was said.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from difflib import SequenceMatcher
from functools import lru_cache

from omoide.domain import Episode, Fact
from omoide.memory.ranking import Ranked
from omoide.store.keywords import analyze_document
from omoide.text_caches import remembers_text

REPEAT_SIMILARITY = 0.8
RESTATED_SHARE = 0.8
"""An episode restates a profile fact when the fact holds at least this share of its
words (or the reverse)."""


@dataclass(frozen=True, slots=True)
class Repeats:
    """How often a thing was said (the shown episode included) and when."""

    count: int
    first: datetime
    last: datetime


@dataclass(slots=True)
class _Group:
    kept: Ranked[Episode]
    key: str
    terms: frozenset[str]
    moments: list[datetime]


def said(episode: Episode) -> str:
    """What an episode is about for comparison: the viewer's words, else the reply."""
    return episode.user_message if episode.user_message.strip() else episode.bot_message


_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]")
"""A character ``str.isalnum`` refuses: its complement is exactly ``isalnum`` (checked on
every code point by a test), so ``re`` removes them instead of a look at each character."""


def comparable(text: str) -> str:
    """``text`` folded to its letters and digits (NFKC, case-folded): what two sayings
    of the same words have in common."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_LETTER_OR_DIGIT.sub("", folded)


SAYINGS_CACHED = 8192
"""Texts whose comparable form and words are remembered per process (texts never change)."""


@remembers_text
@lru_cache(maxsize=SAYINGS_CACHED)
def _saying(text: str) -> tuple[str, frozenset[str]]:
    """``text``'s :func:`comparable` form and its keyword terms."""
    return comparable(text), frozenset(analyze_document(text))


def _overlap(first: frozenset[str], second: frozenset[str]) -> float:
    if not first or not second:
        return 0.0
    shared = len(first & second)
    return shared / (len(first) + len(second) - shared)  # the union's size, not built


def _alike(first: frozenset[str], second: frozenset[str], similarity: float) -> bool:
    """Whether the two term sets overlap by at least ``similarity`` (Jaccard). The overlap
    is at most the smaller set's size over the larger's: sets of very different sizes are
    told apart without intersecting them."""
    shorter, longer = min(len(first), len(second)), max(len(first), len(second))
    if shorter and shorter / longer < similarity:  # the overlap is at most this ratio
        return False
    return _overlap(first, second) >= similarity


def collapse_repeats(
    ranked: Sequence[Ranked[Episode]],
    *,
    similarity: float = REPEAT_SIMILARITY,
    keep: int | None = None,
    shown: Callable[[Ranked[Episode]], bool] | None = None,
) -> tuple[list[Ranked[Episode]], dict[str, Repeats]]:
    """``ranked`` with each group of (near-)identical episodes reduced to its best member,
    in the same order, and the :class:`Repeats` of every kept episode said more than once.

    ``keep`` keeps the first groups only (the prompt shows a handful): once they are
    formed, a later entry is compared with them alone, and left out if it joins none.
    ``shown`` says whether an entry may be shown at all; one it refuses is left out as if
    absent. It is asked only of an entry that opens a group or joins one, so a candidate
    that could not have changed the kept groups is never read for it.
    """
    groups: list[_Group] = []
    for entry in ranked:
        key, terms = _saying(said(entry.item))
        group = next((group for group in groups if _same(group, key, terms, similarity)), None)
        full = keep is not None and len(groups) >= keep
        if (group is None and full) or (shown is not None and not shown(entry)):
            continue
        if group is None:
            groups.append(_Group(entry, key, terms, [entry.item.recorded_at]))
        else:
            group.moments.append(entry.item.recorded_at)
    repeats = {
        group.kept.item.id: Repeats(len(group.moments), min(group.moments), max(group.moments))
        for group in groups
        if len(group.moments) > 1
    }
    return [group.kept for group in groups], repeats


def _same(group: _Group, key: str, terms: frozenset[str], similarity: float) -> bool:
    """Whether a saying (its comparable ``key`` and ``terms``) repeats ``group``'s."""
    return bool(key and key == group.key) or _alike(terms, group.terms, similarity)


def restated(fact: Fact, episodes: Sequence[Ranked[Episode]]) -> set[str]:
    """The episodes a profile fact already says in the same words: its own source
    episodes whose viewer message is (nearly all) the fact's text. Showing both would
    spend the budget twice on one sentence."""
    sources = set(fact.source_episode_ids)
    if not any(entry.item.id in sources for entry in episodes):
        return set()  # the usual case: no episode shown is the fact's source
    said = comparable(fact.text)
    restated = set()
    for entry in episodes:
        if entry.item.id not in sources or not said:
            continue
        message = comparable(entry.item.user_message)
        if message and _says_nearly_all(said, message):
            restated.add(entry.item.id)
    return restated


def _says_nearly_all(said: str, message: str) -> bool:
    """Whether one of two folded texts holds the other, in order, and the shorter is at
    least :data:`RESTATED_SHARE` of the longer: a fact keeps the viewer's sentence with
    its laughter and filler words taken out ("…we could find lol hope it has walls")."""
    shorter, longer = sorted((said, message), key=len)
    if len(shorter) < RESTATED_SHARE * len(longer):
        return False
    if shorter in longer:
        return True
    blocks = SequenceMatcher(None, shorter, longer, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) == len(shorter)

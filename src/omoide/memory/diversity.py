"""One line per thing said: repeated and near-identical episodes collapse into one.

A viewer who says "it's raining again" on five days should not fill the memory section
five times. Episodes are compared by what the viewer said (the character's reply when the
viewer's message is empty): the same words after normalisation, or word sets that overlap
by at least ``similarity`` (Jaccard over the keyword analyzer's terms, so Korean, Japanese
and Chinese compare by character bigrams). The best-ranked episode of each group stays, and
:class:`Repeats` says how often and between which dates the thing was said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from difflib import SequenceMatcher

from omoide.domain import Episode, Fact
from omoide.memory.episode_readings import comparable, saying
from omoide.memory.ranking import Ranked

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
        key, terms = saying(entry.item)
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


def restated(facts: Sequence[Fact], episodes: Sequence[Ranked[Episode]]) -> set[str]:
    """The episodes profile facts already say in the same words: their source episodes
    whose viewer message the facts taken together hold (at least :data:`RESTATED_SHARE`
    of its letters, in order: "booked cancun with my college group!! 6 of us, first trip
    since graduation" is two facts, each a part). Showing both would spend the budget
    twice on the same sentences."""
    shown = {entry.item.id for entry in episodes}
    said: dict[str, list[str]] = {}
    for fact in facts:
        text = comparable(fact.text)
        for episode_id in fact.source_episode_ids:
            if text and episode_id in shown:
                said.setdefault(episode_id, []).append(text)
    if not said:
        return set()  # the usual case: no episode shown is a shown fact's source
    found = set()
    for entry in episodes:
        texts = said.get(entry.item.id)
        message = comparable(entry.item.user_message) if texts else ""
        if texts and message and _held(message, texts):
            found.add(entry.item.id)
    return found


MIN_BLOCK = 3
"""Letters in a row a fact and a message share to count as the same words."""


def _held(message: str, texts: Sequence[str]) -> bool:
    """Whether ``texts`` together hold :data:`RESTATED_SHARE` of ``message``'s letters (a
    fact that keeps a sentence with its laughter taken out still holds it), and none of
    them says much more than the message."""
    covered = [False] * len(message)
    for text in texts:
        if len(message) < RESTATED_SHARE * len(text):
            return False  # the fact says more than the message: the message is its part
        matcher = SequenceMatcher(None, text, message, autojunk=False)
        for block in matcher.get_matching_blocks():
            if block.size >= MIN_BLOCK:
                covered[block.b : block.b + block.size] = [True] * block.size
    return sum(covered) >= RESTATED_SHARE * len(message)

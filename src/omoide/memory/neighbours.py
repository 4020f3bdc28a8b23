"""Answers after questions: the episode recorded right after one that asked something joins.

When an exchange that asked something ranks among the ``best`` — the viewer asked, or the
character's reply asked ("any plans for the summer?") — what the viewer said next is
often the answer ("camping with my sister!"), and it shares none of the words of a later
question about it. So the episode recorded right after it (one store read for all of
them, the store's ``episode_neighbours``: for each given episode of the scope, the one
recorded just before and the one just after it among those the filter admits, in
timeline order — recorded_at, then id), within ``max_gap`` (the
same conversation), is scored at ``share`` of the asking episode's total, or keeps its own
total when that is higher. An added episode never outranks the one it came with, so the
best hit does not change.

Measured (``benchmarks/results/quality-experiments.md`` and ``quality-full.md``; USE):
LoCoMo recall@10 0.588 -> 0.634 (both neighbours of the three best, asking or not: 0.643),
LongMemEval unchanged, MemoryBank en 0.883 -> 0.889. Lending to every neighbour would also
pull unrelated chat next to a good match into the prompt (a stream viewer's next comment
is usually about something else); lending only from questions to their answers keeps
most of the gain without that.

An added episode's score components are its anchor's scaled by ``share``, with
``neighbour_of`` naming the anchor: the score says why it is there.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TypeVar

from omoide.domain import Episode
from omoide.errors import ConfigError
from omoide.memory.episode_readings import asked
from omoide.memory.ranking import Ranked, ScoreComponents

Key = TypeVar("Key", bound=Hashable)

_TOTAL_DIGITS = 9


@dataclass(frozen=True, slots=True)
class NeighbourConfig:
    """Asking episodes among the ``best`` lend ``share`` of their score to the next one."""

    best: int = 3
    share: float = 0.5
    max_gap: timedelta = timedelta(hours=1)
    """Only an episode recorded this close to its anchor counts (the same conversation)."""

    def __post_init__(self) -> None:
        if isinstance(self.best, bool) or not isinstance(self.best, int) or self.best < 0:
            raise ConfigError(f"neighbours of the best: a non-negative integer (got {self.best})")
        if not 0.0 <= self.share < 1.0:
            raise ConfigError(f"neighbour share must be in [0, 1) (got {self.share})")
        if self.max_gap < timedelta(0):
            raise ConfigError(f"neighbour max_gap must not be negative (got {self.max_gap})")

    @property
    def enabled(self) -> bool:
        return self.best > 0 and self.share > 0.0


def expanded_totals(
    ranked: Sequence[tuple[Key, float]],
    neighbours: Mapping[Key, Sequence[Key]],
    *,
    best: int,
    share: float,
) -> list[tuple[Key, float, Key | None]]:
    """(key, total, anchor) best first: each neighbour of the ``best`` first keys scored at
    least ``share`` x its anchor's total (``anchor`` None for a key keeping its own total);
    ties keep the input order, added keys after ranked ones, in anchor order."""
    totals: dict[Key, tuple[float, Key | None]] = {key: (total, None) for key, total in ranked}
    for anchor, total in ranked[:best]:
        for other in neighbours.get(anchor, ()):
            lent = share * total
            if lent > totals.get(other, (float("-inf"), None))[0]:
                totals[other] = (lent, anchor)
    entries = [(key, total, anchor) for key, (total, anchor) in totals.items()]
    order = sorted(
        range(len(entries)), key=lambda index: (-round(entries[index][1], _TOTAL_DIGITS), index)
    )
    return [entries[index] for index in order]


def with_neighbours(
    ranked: Sequence[Ranked[Episode]],
    neighbours: Mapping[str, Sequence[Episode]],
    config: NeighbourConfig,
) -> list[Ranked[Episode]]:
    """``ranked`` with the answers to its best asking episodes joined, best first."""
    by_id = {entry.item.id: entry for entry in ranked}
    close = {
        anchor: answers_to(by_id[anchor].item, found, config)
        for anchor, found in neighbours.items()
        if anchor in by_id
    }
    episodes = {episode.id: episode for found in close.values() for episode in found}
    order = expanded_totals(
        [(entry.item.id, entry.total) for entry in ranked],
        {anchor: [episode.id for episode in found] for anchor, found in close.items()},
        best=config.best,
        share=config.share,
    )
    result = []
    for episode_id, _, anchor in order:
        if anchor is None:
            result.append(by_id[episode_id])
            continue
        item = by_id[episode_id].item if episode_id in by_id else episodes[episode_id]
        lent = _lent(by_id[anchor].components, config.share, anchor)
        result.append(Ranked(item=item, components=lent))
    return result


def answers_to(anchor: Episode, found: Sequence[Episode], config: NeighbourConfig) -> list[Episode]:
    """Of ``anchor``'s timeline neighbours, the one recorded after it within
    ``config.max_gap``, if ``anchor`` asked something (in either message)."""
    if not asked(anchor):
        return []
    return [
        episode
        for episode in found
        if (episode.recorded_at, episode.id) > (anchor.recorded_at, anchor.id)
        and episode.recorded_at - anchor.recorded_at <= config.max_gap
    ]


def _lent(components: ScoreComponents, share: float, anchor: str) -> ScoreComponents:
    return replace(
        components,
        relevance=share * components.relevance,
        recency=share * components.recency,
        importance=share * components.importance,
        total=share * components.total,
        neighbour_of=anchor,
    )

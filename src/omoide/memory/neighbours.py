"""Timeline neighbours: episodes recorded next to the best ones join the ranking.

What a viewer said right after the exchange a question matches is often the answer (the
question's words are in one exchange, the fact in the next: "what are your plans for the
summer?" ... "camping with my sister!"). After ranking, the episodes recorded just before
and just after each of the ``best`` episodes (:meth:`~omoide.store.base.MemoryStore.
episode_neighbours`, one store read) are scored at ``share`` of that episode's total, or
keep their own total when it is higher; only episodes recorded within ``max_gap`` of it
(one conversation) count. Measured on LoCoMo (``benchmarks/results/
quality-experiments.md``, variant ``ex3 f0.5``): recall@10 0.588 -> 0.643 with USE, 0.658
-> 0.684 with e5; LongMemEval within one question; an added episode never outranks the
episode it came with, so the best hit does not change.

A neighbour's score components are its anchor's scaled by ``share``, with ``neighbour_of``
naming the anchor: the score says why it is there.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TypeVar

from omoide.domain import Episode
from omoide.errors import ConfigError
from omoide.memory.ranking import Ranked, ScoreComponents

Key = TypeVar("Key", bound=Hashable)

_TOTAL_DIGITS = 9


@dataclass(frozen=True, slots=True)
class NeighbourConfig:
    """``best`` episodes lend ``share`` of their score to their timeline neighbours."""

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
    """``ranked`` with the neighbours of its best episodes joined, best first."""
    by_id = {entry.item.id: entry for entry in ranked}
    close = {
        anchor: close_neighbours(by_id[anchor].item, found, config)
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


def close_neighbours(
    anchor: Episode, found: Sequence[Episode], config: NeighbourConfig
) -> list[Episode]:
    """The neighbours recorded within ``config.max_gap`` of ``anchor`` (one conversation)."""
    gap = config.max_gap
    return [episode for episode in found if abs(episode.recorded_at - anchor.recorded_at) <= gap]


def _lent(components: ScoreComponents, share: float, anchor: str) -> ScoreComponents:
    return replace(
        components,
        relevance=share * components.relevance,
        recency=share * components.recency,
        importance=share * components.importance,
        total=share * components.total,
        neighbour_of=anchor,
    )

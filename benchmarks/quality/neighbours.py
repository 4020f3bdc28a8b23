"""Conversation neighbours: re-ranking with the episodes recorded just before and after.

A question's words often match the turn that asks or introduces something, while the
turn that answers it comes right after (or right before). Two re-rankings over omoide's
ranked candidates (:func:`scored_ranking`: ``Recaller._rank`` with each total kept) test
whether the timeline helps:

* :func:`propagate`: every candidate's total gains ``weight`` x the best total among its
  timeline neighbours (a neighbour outside the candidates counts 0: the product would look
  up each candidate's neighbours by time, ids only, and score only those it already has);
* :func:`expand`: the neighbours of the ``top`` best candidates join the candidates (or
  are raised) with ``fraction`` x that candidate's total (the product would fetch those
  ``2 x top`` episodes by time).

Neighbours come from a :class:`Timeline`: one scope's episodes in recorded order, as the
store lists them (``list_episodes`` by recorded time), restricted to those recorded no later
than the question, as the recall path filters. The benchmark builds it from the units'
recording times (:func:`timelines`), which are the stored episodes' ``recorded_at``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from benchmarks.quality.contextual import STORE_VECTORS
from benchmarks.quality.contextual import vector_hits as hits_of
from benchmarks.quality.dataset import Dataset
from benchmarks.quality.harness import Pool, unit_of
from benchmarks.quality.systems import ranked_totals
from omoide.domain import Scope
from omoide.errors import ConfigError
from omoide.memory.config import MemoryConfig

Scored = tuple[str, float]
"""A unit id and its ranking total."""


@dataclass(frozen=True, slots=True)
class Timeline:
    """One scope's units in recorded order (ties in input order)."""

    unit_ids: tuple[str, ...]
    moments: tuple[datetime, ...]
    positions: Mapping[str, int]

    @classmethod
    def of(cls, units: Iterable[tuple[str, datetime]]) -> Timeline:
        ordered = sorted(enumerate(units), key=lambda pair: (pair[1][1], pair[0]))
        unit_ids = tuple(unit_id for _, (unit_id, _) in ordered)
        moments = tuple(moment for _, (_, moment) in ordered)
        return cls(unit_ids, moments, {unit_id: index for index, unit_id in enumerate(unit_ids)})

    def neighbours(
        self, unit_id: str, *, until: datetime, max_gap: timedelta | None = None
    ) -> list[str]:
        """The units recorded just before and just after ``unit_id`` (none later than
        ``until``, none further than ``max_gap`` from it when given)."""
        index = self.positions[unit_id]
        found = []
        for other in (index - 1, index + 1):
            if not 0 <= other < len(self.unit_ids) or self.moments[other] > until:
                continue
            if max_gap is not None and abs(self.moments[other] - self.moments[index]) > max_gap:
                continue
            found.append(self.unit_ids[other])
        return found


Timelines = Mapping[Scope, Timeline]


def timelines(datasets: Iterable[tuple[Dataset, str]]) -> dict[Scope, Timeline]:
    """The timeline of every haystack, keyed by the scope it is stored in
    (``Scope(character_id, haystack.key)``, as the harness stores it)."""
    return {
        Scope(character_id, haystack.key): Timeline.of(
            (unit.unit_id, unit.at) for unit in haystack.units
        )
        for dataset, character_id in datasets
        for haystack in dataset.haystacks
    }


def scored_ranking(pool: Pool, sources: tuple[str, str], config: MemoryConfig) -> list[Scored]:
    """(unit id, total) best first, as ``Recaller._rank`` ranks the pool's hits from the
    (vector, keyword) ``sources``."""
    cut = config.recall.episode_candidates
    vector_source, keyword_source = sources
    vector_hits = hits_of(pool, vector_source)[:cut]
    keyword_hits = pool.keyword_hits(keyword_source)[:cut]
    ranked = ranked_totals(pool, config, vector_hits=vector_hits, keyword_hits=keyword_hits)
    return [(unit_of(episode), total) for episode, total in ranked]


Neighbours = Callable[[str], list[str]]
"""A unit id's timeline neighbours."""


def propagate(ranked: Sequence[Scored], neighbours: Neighbours, *, weight: float) -> list[Scored]:
    """Each total plus ``weight`` x the best total among its neighbours (0 for neighbours
    not ranked), best first; ties keep the input order."""
    totals = dict(ranked)
    raised = [
        (unit_id, total + weight * _best_of(totals, neighbours(unit_id)))
        for unit_id, total in ranked
    ]
    return _best_first(raised)


def expand(
    ranked: Sequence[Scored], neighbours: Neighbours, *, top: int, fraction: float
) -> list[Scored]:
    """The ranking with the neighbours of its ``top`` best entries scored at least
    ``fraction`` x that entry's total (added when not ranked), best first; ties keep the
    input order, added units after ranked ones."""
    totals = dict(ranked)
    for unit_id, total in ranked[:top]:
        for other in neighbours(unit_id):
            totals[other] = max(totals.get(other, 0.0), fraction * total)
    return _best_first(list(totals.items()))


def _best_of(totals: Mapping[str, float], unit_ids: Sequence[str]) -> float:
    return max((totals.get(unit_id, 0.0) for unit_id in unit_ids), default=0.0)


def _best_first(scored: Sequence[Scored]) -> list[Scored]:
    order = sorted(range(len(scored)), key=lambda index: (-scored[index][1], index))
    return [scored[index] for index in order]


Rerank = Callable[[Sequence[Scored], Neighbours], list[Scored]]


def neighbour_order(
    found: Timelines,
    rerank: Rerank,
    config: MemoryConfig,
    *,
    keyword_source: str,
    depth: int,
    vector_source: str = STORE_VECTORS,
    max_gap: timedelta | None = None,
) -> Callable[[Pool], list[str]]:
    """A variant's ``order``: omoide's ranking of the pool, re-ranked by ``rerank`` with the
    neighbours of the pool's scope's timeline."""

    def order(pool: Pool) -> list[str]:
        hits = [*hits_of(pool, vector_source), *pool.keyword_hits(keyword_source)]
        if not hits:
            return []
        scope = hits[0].item.scope
        timeline = found.get(scope)
        if timeline is None:
            raise ConfigError(f"no timeline for scope {scope}: pass the datasets' timelines")
        now = pool.probe.now

        def neighbours(unit_id: str) -> list[str]:
            return timeline.neighbours(unit_id, until=now, max_gap=max_gap)

        ranked = scored_ranking(pool, (vector_source, keyword_source), config)
        return [unit_id for unit_id, _ in rerank(ranked, neighbours)[:depth]]

    return order

"""The search half of a migration's check: the same queries, the same memories.

For one scope, the first stored episode's own vector and a word of its text are searched
in both stores (and likewise for facts). Vector searches must return the same top ten
with the same similarities (ties at the cut-off may swap); keyword searches must match
the same memories (the two backends weigh terms a little differently, so only the set of
matches is compared, not their order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np

from omoide.domain import Episode, Fact, Scope, Vector
from omoide.store.base import EpisodeFilter, FactFilter, Hit
from omoide.store.keywords import analyze_query
from omoide.store.server.database import Database
from omoide.store.server.sqlite_source import (
    SCOPE_COUNTS,
    CountsByScope,
    SourceScope,
    scope_counts,
)

Item = TypeVar("Item", Episode, Fact)
TOP = 10
TOLERANCE = 1e-4
EVERY_EPISODE = EpisodeFilter(include_archived=True)
EVERY_FACT = FactFilter(include_inactive=True)


class SearchedStore(Protocol):
    """What the check asks of each side (the SQLite source and the server target)."""

    async def search_episode_vectors(
        self, scope: Scope, vector: Vector, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]: ...

    async def search_episode_keywords(
        self, scope: Scope, text: str, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]: ...

    async def search_fact_vectors(
        self, scope: Scope, vector: Vector, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]: ...

    async def search_fact_keywords(
        self, scope: Scope, text: str, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]: ...


@dataclass(frozen=True, slots=True)
class SearchComparison:
    scope: Scope
    search: str
    query: str
    source_ids: tuple[str, ...]
    target_ids: tuple[str, ...]
    matched: bool


def same_ranking(left: Sequence[Hit[Item]], right: Sequence[Hit[Item]]) -> bool:
    """Same length and similarities; the same ids above the last similarity (ties may swap)."""
    if len(left) != len(right):
        return False
    if any(abs(a.score - b.score) > TOLERANCE for a, b in zip(left, right, strict=True)):
        return False
    if not left:
        return True
    cut = left[-1].score + TOLERANCE
    return {hit.item.id for hit in left if hit.score > cut} == {
        hit.item.id for hit in right if hit.score > cut
    }


def _first_word(text: str) -> str | None:
    tokens = analyze_query(text)
    return tokens[0] if tokens else None


def _ids(hits: Sequence[Hit[Item]]) -> tuple[str, ...]:
    return tuple(hit.item.id for hit in hits)


async def _episode_searches(
    read: SourceScope, source: SearchedStore, target: SearchedStore
) -> list[SearchComparison]:
    scope, found = read.export.scope, []
    probe = next((item for item in read.export.episodes if item.id in read.episode_vectors), None)
    if probe is not None:
        vector = np.frombuffer(read.episode_vectors[probe.id], dtype="<f4").astype(np.float32)
        left = await source.search_episode_vectors(scope, vector, where=EVERY_EPISODE, limit=TOP)
        right = await target.search_episode_vectors(scope, vector, where=EVERY_EPISODE, limit=TOP)
        found.append(
            SearchComparison(
                scope,
                "episode vectors",
                probe.id,
                _ids(left),
                _ids(right),
                same_ranking(left, right),
            )
        )
    word = _first_word(read.export.episodes[0].searchable_text) if read.export.episodes else None
    if word is not None:
        limit = len(read.export.episodes)
        left = await source.search_episode_keywords(scope, word, where=EVERY_EPISODE, limit=limit)
        right = await target.search_episode_keywords(scope, word, where=EVERY_EPISODE, limit=limit)
        matched = set(_ids(left)) == set(_ids(right))
        found.append(
            SearchComparison(scope, "episode keywords", word, _ids(left), _ids(right), matched)
        )
    return found


async def _fact_searches(
    read: SourceScope, source: SearchedStore, target: SearchedStore
) -> list[SearchComparison]:
    scope, found = read.export.scope, []
    probe = next((item for item in read.export.facts if item.id in read.fact_vectors), None)
    if probe is not None:
        vector = np.frombuffer(read.fact_vectors[probe.id], dtype="<f4").astype(np.float32)
        left = await source.search_fact_vectors(scope, vector, where=EVERY_FACT, limit=TOP)
        right = await target.search_fact_vectors(scope, vector, where=EVERY_FACT, limit=TOP)
        found.append(
            SearchComparison(
                scope, "fact vectors", probe.id, _ids(left), _ids(right), same_ranking(left, right)
            )
        )
        word = _first_word(probe.text)
        if word is not None:
            limit = len(read.export.facts)
            left = await source.search_fact_keywords(scope, word, where=EVERY_FACT, limit=limit)
            right = await target.search_fact_keywords(scope, word, where=EVERY_FACT, limit=limit)
            matched = set(_ids(left)) == set(_ids(right))
            found.append(
                SearchComparison(scope, "fact keywords", word, _ids(left), _ids(right), matched)
            )
    return found


async def compare_searches(
    read: SourceScope, source: SearchedStore, target: SearchedStore
) -> list[SearchComparison]:
    """Run the same searches in both stores for one scope."""
    return [
        *await _episode_searches(read, source, target),
        *await _fact_searches(read, source, target),
    ]


async def target_counts(database: Database) -> CountsByScope:
    """Every server scope's records, counted by the embedded file's own query."""
    return scope_counts(await database.fetch_all(SCOPE_COUNTS))

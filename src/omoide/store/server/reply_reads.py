"""The reads of one reply on the server backend: the single-purpose reads, concurrently.

PostgreSQL and Qdrant answer over the network, so the parts run at once (each on the
connection pool or the Qdrant client as its own method would) rather than in one
transaction; each part answers exactly what its single-purpose method answers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import anyio

from omoide.domain import EmotionRecord, Episode, Fact, Scope, Vector
from omoide.errors import first_omoide_error
from omoide.store.base import EpisodeFilter, FactFilter, Hit, ReplyFound, ReplyReads


class SingleReads(Protocol):
    """The single-purpose reads a reply's reads are made of (the server store)."""

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

    async def list_emotions(
        self, scope: Scope, *, since: datetime, until: datetime
    ) -> list[EmotionRecord]: ...

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...


async def read_concurrently(store: SingleReads, scope: Scope, reads: ReplyReads) -> ReplyFound:
    """Every read ``reads`` asks for, each by its own method, all at once. A failing part
    raises its own error (the first of ours, if several fail), not a group."""
    found = ReplyFound()

    async def by_meaning(vector: Vector) -> None:
        found.episode_vector.extend(
            await store.search_episode_vectors(
                scope, vector, where=reads.episodes_where, limit=reads.episode_limit
            )
        )

    async def facts_by_meaning(vector: Vector) -> None:
        found.fact_vector.extend(
            await store.search_fact_vectors(
                scope, vector, where=reads.facts_where, limit=reads.fact_limit
            )
        )

    async def by_words(words: str) -> None:
        found.episode_keyword.extend(
            await store.search_episode_keywords(
                scope, words, where=reads.episodes_where, limit=reads.episode_limit
            )
        )

    async def facts_by_words(words: str) -> None:
        found.fact_keyword.extend(
            await store.search_fact_keywords(
                scope, words, where=reads.facts_where, limit=reads.fact_limit
            )
        )

    async def emotions(since: datetime, until: datetime) -> None:
        found.emotions.extend(await store.list_emotions(scope, since=since, until=until))

    async def listed(where: FactFilter) -> None:
        found.facts.extend(await store.list_facts(scope, where=where))

    try:
        async with anyio.create_task_group() as group:
            if reads.vector is not None:
                group.start_soon(by_meaning, reads.vector)
                group.start_soon(facts_by_meaning, reads.vector)
            if reads.words is not None:
                group.start_soon(by_words, reads.words)
                group.start_soon(facts_by_words, reads.words)
            if reads.emotions_between is not None:
                group.start_soon(emotions, *reads.emotions_between)
            if reads.facts_listed is not None:
                group.start_soon(listed, reads.facts_listed)
    except BaseExceptionGroup as failures:
        raise first_omoide_error(failures) from failures
    return found

"""The reads of one reply in one read transaction: one worker-thread hop, not six.

Each part runs the same query as the store's single-purpose method with the same
arguments, after the same argument checks; run together they also see one snapshot.
"""

from __future__ import annotations

import apsw

from omoide.store.base import ReplyFound, ReplyReads
from omoide.store.sqlite import episodes, facts
from omoide.store.sqlite.arguments import (
    check_count,
    check_episode_filter,
    check_fact_filter,
    check_neighbour_limit,
    check_text,
)
from omoide.store.sqlite.codec import to_micros
from omoide.store.sqlite.scoped import ScopedWork
from omoide.store.sqlite.vectors import VectorSpace, vector_bytes


def reply_work(space: VectorSpace, reads: ReplyReads) -> ScopedWork[ReplyFound]:
    """The work that makes every read ``reads`` asks for; the arguments are checked here,
    before anything touches the file."""
    check_episode_filter(reads.episodes_where)
    check_fact_filter(reads.facts_where)
    query = None if reads.vector is None else vector_bytes(reads.vector, space)
    if query is not None:
        check_neighbour_limit(reads.episode_limit)
        check_neighbour_limit(reads.fact_limit)
    if reads.words is not None:
        check_text(reads.words, name="text")
        check_count(reads.episode_limit, name="limit")
        check_count(reads.fact_limit, name="limit")
    if reads.emotions_between is not None:
        to_micros(reads.emotions_between[0], name="since")
        to_micros(reads.emotions_between[1], name="until")
    if reads.facts_listed is not None:
        check_fact_filter(reads.facts_listed)

    def work(connection: apsw.Connection, scope_id: int) -> ReplyFound:
        found = ReplyFound()
        if query is not None:
            _by_vector(connection, space, scope_id, query, reads, found)
        if reads.words is not None:
            _by_keywords(connection, scope_id, reads.words, reads, found)
        if reads.emotions_between is not None:
            since, until = reads.emotions_between
            found.emotions.extend(episodes.list_emotions(connection, scope_id, since, until))
        if reads.facts_listed is not None:
            found.facts.extend(facts.list_facts(connection, scope_id, reads.facts_listed))
        return found

    return work


def _by_vector(
    connection: apsw.Connection,
    space: VectorSpace,
    scope_id: int,
    query: bytes,
    reads: ReplyReads,
    found: ReplyFound,
) -> None:
    if reads.episode_limit:
        found.episode_vector.extend(
            episodes.search_vectors(
                connection, space, scope_id, query, reads.episodes_where, reads.episode_limit
            )
        )
    if reads.fact_limit:
        found.fact_vector.extend(
            facts.search_vectors(
                connection, space, scope_id, query, reads.facts_where, reads.fact_limit
            )
        )


def _by_keywords(
    connection: apsw.Connection, scope_id: int, words: str, reads: ReplyReads, found: ReplyFound
) -> None:
    found.episode_keyword.extend(
        episodes.search_keywords(
            connection, scope_id, words, reads.episodes_where, reads.episode_limit
        )
    )
    found.fact_keyword.extend(
        facts.search_keywords(connection, scope_id, words, reads.facts_where, reads.fact_limit)
    )

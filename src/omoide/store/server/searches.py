"""Scoped searches: Qdrant ranks, PostgreSQL confirms.

Qdrant returns the best point ids of the scope with the filter applied inside the search.
The records are then read from PostgreSQL with the scope and the filter checked again:
a hit is never a deleted record, a record of another scope or a record whose filter
fields changed, even while Qdrant lags behind the records.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from omoide.domain import Episode, Fact, Scope
from omoide.store.base import Hit
from omoide.store.server.codec import decode_vector
from omoide.store.server.database import Connection
from omoide.store.server.embedding import vector_bytes
from omoide.store.server.engines import Engines
from omoide.store.server.filters import Conditions
from omoide.store.server.points import PointKind
from omoide.store.server.scopes import scope_key
from omoide.store.server.sparse import query_terms
from omoide.store.sqlite.arguments import (
    check_count,
    check_neighbour_limit,
    check_scope,
    check_text,
)

if TYPE_CHECKING:
    from omoide.domain import Vector

Item = TypeVar("Item", Episode, Fact)
Fetch = Callable[[Connection, int, Sequence[int], Conditions], Awaitable[dict[int, Item]]]


async def vector_search(
    engines: Engines,
    kind: PointKind,
    scope: Scope,
    vector: Vector,
    *,
    conditions: Conditions,
    limit: int,
    fetch: Fetch[Item],
) -> list[Hit[Item]]:
    """The ``limit`` nearest records by cosine similarity, best first."""
    query = decode_vector(vector_bytes(vector, engines.embedding), engines.embedding.dimensions)
    check_neighbour_limit(limit)
    check_scope(scope)
    if limit == 0 or conditions.matches_nothing:
        return []
    hits = await engines.index.search(
        kind, scope, query.tolist(), conditions=conditions.payload, limit=limit
    )
    clamped = [(internal_id, min(1.0, max(-1.0, score))) for internal_id, score in hits]
    return await _confirmed(engines, scope, clamped, conditions, fetch)


async def keyword_search(
    engines: Engines,
    kind: PointKind,
    scope: Scope,
    text: str,
    *,
    conditions: Conditions,
    limit: int,
    fetch: Fetch[Item],
) -> list[Hit[Item]]:
    """The ``limit`` best records by BM25 over the scope's keyword vectors, best first."""
    check_text(text, name="text")
    check_count(limit, name="limit")
    terms = query_terms(scope_key(check_scope(scope)), text)
    if not terms or limit == 0 or conditions.matches_nothing:
        return []
    hits = await engines.index.search(
        kind, scope, terms.to_qdrant(), conditions=conditions.payload, limit=limit
    )
    positive = [(internal_id, score) for internal_id, score in hits if score > 0]
    return await _confirmed(engines, scope, positive, conditions, fetch)


async def _confirmed(
    engines: Engines,
    scope: Scope,
    hits: list[tuple[int, float]],
    conditions: Conditions,
    fetch: Fetch[Item],
) -> list[Hit[Item]]:
    if not hits:
        return []
    ids = [internal_id for internal_id, _ in hits]

    async def read(connection: Connection, scope_id: int) -> dict[int, Item]:
        return await fetch(connection, scope_id, ids, conditions)

    def nothing() -> dict[int, Item]:
        return {}

    found = await engines.read(scope, read, nothing)
    ranked = [Hit(found[internal_id], score) for internal_id, score in hits if internal_id in found]
    return sorted(ranked, key=lambda hit: (-hit.score, hit.item.id))

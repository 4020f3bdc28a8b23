"""Facts and their provenance links: SQL over one scope id, inside the caller's transaction.

A fact may cite episodes of its own scope; a character-wide fact (the character's own
memory, e.g. a diary) may also cite episodes of the character's viewers. Citing anything
else is refused (``InvalidInput``). Links are rows of ``fact_sources`` with foreign keys on
both sides: deleting a cited episode keeps the fact and drops only that link (``ON DELETE
CASCADE`` on the link, not on the fact). For the same reason a write citing an episode that
was deleted meanwhile (it has a tombstone in an allowed scope) stores the fact without
that link rather than failing.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

import apsw

from omoide.domain import Fact, MemoryKind, Scope, check_identifier
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.base import FactFilter, FactWrite, Hit
from omoide.store.record_fields import check_fact_scope, fact_field_values
from omoide.store.sqlite import keyword_index, vectors
from omoide.store.sqlite.codec import FACT_COLUMNS, FIELD_ENCODING, fact_from_row
from omoide.store.sqlite.connection import constraint_error, fetch_all, fetch_one
from omoide.store.sqlite.filters import fact_record_conditions, fact_vector_conditions
from omoide.store.sqlite.scopes import character_scopes
from omoide.store.sqlite.tombstones import write_fact_digests, write_tombstones

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from omoide.domain import Vector
    from omoide.store.sqlite.vectors import VectorSpace

_FROM_FACTS = "FROM facts f JOIN scopes s ON s.id = f.scope_id"
_FACT_FIELDS = (
    "text, category, confidence, salience, recorded_at, valid_from, trust, confirmation_count, "
    "valid_to, superseded_at, supersedes, last_recalled_at, recall_count, slot, terms"
)
_INSERT_FACT = (
    f"INSERT INTO facts (id, scope_id, {_FACT_FIELDS}) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING internal_id"
)
_UPDATE_FACT = (
    "UPDATE facts SET text = ?, category = ?, confidence = ?, salience = ?, recorded_at = ?, "
    "valid_from = ?, trust = ?, confirmation_count = ?, valid_to = ?, superseded_at = ?, "
    "supersedes = ?, last_recalled_at = ?, recall_count = ?, slot = ?, terms = ? "
    "WHERE internal_id = ?"
)


def _field_values(fact: Fact) -> tuple[object, ...]:
    return fact_field_values(fact, FIELD_ENCODING)


def add_facts(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    writes: Sequence[FactWrite],
) -> None:
    for write in writes:
        if not isinstance(write, FactWrite):
            raise InvalidInput("add_facts takes FactWrite values")
        insert_fact(connection, space, scope, scope_id, write.fact, write.vector)


def insert_fact(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    fact: Fact,
    vector: Vector | None,
) -> int:
    check_fact_scope(fact, scope)
    check_identifier(fact.id, name="fact id")
    try:
        rows = fetch_all(connection, _INSERT_FACT, (fact.id, scope_id, *_field_values(fact)))
        internal_id = int(rows[0][0])
    except apsw.ConstraintError as exc:
        raise constraint_error(exc, f"fact {fact.id!r}") from exc
    _link_sources(connection, scope, scope_id, internal_id, fact)
    keyword_index.index_text(connection, "fact_keywords", internal_id, scope_id, fact.text)
    if vector is not None:
        _insert_vector(connection, space, internal_id, scope_id, fact, vector)
    return internal_id


def _insert_vector(
    connection: apsw.Connection,
    space: VectorSpace,
    internal_id: int,
    scope_id: int,
    fact: Fact,
    vector: Vector,
) -> None:
    vectors.insert_fact_vector(
        connection,
        space,
        internal_id,
        scope_id,
        vectors.vector_bytes(vector, space),
        category=fact.category.value,
        is_current=fact.is_current,
    )


def _link_sources(
    connection: apsw.Connection, scope: Scope, scope_id: int, internal_id: int, fact: Fact
) -> None:
    """Link the cited episodes; a cited episode deleted meanwhile is skipped, like on delete."""
    allowed = (
        set(character_scopes(connection, scope.character_id))
        if scope.is_character_wide
        else {scope_id}
    )
    links: list[tuple[int, int, int]] = []
    for position, episode_id in enumerate(fact.source_episode_ids):
        row = fetch_one(
            connection, "SELECT internal_id, scope_id FROM episodes WHERE id = ?", (episode_id,)
        )
        if row is not None and int(row[1]) in allowed:
            links.append((internal_id, position, int(row[0])))
        elif row is not None or not _was_deleted(connection, allowed, episode_id):
            raise InvalidInput(
                f"fact {fact.id!r} cites episode {episode_id!r}, which is not in scope {scope}"
            )
    connection.executemany(
        "INSERT INTO fact_sources (fact_internal_id, position, episode_internal_id) "
        "VALUES (?, ?, ?)",
        links,
    )


def _was_deleted(connection: apsw.Connection, scope_ids: set[int], episode_id: str) -> bool:
    row = fetch_one(
        connection,
        "SELECT 1 FROM tombstones WHERE memory_id = ? AND kind = ? "
        "AND scope_id IN (SELECT value FROM json_each(?)) LIMIT 1",
        (episode_id, MemoryKind.EPISODE.value, json.dumps(sorted(scope_ids))),
    )
    return row is not None


def fact_internal_id_of(connection: apsw.Connection, scope_id: int, fact_id: str) -> int | None:
    row = fetch_one(
        connection,
        "SELECT internal_id FROM facts WHERE scope_id = ? AND id = ?",
        (scope_id, fact_id),
    )
    return None if row is None else int(row[0])


def _require_fact(connection: apsw.Connection, scope: Scope, scope_id: int, fact_id: str) -> int:
    internal_id = fact_internal_id_of(connection, scope_id, fact_id)
    if internal_id is None:
        raise NotFound(f"fact {fact_id!r} not found in scope {scope}")
    return internal_id


def get_fact(connection: apsw.Connection, scope: Scope, scope_id: int, fact_id: str) -> Fact:
    row = fetch_one(
        connection,
        f"SELECT {FACT_COLUMNS} {_FROM_FACTS} WHERE f.scope_id = ? AND f.id = ?",
        (scope_id, fact_id),
    )
    if row is None:
        raise NotFound(f"fact {fact_id!r} not found in scope {scope}")
    return fact_from_row(row)


def list_facts(connection: apsw.Connection, scope_id: int, where: FactFilter) -> list[Fact]:
    """Oldest first."""
    conditions = fact_record_conditions(where)
    rows = fetch_all(
        connection,
        f"SELECT {FACT_COLUMNS} {_FROM_FACTS} WHERE f.scope_id = ?{conditions.sql} "
        "ORDER BY f.recorded_at, f.id",
        (scope_id, *conditions.parameters),
    )
    return [fact_from_row(row) for row in rows]


def search_vectors(
    connection: apsw.Connection,
    space: VectorSpace,
    scope_id: int,
    query: bytes,
    where: FactFilter,
    limit: int,
) -> list[Hit[Fact]]:
    conditions = fact_vector_conditions(where)
    nearest = vectors.nearest_sql(space.fact_table, conditions.sql)
    rows = fetch_all(
        connection,
        f"WITH nearest AS MATERIALIZED ({nearest}) "
        f"SELECT {FACT_COLUMNS}, nearest.distance FROM nearest "
        "JOIN facts f ON f.internal_id = nearest.internal_id "
        "JOIN scopes s ON s.id = f.scope_id "
        "WHERE f.scope_id = ? ORDER BY nearest.distance, f.id",
        (query, limit, scope_id, space.model_id, *conditions.parameters, scope_id),
    )
    return [Hit(fact_from_row(row[:-1]), vectors.similarity(row[-1])) for row in rows]


def search_keywords(
    connection: apsw.Connection, scope_id: int, text: str, where: FactFilter, limit: int
) -> list[Hit[Fact]]:
    expression = keyword_index.match_expression(scope_id, text)
    if expression is None or limit == 0:
        return []
    conditions = fact_record_conditions(where)
    rows = fetch_all(
        connection,
        f"SELECT {FACT_COLUMNS}, bm25(fact_keywords) FROM fact_keywords "
        # CROSS JOIN keeps the FTS5 match as the outer loop: left to itself SQLite starts
        # from the scope index and evaluates the match once per record of the viewer.
        "CROSS JOIN facts f ON f.internal_id = fact_keywords.rowid "
        "JOIN scopes s ON s.id = f.scope_id "
        f"WHERE fact_keywords MATCH ? AND f.scope_id = ?{conditions.sql} "
        "ORDER BY bm25(fact_keywords), f.id LIMIT ?",
        (expression, scope_id, *conditions.parameters, limit),
    )
    return [Hit(fact_from_row(row[:-1]), -float(row[-1])) for row in rows]


def update_fact(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    fact: Fact,
    vector: Vector | None,
) -> None:
    check_fact_scope(fact, scope)
    internal_id = _require_fact(connection, scope, scope_id, fact.id)
    connection.execute(_UPDATE_FACT, (*_field_values(fact), internal_id))
    connection.execute("DELETE FROM fact_sources WHERE fact_internal_id = ?", (internal_id,))
    _link_sources(connection, scope, scope_id, internal_id, fact)
    keyword_index.reindex_text(connection, "fact_keywords", internal_id, scope_id, fact.text)
    if vector is not None:
        vectors.delete_vectors(connection, space.fact_table, [internal_id])
        _insert_vector(connection, space, internal_id, scope_id, fact, vector)
    else:
        _update_vector_metadata(connection, space, internal_id, fact)


def _update_vector_metadata(
    connection: apsw.Connection, space: VectorSpace, internal_id: int, fact: Fact
) -> None:
    connection.execute(
        f"UPDATE {space.fact_table} SET category = ?, is_current = ? WHERE rowid = ?",
        (fact.category.value, int(fact.is_current), internal_id),
    )


def supersede_fact(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    old_fact_id: str,
    replacement: FactWrite,
    at: datetime,
) -> Fact:
    old = get_fact(connection, scope, scope_id, old_fact_id)
    if old.superseded_at is not None:
        raise Conflict(f"fact {old_fact_id!r} in scope {scope} was already superseded")
    closed = dataclasses.replace(old, valid_to=at, superseded_at=at)
    internal_id = _require_fact(connection, scope, scope_id, old_fact_id)
    connection.execute(_UPDATE_FACT, (*_field_values(closed), internal_id))
    _update_vector_metadata(connection, space, internal_id, closed)
    stored = dataclasses.replace(replacement.fact, supersedes=old_fact_id)
    insert_fact(connection, space, scope, scope_id, stored, replacement.vector)
    return get_fact(connection, scope, scope_id, stored.id)


def record_recalls(
    connection: apsw.Connection, scope_id: int, fact_ids: Sequence[str], at: int
) -> None:
    connection.execute(
        "UPDATE facts SET recall_count = recall_count + 1, last_recalled_at = ? "
        "WHERE scope_id = ? AND id IN (SELECT value FROM json_each(?))",
        (at, scope_id, json.dumps(list(fact_ids))),
    )


def remove_facts(connection: apsw.Connection, space: VectorSpace, internal_ids: list[int]) -> None:
    """Delete records, keyword rows and vectors; their provenance links go with the records."""
    keyword_index.remove_rows(connection, "fact_keywords", internal_ids)
    vectors.delete_vectors(connection, space.fact_table, internal_ids)
    connection.executemany(
        "DELETE FROM facts WHERE internal_id = ?", [(internal_id,) for internal_id in internal_ids]
    )


def delete_fact(
    connection: apsw.Connection,
    space: VectorSpace,
    scope: Scope,
    scope_id: int,
    fact_id: str,
    *,
    reason: str,
    at: datetime,
    digests: Sequence[str] = (),
) -> None:
    internal_id = _require_fact(connection, scope, scope_id, fact_id)
    remove_facts(connection, space, [internal_id])
    write_tombstones(connection, scope_id, MemoryKind.FACT, [fact_id], reason=reason, at=at)
    write_fact_digests(connection, scope_id, fact_id, digests)

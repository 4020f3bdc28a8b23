"""Facts and their provenance links in PostgreSQL, inside the caller's transaction.

The rules are the embedded store's (see ``omoide.store.sqlite.facts``): a fact may cite
episodes of its own scope; a character-wide fact may also cite episodes of the
character's viewers; a cited episode deleted meanwhile (it has a tombstone in an allowed
scope) is skipped rather than refused; deleting a cited episode drops only the link.
Functions that change a fact's Qdrant point return its ``internal_id`` values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

import psycopg.errors

from omoide.domain import Fact, MemoryKind, Scope, Tombstone, check_identifier
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.base import EmbeddingInfo, FactWrite
from omoide.store.record_fields import check_fact_scope, fact_field_values
from omoide.store.server.codec import FACT_COLUMNS, FIELD_ENCODING, fact_from_row
from omoide.store.server.database import Connection, execute, fetch_all, fetch_one
from omoide.store.server.embedding import vector_bytes
from omoide.store.server.filters import Conditions
from omoide.store.server.scopes import character_scopes
from omoide.store.server.tombstones import write_fact_digests, write_tombstones

FROM_FACTS = "FROM facts f JOIN scopes s ON s.id = f.scope_id"
_FACT_FIELDS = (
    "text, category, confidence, salience, recorded_at, valid_from, trust, confirmation_count, "
    "valid_to, superseded_at, supersedes, last_recalled_at, recall_count, slot, terms"
)
_INSERT_FACT = (
    f"INSERT INTO facts (id, scope_id, {_FACT_FIELDS}, embedding) VALUES "
    "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
    "RETURNING internal_id"
)
_UPDATE_FACT = (
    "UPDATE facts SET text = %s, category = %s, confidence = %s, salience = %s, "
    "recorded_at = %s, valid_from = %s, trust = %s, confirmation_count = %s, valid_to = %s, "
    "superseded_at = %s, supersedes = %s, last_recalled_at = %s, recall_count = %s, "
    "slot = %s, terms = %s WHERE internal_id = %s"
)


def _field_values(fact: Fact) -> tuple[object, ...]:
    return fact_field_values(fact, FIELD_ENCODING)


def check_writes(
    scope: Scope, writes: Sequence[FactWrite], embedding: EmbeddingInfo
) -> list[bytes]:
    """Validate a batch before any of it is written; returns the encoded vectors."""
    encoded: list[bytes] = []
    for write in writes:
        if not isinstance(write, FactWrite):
            raise InvalidInput("add_facts takes FactWrite values")
        check_fact_scope(write.fact, scope)
        check_identifier(write.fact.id, name="fact id")
        encoded.append(vector_bytes(write.vector, embedding))
    return encoded


async def insert_fact(
    connection: Connection, scope: Scope, scope_id: int, fact: Fact, vector: bytes | None
) -> int:
    check_fact_scope(fact, scope)
    check_identifier(fact.id, name="fact id")
    try:
        row = await fetch_one(
            connection, _INSERT_FACT, (fact.id, scope_id, *_field_values(fact), vector)
        )
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(f"fact {fact.id!r} already exists") from exc
    assert row is not None
    internal_id = int(row[0])
    await _link_sources(connection, scope, scope_id, internal_id, fact)
    return internal_id


async def _link_sources(
    connection: Connection, scope: Scope, scope_id: int, internal_id: int, fact: Fact
) -> None:
    """Link the cited episodes; a cited episode deleted meanwhile is skipped, like on delete."""
    if not fact.source_episode_ids:
        return
    allowed = (
        set(await character_scopes(connection, scope.character_id))
        if scope.is_character_wide
        else {scope_id}
    )
    links: list[tuple[int, int]] = []
    for position, episode_id in enumerate(fact.source_episode_ids):
        row = await fetch_one(
            connection, "SELECT internal_id, scope_id FROM episodes WHERE id = %s", (episode_id,)
        )
        if row is not None and int(row[1]) in allowed:
            links.append((position, int(row[0])))
        elif row is not None or not await _was_deleted(connection, allowed, episode_id):
            raise InvalidInput(
                f"fact {fact.id!r} cites episode {episode_id!r}, which is not in scope {scope}"
            )
    if links:
        await execute(
            connection,
            "INSERT INTO fact_sources (fact_internal_id, position, episode_internal_id) "
            "SELECT %s, position, episode FROM unnest(%s::integer[], %s::bigint[]) "
            "AS linked(position, episode)",
            (internal_id, [p for p, _ in links], [e for _, e in links]),
        )


FactRow = tuple[Scope, int, Fact, bytes | None]
"""``(scope, scope_id, fact, vector)``: one fact of a bulk insert."""


async def insert_facts(connection: Connection, rows: Sequence[FactRow]) -> list[int]:
    """Insert facts of any scopes in one pipelined statement, then link their cited episodes
    in bulk, with :func:`insert_fact`'s rules (for bulk copies); returns the new ids."""
    if not rows:
        return []
    for scope, _, fact, _ in rows:
        check_fact_scope(fact, scope)
        check_identifier(fact.id, name="fact id")
    values = [
        (fact.id, scope_id, *_field_values(fact), vector) for _, scope_id, fact, vector in rows
    ]
    cursor = connection.cursor()
    try:
        await cursor.executemany(_INSERT_FACT, values, returning=True)
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(f"one of {len(rows)} facts already exists") from exc
    internal_ids: list[int] = []
    while True:
        row = await cursor.fetchone()
        if row is not None:
            internal_ids.append(int(row[0]))
        if not cursor.nextset():
            break
    await _link_many(connection, rows, internal_ids)
    return internal_ids


async def _link_many(
    connection: Connection, rows: Sequence[FactRow], internal_ids: Sequence[int]
) -> None:
    """:func:`_link_sources` for many facts, with one lookup of every cited episode."""
    cited = sorted({episode_id for _, _, fact, _ in rows for episode_id in fact.source_episode_ids})
    if not cited:
        return
    found = await fetch_all(
        connection, "SELECT id, internal_id, scope_id FROM episodes WHERE id = ANY(%s)", (cited,)
    )
    episodes = {str(row[0]): (int(row[1]), int(row[2])) for row in found}
    deleted = await _deleted_in(connection, sorted(set(cited) - set(episodes)))
    wide: dict[str, set[int]] = {}
    facts, positions, linked = [], [], []
    for (scope, scope_id, fact, _), internal_id in zip(rows, internal_ids, strict=True):
        if scope.is_character_wide and scope.character_id not in wide:
            wide[scope.character_id] = set(await character_scopes(connection, scope.character_id))
        allowed = wide[scope.character_id] if scope.is_character_wide else {scope_id}
        for position, episode_id in enumerate(fact.source_episode_ids):
            episode = episodes.get(episode_id)
            if episode is not None and episode[1] in allowed:
                facts.append(internal_id)
                positions.append(position)
                linked.append(episode[0])
            elif episode is not None or not deleted.get(episode_id, set()) & allowed:
                raise InvalidInput(
                    f"fact {fact.id!r} cites episode {episode_id!r}, which is not in scope {scope}"
                )
    if linked:
        await execute(
            connection,
            "INSERT INTO fact_sources (fact_internal_id, position, episode_internal_id) "
            "SELECT fact, position, episode FROM unnest(%s::bigint[], %s::integer[], %s::bigint[]) "
            "AS linked(fact, position, episode)",
            (facts, positions, linked),
        )


async def _deleted_in(connection: Connection, episode_ids: Sequence[str]) -> dict[str, set[int]]:
    """The scopes where each of ``episode_ids`` left an episode tombstone."""
    if not episode_ids:
        return {}
    rows = await fetch_all(
        connection,
        "SELECT memory_id, scope_id FROM tombstones WHERE kind = %s AND memory_id = ANY(%s)",
        (MemoryKind.EPISODE.value, list(episode_ids)),
    )
    deleted: dict[str, set[int]] = {}
    for memory_id, scope_id in rows:
        deleted.setdefault(str(memory_id), set()).add(int(scope_id))
    return deleted


async def _was_deleted(connection: Connection, scope_ids: set[int], episode_id: str) -> bool:
    row = await fetch_one(
        connection,
        "SELECT 1 FROM tombstones WHERE memory_id = %s AND kind = %s "
        "AND scope_id = ANY(%s) LIMIT 1",
        (episode_id, MemoryKind.EPISODE.value, sorted(scope_ids)),
    )
    return row is not None


async def _require_fact(connection: Connection, scope: Scope, scope_id: int, fact_id: str) -> int:
    row = await fetch_one(
        connection,
        "SELECT internal_id FROM facts WHERE scope_id = %s AND id = %s FOR UPDATE",
        (scope_id, fact_id),
    )
    if row is None:
        raise NotFound(f"fact {fact_id!r} not found in scope {scope}")
    return int(row[0])


async def get_fact(connection: Connection, scope: Scope, scope_id: int, fact_id: str) -> Fact:
    row = await fetch_one(
        connection,
        f"SELECT {FACT_COLUMNS} {FROM_FACTS} WHERE f.scope_id = %s AND f.id = %s",
        (scope_id, fact_id),
    )
    if row is None:
        raise NotFound(f"fact {fact_id!r} not found in scope {scope}")
    return fact_from_row(row)


async def list_facts(connection: Connection, scope_id: int, conditions: Conditions) -> list[Fact]:
    """Oldest first."""
    rows = await fetch_all(
        connection,
        f"SELECT {FACT_COLUMNS} {FROM_FACTS} WHERE f.scope_id = %s{conditions.sql} "
        "ORDER BY f.recorded_at, f.id",
        (scope_id, *conditions.parameters),
    )
    return [fact_from_row(row) for row in rows]


async def facts_by_internal_id(
    connection: Connection, scope_id: int, internal_ids: Sequence[int], conditions: Conditions
) -> dict[int, Fact]:
    """The facts among ``internal_ids`` that are in the scope and pass the filter."""
    rows = await fetch_all(
        connection,
        f"SELECT f.internal_id, {FACT_COLUMNS} {FROM_FACTS} "
        f"WHERE f.scope_id = %s AND f.internal_id = ANY(%s){conditions.sql}",
        (scope_id, list(internal_ids), *conditions.parameters),
    )
    return {int(row[0]): fact_from_row(row[1:]) for row in rows}


async def update_fact(
    connection: Connection, scope: Scope, scope_id: int, fact: Fact, vector: bytes | None
) -> int:
    check_fact_scope(fact, scope)
    internal_id = await _require_fact(connection, scope, scope_id, fact.id)
    await execute(connection, _UPDATE_FACT, (*_field_values(fact), internal_id))
    if vector is not None:
        await execute(
            connection,
            "UPDATE facts SET embedding = %s WHERE internal_id = %s",
            (vector, internal_id),
        )
    await execute(
        connection, "DELETE FROM fact_sources WHERE fact_internal_id = %s", (internal_id,)
    )
    await _link_sources(connection, scope, scope_id, internal_id, fact)
    return internal_id


async def supersede_fact(
    connection: Connection,
    scope: Scope,
    scope_id: int,
    old_fact_id: str,
    replacement: Fact,
    vector: bytes,
    at: datetime,
) -> tuple[Fact, list[int]]:
    """Close the old fact and insert the replacement; returns it and both internal ids."""
    internal_id = await _require_fact(connection, scope, scope_id, old_fact_id)
    old = await get_fact(connection, scope, scope_id, old_fact_id)
    if old.superseded_at is not None:
        raise Conflict(f"fact {old_fact_id!r} in scope {scope} was already superseded")
    closed = dataclasses.replace(old, valid_to=at, superseded_at=at)
    await execute(connection, _UPDATE_FACT, (*_field_values(closed), internal_id))
    stored = dataclasses.replace(replacement, supersedes=old_fact_id)
    new_id = await insert_fact(connection, scope, scope_id, stored, vector)
    return await get_fact(connection, scope, scope_id, stored.id), [internal_id, new_id]


async def record_recalls(
    connection: Connection, scope_id: int, fact_ids: Sequence[str], at: datetime
) -> None:
    await execute(
        connection,
        "UPDATE facts SET recall_count = recall_count + 1, last_recalled_at = %s "
        "WHERE scope_id = %s AND id = ANY(%s)",
        (at, scope_id, list(fact_ids)),
    )


async def delete_fact(
    connection: Connection, scope_id: int, tombstone: Tombstone, digests: Sequence[str]
) -> int:
    """Delete the fact ``tombstone`` names and leave the tombstone, with ``digests`` of what
    the fact said; returns the fact's internal id."""
    scope, fact_id = tombstone.scope, tombstone.memory_id
    row = await fetch_one(
        connection,
        "DELETE FROM facts WHERE scope_id = %s AND id = %s RETURNING internal_id",
        (scope_id, fact_id),
    )
    if row is None:
        raise NotFound(f"fact {fact_id!r} not found in scope {scope}")
    await write_tombstones(
        connection,
        scope_id,
        MemoryKind.FACT,
        [fact_id],
        reason=tombstone.reason,
        at=tombstone.deleted_at,
    )
    await write_fact_digests(connection, scope_id, fact_id, digests)
    return int(row[0])

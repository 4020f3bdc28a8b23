"""Batched fact work of the server store: scopes' current facts with their vectors, and a
sequence of fact changes applied in one transaction.

:func:`current_facts` reads the records *and* their vectors from PostgreSQL, in one
``REPEATABLE READ`` snapshot: the ``embedding`` column holds each vector as it was given,
whereas Qdrant is derived from it after the commit (it may lag, see :mod:`.outbox`) and
keeps cosine vectors normalised. "Current" is :func:`.filters.fact_conditions` of the
default :class:`~omoide.store.base.FactFilter`, exactly what ``list_facts`` returns.

:func:`write_fact_changes` checks every change before the transaction opens, then applies
them in order with the single-change functions of :mod:`.facts`, inside one
:meth:`.engines.Engines.change`: one transaction over records and outbox entries, and one
publish to Qdrant for the whole call (nothing queued or published when a change fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from omoide.domain import Fact, Scope, check_identifier
from omoide.errors import BackendError, InvalidInput, NotFound
from omoide.store.base import (
    CurrentFacts,
    EmbeddingInfo,
    FactChangeWrite,
    FactFilter,
    FactSupersession,
    FactUpdate,
    FactWrite,
)
from omoide.store.server import facts
from omoide.store.server.codec import FACT_COLUMNS, decode_vector, fact_from_row, utc
from omoide.store.server.database import Connection, execute, fetch_all
from omoide.store.server.engines import Changes, Engines
from omoide.store.server.filters import fact_conditions
from omoide.store.server.scopes import ensure_scope_id, find_scope_id
from omoide.store.sqlite.arguments import check_count, check_scope, check_text

# --- current facts ---------------------------------------------------------------------


async def current_facts(
    engines: Engines, scopes: Sequence[Scope], limit: int
) -> dict[Scope, CurrentFacts | None]:
    """Each distinct scope's current facts and vectors, ``None`` above ``limit`` facts."""
    check_count(limit, name="limit")
    wanted = list(dict.fromkeys(check_scope(scope) for scope in scopes))
    if not wanted:
        return {}
    async with engines.database.transaction() as connection:
        await execute(connection, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        scope_ids = {scope: await engines.scope_id(connection, scope) for scope in wanted}
        known = sorted({scope_id for scope_id in scope_ids.values() if scope_id is not None})
        counts = await _current_counts(connection, known)
        over = {scope_id for scope_id in known if counts.get(scope_id, 0) > limit}
        rows = await _current_rows(connection, [i for i in known if i not in over])
    found: dict[Scope, CurrentFacts | None] = {}
    for scope, scope_id in scope_ids.items():
        if scope_id is None:
            found[scope] = _stack([], engines.embedding.dimensions)
        elif scope_id in over:
            found[scope] = None
        else:
            found[scope] = _stack(rows.get(scope_id, []), engines.embedding.dimensions)
    return found


async def _current_counts(connection: Connection, scope_ids: Sequence[int]) -> dict[int, int]:
    if not scope_ids:
        return {}
    current = fact_conditions(FactFilter())
    rows = await fetch_all(
        connection,
        f"SELECT f.scope_id, count(*) FROM facts f WHERE f.scope_id = ANY(%s){current.sql} "
        "GROUP BY f.scope_id",
        (list(scope_ids), *current.parameters),
    )
    return {int(row[0]): int(row[1]) for row in rows}


_StoredFact = tuple[Fact, bytes | memoryview | None]


async def _current_rows(
    connection: Connection, scope_ids: Sequence[int]
) -> dict[int, list[_StoredFact]]:
    """The scopes' current facts with their stored vectors, oldest first per scope."""
    if not scope_ids:
        return {}
    current = fact_conditions(FactFilter())
    rows = await fetch_all(
        connection,
        f"SELECT f.scope_id, f.embedding, {FACT_COLUMNS} {facts.FROM_FACTS} "
        f"WHERE f.scope_id = ANY(%s){current.sql} ORDER BY f.scope_id, f.recorded_at, f.id",
        (list(scope_ids), *current.parameters),
    )
    found: dict[int, list[_StoredFact]] = {}
    for row in rows:
        found.setdefault(int(row[0]), []).append((fact_from_row(row[2:]), row[1]))
    return found


def _stack(stored: Sequence[_StoredFact], dimensions: int) -> CurrentFacts:
    vectors = np.empty((len(stored), dimensions), dtype=np.float32)
    for row, (fact, vector) in enumerate(stored):
        if vector is None:
            raise BackendError(
                f"fact {fact.id!r} in scope {fact.scope} is stored without a vector: "
                "rebuild its embedding before reading current facts"
            )
        vectors[row] = decode_vector(vector, dimensions)
    return CurrentFacts(tuple(fact for fact, _ in stored), vectors)


# --- fact changes ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Add:
    scope: Scope
    fact: Fact
    vector: bytes


@dataclass(frozen=True, slots=True)
class _Update:
    scope: Scope
    fact: Fact


@dataclass(frozen=True, slots=True)
class _Supersede:
    scope: Scope
    old_fact_id: str
    fact: Fact
    vector: bytes
    at: datetime


_Checked = _Add | _Update | _Supersede


def check_changes(
    character_id: str, changes: Sequence[FactChangeWrite], embedding: EmbeddingInfo
) -> list[_Checked]:
    """Validate every change before any is applied (the single-change methods' checks)."""
    check_identifier(character_id, name="character_id")
    return [_check_change(character_id, change, embedding) for change in changes]


def _check_change(character_id: str, change: FactChangeWrite, embedding: EmbeddingInfo) -> _Checked:
    match change:
        case FactWrite():
            scope = _scope_of(character_id, change.fact)
            (vector,) = facts.check_writes(scope, [change], embedding)
            return _Add(scope, change.fact, vector)
        case FactUpdate():
            return _Update(_scope_of(character_id, change.fact), change.fact)
        case FactSupersession():
            replacement = change.replacement
            if not isinstance(replacement, FactWrite):
                raise InvalidInput("a FactSupersession's replacement must be a FactWrite")
            scope = _scope_of(character_id, replacement.fact)
            old_fact_id = check_text(change.old_fact_id, name="fact id")
            moment = utc(change.at, name="at")
            (vector,) = facts.check_writes(scope, [replacement], embedding)
            return _Supersede(scope, old_fact_id, replacement.fact, vector, moment)
    raise InvalidInput(
        "write_fact_changes takes FactWrite, FactUpdate and FactSupersession values "
        f"(got {type(change).__name__})"
    )


def _scope_of(character_id: str, fact: Fact) -> Scope:
    if not isinstance(fact, Fact):
        raise InvalidInput(f"expected a Fact (got {type(fact).__name__})")
    scope = check_scope(fact.scope)
    if scope.character_id != character_id:
        raise InvalidInput(
            f"fact {fact.id!r} belongs to character {scope.character_id!r}, not {character_id!r}"
        )
    return scope


async def write_fact_changes(engines: Engines, checked: Sequence[_Checked]) -> None:
    """Apply checked changes in order: one transaction, one publish."""
    if not checked:
        return

    async def work(connection: Connection, changes: Changes) -> None:
        scope_ids: dict[Scope, int] = {}
        for change in checked:
            scope_id = await _scope_id(connection, scope_ids, change)
            changes.facts.extend(await _apply(connection, change, scope_id))

    await engines.change(work)


async def _scope_id(connection: Connection, known: dict[Scope, int], change: _Checked) -> int:
    """The change's scope id: created for an add (as ``add_facts``), required otherwise.

    Ids found here are remembered for this call only: one created in a transaction that
    rolls back must not outlive it."""
    scope = change.scope
    if scope not in known:
        if isinstance(change, _Add):
            known[scope] = await ensure_scope_id(connection, scope)
        else:
            found = await find_scope_id(connection, scope)
            if found is None:
                missing = change.fact.id if isinstance(change, _Update) else change.old_fact_id
                raise NotFound(f"fact {missing!r} not found in scope {scope}")
            known[scope] = found
    return known[scope]


async def _apply(connection: Connection, change: _Checked, scope_id: int) -> list[int]:
    """Apply one change; returns the internal ids whose points it changed."""
    match change:
        case _Add():
            return [
                await facts.insert_fact(
                    connection, change.scope, scope_id, change.fact, change.vector
                )
            ]
        case _Update():
            return [await facts.update_fact(connection, change.scope, scope_id, change.fact, None)]
        case _Supersede():
            _, changed = await facts.supersede_fact(
                connection,
                change.scope,
                scope_id,
                change.old_fact_id,
                change.fact,
                change.vector,
                change.at,
            )
            return changed

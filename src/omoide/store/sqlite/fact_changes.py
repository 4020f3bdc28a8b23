"""Batched fact work: viewers' current facts with their vectors, and changes in one go.

The write path keeps a whole batch's facts with one read (:func:`current_facts`) and one
write (:func:`write_fact_changes`) instead of a search and a write per turn. Both reuse the
single-fact functions of :mod:`omoide.store.sqlite.facts`, so a change written here is
stored exactly as the single-change method would store it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.errors import BackendError, InvalidInput, NotFound
from omoide.store.base import (
    CurrentFacts,
    FactChangeWrite,
    FactFilter,
    FactSupersession,
    FactUpdate,
    FactWrite,
)
from omoide.store.sqlite import facts
from omoide.store.sqlite.codec import FACT_COLUMNS, fact_from_row
from omoide.store.sqlite.connection import fetch_all
from omoide.store.sqlite.filters import fact_record_conditions
from omoide.store.sqlite.scopes import ensure_scope_id, find_scope_id

if TYPE_CHECKING:
    from collections.abc import Sequence

    import apsw

    from omoide.domain import Fact, Scope, Vector
    from omoide.store.sqlite.vectors import VectorSpace

_CURRENT = fact_record_conditions(FactFilter())


def current_facts(
    connection: apsw.Connection, space: VectorSpace, scopes: Sequence[Scope], limit: int
) -> dict[Scope, CurrentFacts | None]:
    """Each scope's current facts, oldest first, with their vectors; None past ``limit``."""
    import numpy as np

    found: dict[Scope, CurrentFacts | None] = {}
    for scope in dict.fromkeys(scopes):
        scope_id = find_scope_id(connection, scope)
        if scope_id is None:
            found[scope] = CurrentFacts((), np.zeros((0, space.dimensions), dtype=np.float32))
            continue
        found[scope] = _scope_facts(connection, space, scope_id, limit)
    return found


def _scope_facts(
    connection: apsw.Connection, space: VectorSpace, scope_id: int, limit: int
) -> CurrentFacts | None:
    import numpy as np

    rows = fetch_all(
        connection,
        f"SELECT {FACT_COLUMNS}, f.internal_id FROM facts f JOIN scopes s ON s.id = f.scope_id "
        f"WHERE f.scope_id = ?{_CURRENT.sql} ORDER BY f.recorded_at, f.id LIMIT ?",
        (scope_id, *_CURRENT.parameters, limit + 1),
    )
    if len(rows) > limit:
        return None
    matrix = np.zeros((len(rows), space.dimensions), dtype=np.float32)
    for index, row in enumerate(rows):
        matrix[index] = _stored_vector(connection, space, int(row[-1]))
    return CurrentFacts(tuple(fact_from_row(row[:-1]) for row in rows), matrix)


def _stored_vector(connection: apsw.Connection, space: VectorSpace, internal_id: int) -> Vector:
    import numpy as np

    rows = fetch_all(
        connection, f"SELECT embedding FROM {space.fact_table} WHERE rowid = ?", (internal_id,)
    )
    if not rows:
        raise BackendError(f"fact row {internal_id} has no vector in {space.fact_table}")
    vector: Vector = np.frombuffer(bytes(rows[0][0]), dtype="<f4").astype(np.float32)
    return vector


def write_fact_changes(
    connection: apsw.Connection,
    space: VectorSpace,
    character_id: str,
    changes: Sequence[FactChangeWrite],
) -> None:
    """Apply ``changes`` in order on this connection's open transaction."""
    scope_ids: dict[Scope, int] = {}
    for change in changes:
        scope = _scope_of(change, character_id)
        if scope not in scope_ids:
            scope_ids[scope] = (
                ensure_scope_id(connection, scope)
                if isinstance(change, FactWrite)
                else _existing_scope_id(connection, scope, change)
            )
        scope_id = scope_ids[scope]
        if isinstance(change, FactWrite):
            facts.add_facts(connection, space, scope, scope_id, [change])
        elif isinstance(change, FactUpdate):
            facts.update_fact(connection, space, scope, scope_id, change.fact, None)
        else:
            old_id, replacement = change.old_fact_id, change.replacement
            facts.supersede_fact(connection, space, scope, scope_id, old_id, replacement, change.at)


def _scope_of(change: object, character_id: str) -> Scope:
    fact = _fact_of(change)
    if fact.scope.character_id != character_id:
        raise InvalidInput(
            f"fact {fact.id!r} of character {fact.scope.character_id!r} "
            f"in a batch for {character_id!r}"
        )
    return fact.scope


def _fact_of(change: object) -> Fact:
    if isinstance(change, FactWrite | FactUpdate):
        return change.fact
    if isinstance(change, FactSupersession):
        return change.replacement.fact
    raise InvalidInput(f"not a fact change: {type(change).__name__}")


def _existing_scope_id(
    connection: apsw.Connection, scope: Scope, change: FactUpdate | FactSupersession
) -> int:
    scope_id = find_scope_id(connection, scope)
    if scope_id is None:
        missing = change.old_fact_id if isinstance(change, FactSupersession) else change.fact.id
        raise NotFound(f"fact {missing!r} not found in scope {scope}")
    return scope_id

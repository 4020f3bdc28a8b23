"""Typed filters as SQL conditions: fixed fragments, values always bound as parameters.

Each filter has two renderings: over the record tables (aliases ``e`` and ``f``) and over
the vec0 metadata columns, so a vector search filters *inside* the k-nearest-neighbour scan
and still returns ``limit`` hits when that many match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from omoide.domain import FactCategory, TrustState, check_unit_interval
from omoide.errors import InvalidInput
from omoide.store.sqlite.codec import optional_micros

if TYPE_CHECKING:
    from omoide.store.base import EpisodeFilter, FactFilter


@dataclass(frozen=True, slots=True)
class Conditions:
    """``AND``-joined SQL fragments (each starting with `` AND ``) and their parameters."""

    sql: str
    parameters: tuple[object, ...]


def _join(clauses: list[tuple[str, tuple[object, ...]]]) -> Conditions:
    sql = "".join(f" AND {fragment}" for fragment, _ in clauses)
    parameters = tuple(value for _, values in clauses for value in values)
    return Conditions(sql, parameters)


def _episode_clauses(
    where: EpisodeFilter, *, importance: str, not_archived: str, recorded_at: str
) -> list[tuple[str, tuple[object, ...]]]:
    check_unit_interval(where.min_importance, name="min_importance")
    clauses: list[tuple[str, tuple[object, ...]]] = []
    if where.min_importance > 0:
        clauses.append((f"{importance} >= ?", (float(where.min_importance),)))
    if not where.include_archived:
        clauses.append((not_archived, ()))
    since = optional_micros(where.since, name="since")
    until = optional_micros(where.until, name="until")
    if since is not None:
        clauses.append((f"{recorded_at} >= ?", (since,)))
    if until is not None:
        clauses.append((f"{recorded_at} <= ?", (until,)))
    return clauses


def episode_record_conditions(where: EpisodeFilter) -> Conditions:
    return _join(
        _episode_clauses(
            where,
            importance="e.importance",
            not_archived="e.archived_at IS NULL",
            recorded_at="e.recorded_at",
        )
    )


def episode_vector_conditions(where: EpisodeFilter) -> Conditions:
    return _join(
        _episode_clauses(
            where, importance="importance", not_archived="archived = 0", recorded_at="recorded_at"
        )
    )


def _categories_json(where: FactFilter) -> str | None:
    if where.categories is None:
        return None
    try:
        names = sorted(FactCategory(category).value for category in where.categories)
    except ValueError as exc:
        raise InvalidInput(f"unknown fact category in {sorted(where.categories)}") from exc
    return json.dumps(names)


def fact_record_conditions(where: FactFilter) -> Conditions:
    clauses: list[tuple[str, tuple[object, ...]]] = []
    categories = _categories_json(where)
    if categories is not None:
        clauses.append(("f.category IN (SELECT value FROM json_each(?))", (categories,)))
    if where.contradicted_only:
        clauses.append(("f.trust = ?", (TrustState.CONTRADICTED.value,)))
    elif not where.include_inactive:
        clauses.append(
            ("f.superseded_at IS NULL AND f.trust <> ?", (TrustState.CONTRADICTED.value,))
        )
    return _join(clauses)


def fact_vector_conditions(where: FactFilter) -> Conditions:
    if where.contradicted_only:
        raise InvalidInput("contradicted_only applies to fact listings and keyword searches")
    clauses: list[tuple[str, tuple[object, ...]]] = []
    categories = _categories_json(where)
    if categories is not None:
        clauses.append(("category IN (SELECT value FROM json_each(?))", (categories,)))
    if not where.include_inactive:
        clauses.append(("is_current = 1", ()))
    return _join(clauses)

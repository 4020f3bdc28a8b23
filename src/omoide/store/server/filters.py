"""Typed filters as PostgreSQL conditions and as Qdrant payload conditions.

Each filter has two renderings built side by side from the same fields, so a vector or
keyword search filters *inside* Qdrant (and still returns ``limit`` hits when that many
match) and the records fetched from PostgreSQL are checked again against the source of
truth. SQL fragments are fixed text; values are always bound parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from qdrant_client import models

from omoide.domain import FactCategory, TrustState, check_unit_interval
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.server.codec import optional_utc
from omoide.store.server.points import micros


@dataclass(frozen=True, slots=True)
class Conditions:
    """``AND``-joined SQL fragments with their parameters, and the same filter for Qdrant."""

    sql: str
    parameters: tuple[object, ...]
    payload: tuple[models.FieldCondition, ...]
    matches_nothing: bool = False


def _join(
    clauses: list[tuple[str, tuple[object, ...]]],
    payload: list[models.FieldCondition],
    *,
    matches_nothing: bool = False,
) -> Conditions:
    sql = "".join(f" AND {fragment}" for fragment, _ in clauses)
    parameters = tuple(value for _, values in clauses for value in values)
    return Conditions(sql, parameters, tuple(payload), matches_nothing)


def episode_conditions(where: EpisodeFilter) -> Conditions:
    """Conditions over ``episodes e`` and over episode points."""
    if not isinstance(where, EpisodeFilter):
        raise InvalidInput("expected an EpisodeFilter")
    minimum = check_unit_interval(where.min_importance, name="min_importance")
    since = optional_utc(where.since, name="since")
    until = optional_utc(where.until, name="until")
    clauses: list[tuple[str, tuple[object, ...]]] = []
    payload: list[models.FieldCondition] = []
    if minimum > 0:
        clauses.append(("e.importance >= %s", (minimum,)))
        payload.append(models.FieldCondition(key="importance", range=models.Range(gte=minimum)))
    if not where.include_archived:
        clauses.append(("e.archived_at IS NULL", ()))
        payload.append(models.FieldCondition(key="archived", match=models.MatchValue(value=False)))
    if since is not None or until is not None:
        if since is not None:
            clauses.append(("e.recorded_at >= %s", (since,)))
        if until is not None:
            clauses.append(("e.recorded_at <= %s", (until,)))
        window = models.Range(
            gte=None if since is None else micros(since),
            lte=None if until is None else micros(until),
        )
        payload.append(models.FieldCondition(key="recorded_at", range=window))
    return _join(clauses, payload)


def _category_names(where: FactFilter) -> list[str] | None:
    if where.categories is None:
        return None
    try:
        return sorted(FactCategory(category).value for category in where.categories)
    except ValueError as exc:
        raise InvalidInput(f"unknown fact category in {sorted(where.categories)}") from exc


def fact_conditions(where: FactFilter) -> Conditions:
    """Conditions over ``facts f`` and over fact points."""
    if not isinstance(where, FactFilter):
        raise InvalidInput("expected a FactFilter")
    clauses: list[tuple[str, tuple[object, ...]]] = []
    payload: list[models.FieldCondition] = []
    names = _category_names(where)
    if names is not None:
        clauses.append(("f.category = ANY(%s)", (names,)))
        payload.append(models.FieldCondition(key="category", match=models.MatchAny(any=names)))
    if where.contradicted_only:
        clauses.append(("f.trust = %s", (TrustState.CONTRADICTED.value,)))
    elif not where.include_inactive:
        clauses.append(
            ("f.superseded_at IS NULL AND f.trust <> %s", (TrustState.CONTRADICTED.value,))
        )
        payload.append(models.FieldCondition(key="current", match=models.MatchValue(value=True)))
    return _join(clauses, payload, matches_nothing=names == [])

"""Checks on the arguments of the store's methods, run before any query touches the file."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from omoide.domain import Scope
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.sqlite.filters import episode_record_conditions, fact_record_conditions

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

MAX_NEIGHBOURS = 4096  # vec0 refuses a larger k
MAX_REASON_LENGTH = 1000


def check_scope(scope: Scope) -> Scope:
    if not isinstance(scope, Scope):
        raise InvalidInput(f"expected a Scope (got {type(scope).__name__})")
    return scope


def check_count(value: int, *, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"{name} must be a non-negative integer (got {value!r})")
    return value


def check_text(value: str, *, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    return value


def check_readings(
    readings: Mapping[str, tuple[str | None, str]],
) -> dict[str, tuple[str | None, str]]:
    """Episode id -> (the readings an episode was read with, its new ones), checked."""
    checked: dict[str, tuple[str | None, str]] = {}
    for episode_id, (old, new) in readings.items():
        identifier = check_text(episode_id, name="episode id")
        kept = None if old is None else check_text(old, name="old readings")
        checked[identifier] = (kept, check_text(new, name="readings"))
    return checked


def check_neighbour_limit(limit: int) -> int:
    check_count(limit, name="limit")
    if limit > MAX_NEIGHBOURS:
        raise InvalidInput(f"a vector search returns at most {MAX_NEIGHBOURS} hits (got {limit})")
    return limit


def check_reason(reason: str) -> str:
    """A deletion reason: free text kept in the tombstone, so never the deleted content."""
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("a deletion reason must be a non-empty string")
    if len(reason) > MAX_REASON_LENGTH:
        raise InvalidInput(f"a deletion reason must be at most {MAX_REASON_LENGTH} characters")
    return reason


_DIGEST = re.compile(r"[0-9a-f]{32,128}")


def check_digests(digests: Sequence[str]) -> list[str]:
    """Digests of deleted facts, each once: lowercase hex only, so no text passes for one."""
    if isinstance(digests, str | bytes):
        raise InvalidInput("fact digests must be a sequence of strings, not one string")
    for digest in digests:
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            raise InvalidInput("a fact digest must be 32 to 128 lowercase hex characters")
    return list(dict.fromkeys(digests))


def check_episode_filter(where: EpisodeFilter) -> EpisodeFilter:
    if not isinstance(where, EpisodeFilter):
        raise InvalidInput("expected an EpisodeFilter")
    episode_record_conditions(where)
    return where


def check_fact_filter(where: FactFilter) -> FactFilter:
    if not isinstance(where, FactFilter):
        raise InvalidInput("expected a FactFilter")
    fact_record_conditions(where)
    return where

"""The scoped storage contract: the values a memory store takes and returns.

Two backends keep memories (:class:`~omoide.store.sqlite.store.SqliteMemoryStore`, one
SQLite file; :class:`~omoide.store.server.store.ServerMemoryStore`, PostgreSQL + Qdrant)
with the same methods, signature for signature; the contract suite (``tests/store/``) runs
on both. No Protocol names the whole store: each consumer declares the small role it uses
where it uses it (``memory.recall.MemorySearch``, ``memory.remember.TurnWriting``,
``memory.facts.keeper.FactWriting``, ``memory.manager.ViewerAdmin``,
``memory.decay.DecayMaintenance``, ...), and the composition root passes the one store for
each.

Every method that reads, writes, updates, counts, lists, exports or deletes memory takes a
:class:`~omoide.domain.Scope` (or a ``character_id`` for character-wide operations). A method
that could touch memory without a scope does not exist. Each backend turns a scope into a
filter in exactly one function, with bound parameters.

Vectors arrive already embedded; the store records which model made them and refuses
vectors of another model or dimension (:class:`~omoide.errors.Conflict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    Matrix,
    Scope,
    Vector,
)

Item = TypeVar("Item", bound=Episode | Fact)


@dataclass(frozen=True, slots=True)
class Hit(Generic[Item]):
    """A search result with the backend's raw score.

    For vector search ``score`` is cosine similarity in [-1, 1]; for keyword search it is
    BM25 with higher meaning better. Ranking normalises these; the store does not.
    """

    item: Item
    score: float


@dataclass(frozen=True, slots=True)
class TurnWrite:
    """One exchange to persist: the episode (if worth storing) and the emotion record.

    An exchange below the storage threshold still records how the viewer felt.
    """

    scope: Scope
    episode: Episode | None
    vector: Vector | None
    emotion: EmotionRecord | None
    display_name: str | None = None
    """The name the viewer went by in this exchange: kept (latest and history) as seen
    at the episode's time, else the emotion record's."""


@dataclass(frozen=True, slots=True)
class FactWrite:
    fact: Fact
    vector: Vector


@dataclass(frozen=True, slots=True)
class FactUpdate:
    """Replace a stored fact's fields, same id and text (a confirmation, a contradiction)."""

    fact: Fact


@dataclass(frozen=True, slots=True)
class FactSupersession:
    """Close the fact ``old_fact_id`` at ``at`` and add ``replacement`` linked to it."""

    old_fact_id: str
    replacement: FactWrite
    at: datetime


FactChangeWrite = FactWrite | FactUpdate | FactSupersession
"""One change of a store's ``write_fact_changes`` (the one way facts change); a
:class:`FactWrite` adds a fact."""


@dataclass(frozen=True, slots=True)
class CurrentFacts:
    """A scope's current facts, oldest first, and their vectors (row i is ``facts[i]``'s)."""

    facts: tuple[Fact, ...]
    vectors: Matrix


@dataclass(frozen=True, slots=True)
class EpisodeFilter:
    """Which episodes a search or listing may return."""

    min_importance: float = 0.0
    include_archived: bool = False
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True, slots=True)
class FactFilter:
    """Which facts a search or listing may return.

    By default only current facts: not superseded and not contradicted.
    """

    categories: frozenset[FactCategory] | None = None
    include_inactive: bool = False
    contradicted_only: bool = False
    """Only facts found no longer true (trust ``CONTRADICTED``), current or not: what a
    viewer repeating must not bring back. For listings and keyword searches; a vector
    search refuses it (:class:`~omoide.errors.InvalidInput`)."""


@dataclass(frozen=True, slots=True)
class EmbeddingInfo:
    model_name: str
    dimensions: int

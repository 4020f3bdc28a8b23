"""The scoped storage contract.

Every method that reads, writes, updates, counts, lists, exports or deletes memory takes a
:class:`~omoide.domain.Scope` (or a ``character_id`` for character-wide operations). A method
that could touch memory without a scope does not exist. Each backend turns a scope into a
filter in exactly one function, with bound parameters.

Vectors arrive already embedded; the store records which model made them and refuses
vectors of another model or dimension (:class:`~omoide.errors.Conflict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, Protocol, TypeVar

from omoide.domain import (
    DisplayName,
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    ForgetReport,
    Matrix,
    Scope,
    ScopeExport,
    Tombstone,
    Vector,
    ViewerSummary,
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
"""One change of :meth:`MemoryStore.write_fact_changes`; a :class:`FactWrite` adds a fact."""


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


@dataclass(frozen=True, slots=True, eq=False)
class ReplyReads:
    """The reads of one reply, made together in one store call (``read_for_reply``).

    Each part is optional: ``vector`` searches episodes and facts by meaning, ``words``
    by keyword, ``emotions_between`` (since, until; both inclusive) reads emotion records
    and ``facts_listed`` lists facts. Each part answers what the single-purpose method
    with the same arguments answers (``search_episode_vectors``, ``search_fact_keywords``,
    ``list_emotions``, ``list_facts``...); an embedded store makes them all in one read
    transaction on one worker thread instead of one thread hop each.
    """

    episodes_where: EpisodeFilter
    episode_limit: int
    fact_limit: int
    facts_where: FactFilter = FactFilter()
    vector: Vector | None = None
    words: str | None = None
    emotions_between: tuple[datetime, datetime] | None = None
    facts_listed: FactFilter | None = None


@dataclass(frozen=True, slots=True)
class ReplyFound:
    """What :class:`ReplyReads` found; a part not asked for is empty."""

    episode_vector: list[Hit[Episode]] = field(default_factory=list)
    fact_vector: list[Hit[Fact]] = field(default_factory=list)
    episode_keyword: list[Hit[Episode]] = field(default_factory=list)
    fact_keyword: list[Hit[Fact]] = field(default_factory=list)
    emotions: list[EmotionRecord] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class EmbeddingInfo:
    model_name: str
    dimensions: int


class MemoryStore(Protocol):
    """Where memories live. Implementations: SQLite (embedded), PostgreSQL + Qdrant.

    The whole contract a backend implements (the contract tests run it on both). A
    consumer depends on a small Protocol of its own, declared where it is used
    (``memory.facts.FactWriting``, ``memory.recall.MemorySearch``,
    ``memory.remember.TurnWriting``, ``memory.decay.DecayMaintenance``, ...).
    """

    @property
    def embedding(self) -> EmbeddingInfo: ...

    # --- episodes and emotions -------------------------------------------------------
    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None:
        """Persist turns of one character's viewers in one transaction (all or nothing)."""
        ...

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode: ...

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]:
        """Newest first."""
        ...

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int: ...

    async def search_episode_vectors(
        self, scope: Scope, vector: Vector, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]: ...

    async def search_episode_keywords(
        self, scope: Scope, text: str, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]: ...

    async def read_for_reply(self, scope: Scope, reads: ReplyReads) -> ReplyFound:
        """Every read ``reads`` asks for (see :class:`ReplyReads`), as the single-purpose
        methods with the same arguments would answer it."""
        ...

    async def episode_neighbours(
        self, scope: Scope, episode_ids: Sequence[str], *, where: EpisodeFilter
    ) -> dict[str, tuple[Episode, ...]]:
        """For each of ``episode_ids`` stored in ``scope``: the episode recorded just before
        it and the one just after it, among the scope's episodes that ``where`` admits
        (timeline order: recorded_at, then id), the earlier first; none, one or two. An id
        not stored in the scope has no entry; the given episodes need not match ``where``.
        Read in one transaction."""
        ...

    async def record_recalls(
        self, scope: Scope, *, episode_ids: Sequence[str], fact_ids: Sequence[str], at: datetime
    ) -> None:
        """Reinforce recalled memories in one write: recall count up, last recall = at."""
        ...

    async def archive_episodes(
        self, scope: Scope, episode_ids: Sequence[str], *, at: datetime
    ) -> int: ...

    async def delete_episode(
        self, scope: Scope, episode_id: str, *, reason: str, at: datetime
    ) -> Tombstone: ...

    async def rewrite_episode(self, scope: Scope, episode: Episode, *, vector: Vector) -> None:
        """Replace a stored episode's words (its messages and topics) with ``episode``'s,
        same id, and its vector with ``vector``; the other fields stay (redaction)."""
        ...

    async def list_emotions(
        self, scope: Scope, *, since: datetime, until: datetime
    ) -> list[EmotionRecord]:
        """Oldest first."""
        ...

    # --- facts -----------------------------------------------------------------------
    async def get_fact(self, scope: Scope, fact_id: str) -> Fact: ...

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...

    async def search_fact_vectors(
        self, scope: Scope, vector: Vector, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]: ...

    async def search_fact_keywords(
        self, scope: Scope, text: str, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]: ...

    async def delete_fact(
        self, scope: Scope, fact_id: str, *, reason: str, at: datetime, digests: Sequence[str] = ()
    ) -> Tombstone:
        """Delete the fact and leave a tombstone. ``digests`` (lowercase hex, 32 to 128
        characters: keyed digests of what the fact said, never its text) stay with the
        tombstone for :meth:`deleted_fact_digests` until the scope is forgotten."""
        ...

    async def deleted_fact_digests(self, scope: Scope, digests: Sequence[str]) -> set[str]:
        """Those of ``digests`` that a fact deleted in ``scope`` left (see
        :meth:`delete_fact`)."""
        ...

    async def current_facts(
        self, scopes: Sequence[Scope], *, limit: int
    ) -> dict[Scope, CurrentFacts | None]:
        """Each scope's current facts with their vectors, read together (one transaction);
        ``None`` for a scope holding more than ``limit`` current facts. A scope never
        written maps to no facts. Facts come oldest first (recorded_at, then id)."""
        ...

    async def write_fact_changes(
        self, character_id: str, changes: Sequence[FactChangeWrite]
    ) -> None:
        """The one way facts change: apply changes to the facts of one character's
        scopes, in order, in one transaction: all or none. A :class:`FactWrite` adds a fact
        (its sources must be episodes of its scope), a :class:`FactUpdate` replaces a stored
        fact's fields (same id and text; NotFound outside its scope), a
        :class:`FactSupersession` closes the old fact (valid_to, superseded_at; Conflict if
        already superseded) and adds the replacement linked to it; each change's scope is
        its fact's, and a later change sees the earlier ones."""
        ...

    # --- viewers and characters --------------------------------------------------------
    async def forget_viewer(self, scope: Scope, *, reason: str, at: datetime) -> ForgetReport:
        """Delete every memory of ``scope``, and the digests its deleted facts left; the
        tombstones keep ids, kinds, times and reasons."""
        ...

    async def export_scope(self, scope: Scope) -> ScopeExport: ...

    async def list_viewers(
        self, character_id: str, *, search: str | None, limit: int, offset: int = 0
    ) -> list[ViewerSummary]:
        """Viewers with any stored memory, most recently seen first, each with the name
        they went by last. ``search`` matches part of the viewer id, or part of any name
        they went by ignoring case (Unicode case folding)."""
        ...

    async def count_viewers(self, character_id: str, *, search: str | None) -> int:
        """How many viewers :meth:`list_viewers` would list over all its pages."""
        ...

    async def list_display_names(self, scope: Scope) -> list[DisplayName]:
        """The names the viewer went by, most recently seen first (none for a scope
        never written)."""
        ...

    # --- maintenance -----------------------------------------------------------------
    async def list_episodes_for_decay(
        self, character_id: str, *, after_id: str | None, limit: int
    ) -> list[Episode]:
        """Unarchived episodes of every scope of one character, in id order, one page."""
        ...

    async def list_archived_episodes(
        self,
        character_id: str,
        *,
        archived_from: datetime | None,
        archived_before: datetime | None,
        after_id: str | None,
        limit: int,
    ) -> list[Episode]:
        """Archived episodes of every scope of one character, archived at or after
        ``archived_from`` and before ``archived_before`` (``None``: no bound), in id order,
        one page."""
        ...

    async def restore_episodes(self, scope: Scope, episode_ids: Sequence[str]) -> int:
        """Bring archived episodes back into retrieval (their archive time cleared, their
        vectors and keywords searchable again); returns how many were archived."""
        ...

    async def purge_archived(
        self, character_id: str, *, archived_before: datetime, reason: str, at: datetime
    ) -> int:
        """Destroy archived episodes, leaving tombstones; returns how many."""
        ...

    async def close(self) -> None: ...

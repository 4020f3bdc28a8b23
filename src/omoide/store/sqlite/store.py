"""The embedded store: records, keyword index and vectors in one SQLite file.

Every write (a batch of turns, a batch of facts, a delete, a forget) is one transaction over
records, FTS5 rows and vec0 rows together: all of it commits or none of it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import anyio
import apsw

from omoide.domain import (
    DisplayName,
    EmotionRecord,
    Episode,
    Fact,
    ForgetReport,
    MemoryKind,
    Scope,
    ScopeExport,
    Tombstone,
    Vector,
    ViewerSummary,
    check_identifier,
)
from omoide.errors import InvalidInput
from omoide.store.base import (
    CurrentFacts,
    EmbeddingInfo,
    EpisodeFilter,
    FactChangeWrite,
    FactFilter,
    Hit,
    TurnWrite,
)
from omoide.store.display_names import name_sightings
from omoide.store.sqlite import episodes, fact_changes, facts, names, neighbours, viewers
from omoide.store.sqlite.archive import ArchiveMaintenance
from omoide.store.sqlite.arguments import (
    check_count,
    check_digests,
    check_episode_filter,
    check_fact_filter,
    check_neighbour_limit,
    check_reason,
    check_scope,
    check_text,
)
from omoide.store.sqlite.codec import to_micros
from omoide.store.sqlite.connection import DEFAULT_READERS
from omoide.store.sqlite.migrations import open_memory_database
from omoide.store.sqlite.scoped import nothing_found
from omoide.store.sqlite.tombstones import deleted_fact_digests, tombstone_for
from omoide.store.sqlite.vectors import bind_embedding, vector_bytes


class SqliteMemoryStore(ArchiveMaintenance):
    """The memory store over one SQLite file (sqlite-vec + FTS5); it plays every role its
    consumers declare (see :mod:`omoide.store.base`)."""

    # --- episodes and emotions -------------------------------------------------------
    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None:
        """Persist turns of one character's viewers in one transaction (all or nothing)."""
        check_identifier(character_id, name="character_id")
        batch = list(turns)
        sightings = name_sightings(batch)

        def work(connection: apsw.Connection) -> None:
            episodes.write_turns(connection, self._space, character_id, batch)
            names.record_names(connection, sightings)

        if batch:
            await self._database.write(work)

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode:
        return await self._read_scope(
            scope,
            lambda c, scope_id: episodes.get_episode(c, scope, scope_id, episode_id),
            nothing_found(f"episode {episode_id!r} not found in scope {scope}"),
        )

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]:
        """Newest first."""
        check_episode_filter(where)
        check_count(limit, name="limit")
        check_count(offset, name="offset")
        return await self._read_scope(
            scope,
            lambda c, scope_id: episodes.list_episodes(c, scope_id, where, limit, offset),
            list,
        )

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int:
        check_episode_filter(where)
        return await self._read_scope(
            scope, lambda c, scope_id: episodes.count_episodes(c, scope_id, where), int
        )

    async def search_episode_vectors(
        self, scope: Scope, vector: Vector, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]:
        check_episode_filter(where)
        query = vector_bytes(vector, self._space)
        check_neighbour_limit(limit)
        if limit == 0:
            return []
        space = self._space
        return await self._read_scope(
            scope,
            lambda c, scope_id: episodes.search_vectors(c, space, scope_id, query, where, limit),
            list,
        )

    async def search_episode_keywords(
        self, scope: Scope, text: str, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]:
        check_episode_filter(where)
        check_text(text, name="text")
        check_count(limit, name="limit")
        return await self._read_scope(
            scope,
            lambda c, scope_id: episodes.search_keywords(c, scope_id, text, where, limit),
            list,
        )

    async def episode_neighbours(
        self, scope: Scope, episode_ids: Sequence[str], *, where: EpisodeFilter
    ) -> dict[str, tuple[Episode, ...]]:
        """The admitted episodes recorded just before and just after each given one."""
        check_episode_filter(where)
        wanted = [check_text(episode_id, name="episode id") for episode_id in episode_ids]
        if not wanted:
            check_scope(scope)
            return {}
        return await self._read_scope(
            scope,
            lambda c, scope_id: neighbours.episode_neighbours(c, scope_id, wanted, where),
            dict,
        )

    async def record_recalls(
        self, scope: Scope, *, episode_ids: Sequence[str], fact_ids: Sequence[str], at: datetime
    ) -> None:
        """Reinforce recalled memories in one write: recall count up, last recall = at."""
        episode_list = [check_text(value, name="episode id") for value in episode_ids]
        fact_list = [check_text(value, name="fact id") for value in fact_ids]
        moment = to_micros(at, name="at")
        if not episode_list and not fact_list:
            return

        def work(connection: apsw.Connection, scope_id: int) -> None:
            episodes.record_recalls(connection, scope_id, episode_list, moment)
            facts.record_recalls(connection, scope_id, fact_list, moment)

        await self._write_scope(scope, work, lambda: None)

    async def delete_episode(
        self, scope: Scope, episode_id: str, *, reason: str, at: datetime
    ) -> Tombstone:
        check_reason(reason)
        tombstone = tombstone_for(scope, MemoryKind.EPISODE, episode_id, reason=reason, at=at)
        await self._write_scope(
            scope,
            lambda c, scope_id: episodes.delete_episode(
                c, self._space, scope, scope_id, episode_id, reason=reason, at=at
            ),
            nothing_found(f"episode {episode_id!r} not found in scope {scope}"),
        )
        return tombstone

    async def rewrite_episode(self, scope: Scope, episode: Episode, *, vector: Vector) -> None:
        await self._write_scope(
            scope,
            lambda c, scope_id: episodes.rewrite_episode(
                c, self._space, scope, scope_id, episode, vector
            ),
            nothing_found(f"episode {episode.id!r} not found in scope {scope}"),
        )

    async def list_emotions(
        self, scope: Scope, *, since: datetime, until: datetime
    ) -> list[EmotionRecord]:
        """Oldest first; both ends inclusive."""
        to_micros(since, name="since")
        to_micros(until, name="until")
        return await self._read_scope(
            scope, lambda c, scope_id: episodes.list_emotions(c, scope_id, since, until), list
        )

    # --- facts -----------------------------------------------------------------------
    async def get_fact(self, scope: Scope, fact_id: str) -> Fact:
        return await self._read_scope(
            scope,
            lambda c, scope_id: facts.get_fact(c, scope, scope_id, fact_id),
            nothing_found(f"fact {fact_id!r} not found in scope {scope}"),
        )

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]:
        check_fact_filter(where)
        return await self._read_scope(
            scope, lambda c, scope_id: facts.list_facts(c, scope_id, where), list
        )

    async def search_fact_vectors(
        self, scope: Scope, vector: Vector, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]:
        check_fact_filter(where)
        query = vector_bytes(vector, self._space)
        check_neighbour_limit(limit)
        if limit == 0:
            return []
        space = self._space
        return await self._read_scope(
            scope,
            lambda c, scope_id: facts.search_vectors(c, space, scope_id, query, where, limit),
            list,
        )

    async def search_fact_keywords(
        self, scope: Scope, text: str, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]:
        check_fact_filter(where)
        check_text(text, name="text")
        check_count(limit, name="limit")
        return await self._read_scope(
            scope,
            lambda c, scope_id: facts.search_keywords(c, scope_id, text, where, limit),
            list,
        )

    async def delete_fact(
        self, scope: Scope, fact_id: str, *, reason: str, at: datetime, digests: Sequence[str] = ()
    ) -> Tombstone:
        check_reason(reason)
        kept = check_digests(digests)
        tombstone = tombstone_for(scope, MemoryKind.FACT, fact_id, reason=reason, at=at)
        await self._write_scope(
            scope,
            lambda c, scope_id: facts.delete_fact(
                c, self._space, scope, scope_id, fact_id, reason=reason, at=at, digests=kept
            ),
            nothing_found(f"fact {fact_id!r} not found in scope {scope}"),
        )
        return tombstone

    async def deleted_fact_digests(self, scope: Scope, digests: Sequence[str]) -> set[str]:
        wanted = check_digests(digests)
        return await self._read_scope(
            scope, lambda c, scope_id: deleted_fact_digests(c, scope_id, wanted), set
        )

    async def current_facts(
        self, scopes: Sequence[Scope], *, limit: int
    ) -> dict[Scope, CurrentFacts | None]:
        """Each scope's current facts with their vectors, read in one transaction."""
        for scope in scopes:
            check_scope(scope)
        check_count(limit, name="limit")
        wanted = list(scopes)
        if not wanted:
            return {}
        return await self._database.read(
            lambda c: fact_changes.current_facts(c, self._space, wanted, limit)
        )

    async def write_fact_changes(
        self, character_id: str, changes: Sequence[FactChangeWrite]
    ) -> None:
        """Apply fact changes of one character's viewers in order, in one transaction."""
        check_identifier(character_id, name="character_id")
        batch = list(changes)
        if batch:
            await self._database.write(
                lambda c: fact_changes.write_fact_changes(c, self._space, character_id, batch)
            )

    # --- viewers and characters --------------------------------------------------------
    async def forget_viewer(self, scope: Scope, *, reason: str, at: datetime) -> ForgetReport:
        check_reason(reason)
        to_micros(at, name="at")
        return await self._write_scope(
            scope,
            lambda c, scope_id: viewers.forget_scope(
                c, self._space, scope, scope_id, reason=reason, at=at
            ),
            lambda: ForgetReport(scope, 0, 0, 0),
        )

    async def export_scope(self, scope: Scope) -> ScopeExport:
        check_scope(scope)
        return await self._database.read(
            lambda c: viewers.export_scope(c, scope, self._committed_scope_id(c, scope))
        )

    async def list_viewers(
        self, character_id: str, *, search: str | None, limit: int, offset: int = 0
    ) -> list[ViewerSummary]:
        check_identifier(character_id, name="character_id")
        check_count(limit, name="limit")
        check_count(offset, name="offset")
        return await self._database.read(
            lambda c: viewers.list_viewers(c, character_id, search, limit, offset)
        )

    async def count_viewers(self, character_id: str, *, search: str | None) -> int:
        check_identifier(character_id, name="character_id")
        return await self._database.read(lambda c: viewers.count_viewers(c, character_id, search))

    async def list_display_names(self, scope: Scope) -> list[DisplayName]:
        return await self._read_scope(scope, names.list_names, list)

    async def close(self) -> None:
        await self._database.close()


async def open_sqlite_store(
    path: Path, *, embedding: EmbeddingInfo, readers: int = DEFAULT_READERS
) -> SqliteMemoryStore:
    """Open (creating if needed) the store at ``path``: migrate, then bind the embedding model.

    Raises :class:`~omoide.errors.Conflict` when the file holds vectors of another model.
    """
    if isinstance(readers, bool) or not isinstance(readers, int) or readers < 1:
        raise InvalidInput(f"readers must be a positive integer (got {readers!r})")
    database = await open_memory_database(Path(path), readers=readers)
    try:
        space = await database.write(lambda c: bind_embedding(c, embedding, database.path))
    except BaseException:
        with anyio.CancelScope(shield=True):
            await database.close()
        raise
    return SqliteMemoryStore(database, space)

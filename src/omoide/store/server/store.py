"""The server store: records in PostgreSQL, vectors and keyword vectors in Qdrant.

PostgreSQL is the source of truth and Qdrant a derived, repairable index: every write is
one PostgreSQL transaction over records and vector-outbox entries, published to Qdrant
after the commit (:mod:`.engines`, :mod:`.outbox`); every search is ranked by Qdrant and
confirmed by PostgreSQL (:mod:`.searches`). The semantics are the embedded store's, and the
same contract suite runs against both.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

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
    ReplyFound,
    ReplyReads,
    TurnWrite,
)
from omoide.store.display_names import name_sightings
from omoide.store.server import episodes, fact_changes, facts, names, neighbours, viewers
from omoide.store.server.archive import ServerArchiveMaintenance
from omoide.store.server.codec import utc
from omoide.store.server.database import Connection
from omoide.store.server.embedding import vector_bytes
from omoide.store.server.engines import Changes, Engines, nothing_found
from omoide.store.server.filters import episode_conditions, fact_conditions
from omoide.store.server.reply_reads import read_concurrently
from omoide.store.server.searches import keyword_search, vector_search
from omoide.store.server.tombstones import deleted_fact_digests, tombstone_for
from omoide.store.sqlite.arguments import (
    check_count,
    check_digests,
    check_reason,
    check_scope,
    check_text,
)

if TYPE_CHECKING:
    from omoide.domain import Vector


class ServerMemoryStore(ServerArchiveMaintenance):
    """The memory store over PostgreSQL (records) and Qdrant (vectors); it plays every role
    its consumers declare (see :mod:`omoide.store.base`)."""

    @property
    def embedding(self) -> EmbeddingInfo:
        return self._engines.embedding

    @property
    def engines(self) -> Engines:
        """PostgreSQL and Qdrant: the queue, the character states and maintenance share them."""
        return self._engines

    # --- episodes and emotions -------------------------------------------------------
    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None:
        """Persist turns of one character's viewers in one transaction (all or nothing)."""
        batch = list(turns)
        vectors = episodes.check_turns(character_id, batch, self.embedding)
        sightings = name_sightings(batch)
        if not batch:
            return

        async def work(connection: Connection, changes: Changes) -> None:
            changes.episodes.extend(await episodes.write_turns(connection, batch, vectors))
            await names.record_names(connection, sightings)

        await self._engines.change(work)

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode:
        return await self._engines.read(
            scope,
            lambda c, scope_id: episodes.get_episode(c, scope, scope_id, episode_id),
            nothing_found(f"episode {episode_id!r} not found in scope {scope}"),
        )

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]:
        """Newest first."""
        conditions = episode_conditions(where)
        check_count(limit, name="limit")
        check_count(offset, name="offset")
        return await self._engines.read(
            scope,
            lambda c, scope_id: episodes.list_episodes(c, scope_id, conditions, limit, offset),
            list,
        )

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int:
        conditions = episode_conditions(where)
        return await self._engines.read(
            scope, lambda c, scope_id: episodes.count_episodes(c, scope_id, conditions), int
        )

    async def search_episode_vectors(
        self, scope: Scope, vector: Vector, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]:
        conditions = episode_conditions(where)
        return await vector_search(
            self._engines,
            "episode",
            scope,
            vector,
            conditions=conditions,
            limit=limit,
            fetch=episodes.episodes_by_internal_id,
        )

    async def search_episode_keywords(
        self, scope: Scope, text: str, *, where: EpisodeFilter, limit: int
    ) -> list[Hit[Episode]]:
        conditions = episode_conditions(where)
        return await keyword_search(
            self._engines,
            "episode",
            scope,
            text,
            conditions=conditions,
            limit=limit,
            fetch=episodes.episodes_by_internal_id,
        )

    async def read_for_reply(self, scope: Scope, reads: ReplyReads) -> ReplyFound:
        """Every read ``reads`` asks for, each as its own method makes it, concurrently."""
        return await read_concurrently(self, scope, reads)

    async def episode_neighbours(
        self, scope: Scope, episode_ids: Sequence[str], *, where: EpisodeFilter
    ) -> dict[str, tuple[Episode, ...]]:
        """The admitted episodes recorded just before and just after each given one."""
        return await neighbours.episode_neighbours(self._engines, scope, episode_ids, where)

    async def record_recalls(
        self, scope: Scope, *, episode_ids: Sequence[str], fact_ids: Sequence[str], at: datetime
    ) -> None:
        """Reinforce recalled memories in one write: recall count up, last recall = at."""
        episode_list = [check_text(value, name="episode id") for value in episode_ids]
        fact_list = [check_text(value, name="fact id") for value in fact_ids]
        moment = utc(at, name="at")
        if not episode_list and not fact_list:
            return

        async def work(connection: Connection, scope_id: int, changes: Changes) -> None:
            await episodes.record_recalls(connection, scope_id, episode_list, moment)
            await facts.record_recalls(connection, scope_id, fact_list, moment)

        await self._engines.change_scope(scope, work, lambda: None)

    async def delete_episode(
        self, scope: Scope, episode_id: str, *, reason: str, at: datetime
    ) -> Tombstone:
        check_reason(reason)
        tombstone = tombstone_for(scope, MemoryKind.EPISODE, episode_id, reason=reason, at=at)

        async def work(connection: Connection, scope_id: int, changes: Changes) -> None:
            deleted = await episodes.delete_episode(
                connection, scope, scope_id, episode_id, reason=reason, at=tombstone.deleted_at
            )
            changes.episodes.append(deleted)

        missing = nothing_found(f"episode {episode_id!r} not found in scope {scope}")
        await self._engines.change_scope(scope, work, missing)
        return tombstone

    async def rewrite_episode(self, scope: Scope, episode: Episode, *, vector: Vector) -> None:
        encoded = vector_bytes(vector, self.embedding)

        async def work(connection: Connection, scope_id: int, changes: Changes) -> None:
            changes.episodes.append(
                await episodes.rewrite_episode(connection, scope, scope_id, episode, encoded)
            )

        missing = nothing_found(f"episode {episode.id!r} not found in scope {scope}")
        await self._engines.change_scope(scope, work, missing)

    async def list_emotions(
        self, scope: Scope, *, since: datetime, until: datetime
    ) -> list[EmotionRecord]:
        """Oldest first; both ends inclusive."""
        start, end = utc(since, name="since"), utc(until, name="until")
        return await self._engines.read(
            scope, lambda c, scope_id: episodes.list_emotions(c, scope_id, start, end), list
        )

    # --- facts -----------------------------------------------------------------------
    async def get_fact(self, scope: Scope, fact_id: str) -> Fact:
        return await self._engines.read(
            scope,
            lambda c, scope_id: facts.get_fact(c, scope, scope_id, fact_id),
            nothing_found(f"fact {fact_id!r} not found in scope {scope}"),
        )

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]:
        conditions = fact_conditions(where)
        return await self._engines.read(
            scope, lambda c, scope_id: facts.list_facts(c, scope_id, conditions), list
        )

    async def search_fact_vectors(
        self, scope: Scope, vector: Vector, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]:
        if where.contradicted_only:
            raise InvalidInput("contradicted_only applies to fact listings and keyword searches")
        conditions = fact_conditions(where)
        return await vector_search(
            self._engines,
            "fact",
            scope,
            vector,
            conditions=conditions,
            limit=limit,
            fetch=facts.facts_by_internal_id,
        )

    async def search_fact_keywords(
        self, scope: Scope, text: str, *, where: FactFilter, limit: int
    ) -> list[Hit[Fact]]:
        conditions = fact_conditions(where)
        return await keyword_search(
            self._engines,
            "fact",
            scope,
            text,
            conditions=conditions,
            limit=limit,
            fetch=facts.facts_by_internal_id,
        )

    async def delete_fact(
        self, scope: Scope, fact_id: str, *, reason: str, at: datetime, digests: Sequence[str] = ()
    ) -> Tombstone:
        check_reason(reason)
        kept = check_digests(digests)
        tombstone = tombstone_for(scope, MemoryKind.FACT, fact_id, reason=reason, at=at)

        async def work(connection: Connection, scope_id: int, changes: Changes) -> None:
            changes.facts.append(await facts.delete_fact(connection, scope_id, tombstone, kept))

        missing = nothing_found(f"fact {fact_id!r} not found in scope {scope}")
        await self._engines.change_scope(scope, work, missing)
        return tombstone

    async def deleted_fact_digests(self, scope: Scope, digests: Sequence[str]) -> set[str]:
        wanted = check_digests(digests)
        return await self._engines.read(
            scope, lambda c, scope_id: deleted_fact_digests(c, scope_id, wanted), set
        )

    async def current_facts(
        self, scopes: Sequence[Scope], *, limit: int
    ) -> dict[Scope, CurrentFacts | None]:
        """Each scope's current facts with their vectors, read together (one transaction);
        ``None`` for a scope holding more than ``limit`` current facts. A scope never
        written maps to no facts. Facts come oldest first (recorded_at, then id)."""
        return await fact_changes.current_facts(self._engines, scopes, limit)

    async def write_fact_changes(
        self, character_id: str, changes: Sequence[FactChangeWrite]
    ) -> None:
        """Apply changes to the facts of one character's viewers, in order, in one
        transaction (all or none) and one publish to Qdrant."""
        checked = fact_changes.check_changes(character_id, list(changes), self.embedding)
        await fact_changes.write_fact_changes(self._engines, checked)

    # --- viewers and characters --------------------------------------------------------
    async def forget_viewer(self, scope: Scope, *, reason: str, at: datetime) -> ForgetReport:
        check_reason(reason)
        moment = utc(at, name="at")

        async def work(connection: Connection, scope_id: int, changes: Changes) -> ForgetReport:
            removed = viewers.Removed(changes.episodes, changes.facts)
            return await viewers.forget_scope(
                connection, scope, scope_id, removed, reason=reason, at=moment
            )

        return await self._engines.change_scope(scope, work, lambda: ForgetReport(scope, 0, 0, 0))

    async def export_scope(self, scope: Scope) -> ScopeExport:
        check_scope(scope)
        return await self._engines.read(
            scope,
            lambda c, scope_id: viewers.export_scope(c, scope, scope_id),
            lambda: ScopeExport(scope, (), (), (), ()),
        )

    async def list_viewers(
        self, character_id: str, *, search: str | None, limit: int, offset: int = 0
    ) -> list[ViewerSummary]:
        check_identifier(character_id, name="character_id")
        check_count(limit, name="limit")
        check_count(offset, name="offset")
        async with self._engines.database.transaction() as connection:
            return await viewers.list_viewers(connection, character_id, search, limit, offset)

    async def count_viewers(self, character_id: str, *, search: str | None) -> int:
        check_identifier(character_id, name="character_id")
        async with self._engines.database.transaction() as connection:
            return await viewers.count_viewers(connection, character_id, search)

    async def list_display_names(self, scope: Scope) -> list[DisplayName]:
        return await self._engines.read(scope, names.list_names, list)

    async def close(self) -> None:
        await self._engines.close()

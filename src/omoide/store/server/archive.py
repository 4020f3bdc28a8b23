"""The server store's maintenance role: archive and restore episodes, page through a
character's episodes for decay, purge what was archived long enough, and keep new readings
with episodes read by older code (``memory.rereading``).

:class:`~omoide.store.server.store.ServerMemoryStore` builds on it (the role
``memory.decay.DecayMaintenance``), as the embedded store builds on
:class:`~omoide.store.sqlite.archive.ArchiveMaintenance`; every write is one PostgreSQL
transaction whose changed episodes are republished to Qdrant after the commit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.domain import Episode, Scope, check_identifier
from omoide.store.server import episodes, viewers
from omoide.store.server.codec import utc
from omoide.store.server.database import Connection
from omoide.store.server.engines import Changes, Engines
from omoide.store.sqlite.arguments import check_count, check_readings, check_reason, check_text

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from datetime import datetime


class ServerArchiveMaintenance:
    """Archiving, restoring and purging episodes over one server store's engines."""

    def __init__(self, engines: Engines) -> None:
        self._engines = engines

    async def archive_episodes(
        self, scope: Scope, episode_ids: Sequence[str], *, at: datetime
    ) -> int:
        ids = [check_text(value, name="episode id") for value in episode_ids]
        moment = utc(at, name="at")

        async def work(connection: Connection, scope_id: int, changes: Changes) -> int:
            archived = await episodes.archive_episodes(connection, scope_id, ids, moment)
            changes.episodes.extend(archived)
            return len(archived)

        return await self._engines.change_scope(scope, work, int)

    async def restore_episodes(self, scope: Scope, episode_ids: Sequence[str]) -> int:
        """Bring archived episodes back into retrieval; their points are republished."""
        ids = [check_text(value, name="episode id") for value in episode_ids]

        async def work(connection: Connection, scope_id: int, changes: Changes) -> int:
            restored = await episodes.restore_episodes(connection, scope_id, ids)
            changes.episodes.extend(restored)
            return len(restored)

        return await self._engines.change_scope(scope, work, int)

    async def replace_episode_readings(
        self, scope: Scope, readings: Mapping[str, tuple[str | None, str]]
    ) -> int:
        """Keep new readings with episodes of ``scope`` (id -> (the readings they were read
        with, the new ones)), each only while it still holds the old ones; how many were.
        Readings live in PostgreSQL only: nothing is republished."""
        checked = check_readings(readings)

        async def work(connection: Connection, scope_id: int, changes: Changes) -> int:
            return await episodes.replace_readings(connection, scope_id, checked)

        return await self._engines.change_scope(scope, work, int)

    async def list_episodes_for_decay(
        self, character_id: str, *, after_id: str | None, limit: int
    ) -> list[Episode]:
        """Unarchived episodes of every scope of one character, in id order, one page."""
        check_identifier(character_id, name="character_id")
        if after_id is not None:
            check_text(after_id, name="after_id")
        check_count(limit, name="limit")
        async with self._engines.database.transaction() as connection:
            return await viewers.list_episodes_for_decay(connection, character_id, after_id, limit)

    async def list_archived_episodes(
        self,
        character_id: str,
        *,
        archived_from: datetime | None,
        archived_before: datetime | None,
        after_id: str | None,
        limit: int,
    ) -> list[Episode]:
        """Archived episodes of one character in an archive-time window, in id order."""
        check_identifier(character_id, name="character_id")
        if after_id is not None:
            check_text(after_id, name="after_id")
        check_count(limit, name="limit")
        lowest = None if archived_from is None else utc(archived_from, name="archived_from")
        highest = None if archived_before is None else utc(archived_before, name="archived_before")
        async with self._engines.database.transaction() as connection:
            return await viewers.list_archived_episodes(
                connection,
                character_id,
                archived_from=lowest,
                archived_before=highest,
                after_id=after_id,
                limit=limit,
            )

    async def purge_archived(
        self, character_id: str, *, archived_before: datetime, reason: str, at: datetime
    ) -> int:
        """Destroy archived episodes, leaving tombstones; returns how many."""
        check_identifier(character_id, name="character_id")
        check_reason(reason)
        moment = utc(at, name="at")
        before = utc(archived_before, name="archived_before")

        async def work(connection: Connection, changes: Changes) -> int:
            purged = await viewers.purge_archived(
                connection, character_id, archived_before=before, reason=reason, at=moment
            )
            changes.episodes.extend(purged)
            return len(purged)

        return await self._engines.change(work)

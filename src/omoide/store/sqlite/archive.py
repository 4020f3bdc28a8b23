"""The embedded store's maintenance role: archive and restore episodes, page through a
character's episodes for decay, purge what was archived long enough, and keep new readings
with episodes read by older code (``memory.rereading``).

:class:`~omoide.store.sqlite.store.SqliteMemoryStore` builds on it (the role
``memory.decay.DecayMaintenance``); every write is one transaction over records, keyword
rows and vectors together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.domain import Episode, Scope, check_identifier
from omoide.store.sqlite import episodes, viewers
from omoide.store.sqlite.arguments import check_count, check_readings, check_reason, check_text
from omoide.store.sqlite.codec import to_micros
from omoide.store.sqlite.scoped import ScopedDatabase

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from datetime import datetime


class ArchiveMaintenance(ScopedDatabase):
    """Archiving, restoring and purging episodes of one store file."""

    async def archive_episodes(
        self, scope: Scope, episode_ids: Sequence[str], *, at: datetime
    ) -> int:
        ids = [check_text(value, name="episode id") for value in episode_ids]
        to_micros(at, name="at")
        return await self._write_scope(
            scope,
            lambda c, scope_id: episodes.archive_episodes(c, self._space, scope_id, ids, at),
            int,
        )

    async def restore_episodes(self, scope: Scope, episode_ids: Sequence[str]) -> int:
        """Bring archived episodes back into retrieval; returns how many were archived."""
        ids = [check_text(value, name="episode id") for value in episode_ids]
        return await self._write_scope(
            scope,
            lambda c, scope_id: episodes.restore_episodes(c, self._space, scope_id, ids),
            int,
        )

    async def replace_episode_readings(
        self, scope: Scope, readings: Mapping[str, tuple[str | None, str]]
    ) -> int:
        """Keep new readings with episodes of ``scope`` (id -> (the readings they were read
        with, the new ones)), each only while it still holds the old ones; how many were."""
        checked = check_readings(readings)
        return await self._write_scope(
            scope, lambda c, scope_id: episodes.replace_readings(c, scope_id, checked), int
        )

    async def list_episodes_for_decay(
        self, character_id: str, *, after_id: str | None, limit: int
    ) -> list[Episode]:
        """Unarchived episodes of every scope of one character, in id order, one page."""
        check_identifier(character_id, name="character_id")
        if after_id is not None:
            check_text(after_id, name="after_id")
        check_count(limit, name="limit")
        return await self._database.read(
            lambda c: viewers.list_episodes_for_decay(c, character_id, after_id, limit)
        )

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
        return await self._database.read(
            lambda c: viewers.list_archived_episodes(
                c,
                character_id,
                archived_from=archived_from,
                archived_before=archived_before,
                after_id=after_id,
                limit=limit,
            )
        )

    async def purge_archived(
        self, character_id: str, *, archived_before: datetime, reason: str, at: datetime
    ) -> int:
        """Destroy archived episodes, leaving tombstones; returns how many."""
        check_identifier(character_id, name="character_id")
        check_reason(reason)
        to_micros(at, name="at")
        return await self._database.write(
            lambda c: viewers.purge_archived(
                c,
                self._space,
                character_id,
                archived_before=archived_before,
                reason=reason,
                at=at,
            )
        )

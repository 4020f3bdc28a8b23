"""The decay run: archive memories whose retention fell below the threshold."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from omoide.domain import Episode, Scope, as_utc, check_identifier
from omoide.memory.forgetting import DecayPolicy, select_for_archive


class DecayMaintenance(Protocol):
    """What decay reads and changes (a memory store): every scope of one character."""

    async def list_episodes_for_decay(
        self, character_id: str, *, after_id: str | None, limit: int
    ) -> list[Episode]: ...

    async def archive_episodes(
        self, scope: Scope, episode_ids: Sequence[str], *, at: datetime
    ) -> int: ...

    async def purge_archived(
        self, character_id: str, *, archived_before: datetime, reason: str, at: datetime
    ) -> int: ...


@dataclass(frozen=True, slots=True)
class DecayReport:
    character_id: str
    scanned: int
    archived: int
    purged: int


async def run_decay(
    store: DecayMaintenance,
    character_id: str,
    *,
    policy: DecayPolicy,
    now: datetime,
    purge_archived_before: datetime | None = None,
    page_size: int = 1000,
) -> DecayReport:
    """Archive every episode of ``character_id`` below ``policy``'s retention threshold.

    Archived episodes leave retrieval but stay stored; only a purge (archived before
    ``purge_archived_before``) destroys them, leaving tombstones.
    """
    check_identifier(character_id, name="character_id")
    moment = as_utc(now, name="now")
    scanned = archived = 0
    after_id: str | None = None
    while True:
        page = await store.list_episodes_for_decay(character_id, after_id=after_id, limit=page_size)
        if not page:
            break
        scanned += len(page)
        after_id = page[-1].id
        chosen = set(select_for_archive(page, policy=policy, now=moment))
        by_scope: dict[Scope, list[str]] = defaultdict(list)
        for episode in page:
            if episode.id in chosen:
                by_scope[episode.scope].append(episode.id)
        for scope, ids in by_scope.items():
            archived += await store.archive_episodes(scope, ids, at=moment)
    purged = 0
    if purge_archived_before is not None:
        purged = await store.purge_archived(
            character_id,
            archived_before=as_utc(purge_archived_before, name="purge_archived_before"),
            reason="purged after decay",
            at=moment,
        )
    return DecayReport(character_id, scanned, archived, purged)

"""The decay run: archive memories whose retention fell below the threshold.

Three use cases over the store: :func:`run_decay` archives (and purges what was archived
long enough), :func:`preview_decay` answers what a run would do without changing anything,
and :func:`restore_archived` brings archived episodes back into retrieval.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from omoide.domain import Episode, Scope, as_utc, check_identifier
from omoide.errors import InvalidInput
from omoide.memory.forgetting import DecayPolicy, select_for_archive


class DecayReading(Protocol):
    """What a decay preview reads (a memory store): every scope of one character."""

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


class DecayMaintenance(DecayReading, Protocol):
    """What decay reads and changes (a memory store): archived episodes listed, purged and
    restored."""

    async def archive_episodes(
        self, scope: Scope, episode_ids: Sequence[str], *, at: datetime
    ) -> int: ...

    async def purge_archived(
        self, character_id: str, *, archived_before: datetime, reason: str, at: datetime
    ) -> int:
        """Destroy archived episodes, leaving tombstones; returns how many."""
        ...

    async def restore_episodes(self, scope: Scope, episode_ids: Sequence[str]) -> int:
        """Bring archived episodes back into retrieval (their archive time cleared, their
        vectors and keywords searchable again); returns how many were archived."""
        ...


SAMPLE = 20
"""How many episode ids a preview or a restore report lists (the counts are whole)."""
MAX_RESTORE_IDS = 10_000


@dataclass(frozen=True, slots=True)
class DecayReport:
    character_id: str
    scanned: int
    archived: int
    purged: int
    now: datetime | None = None
    """The moment the run archived at: restoring ``archived_since`` it undoes the run."""


@dataclass(frozen=True, slots=True)
class DecayPreview:
    """What a decay run at ``now`` would do; nothing was changed to learn it.

    ``archive_ids`` and ``purge_ids`` are the first ``SAMPLE`` ids, in id order."""

    character_id: str
    now: datetime
    scanned: int
    would_archive: int
    would_purge: int
    archive_ids: tuple[str, ...]
    purge_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """Archived episodes brought back into retrieval; ``episode_ids`` the first ``SAMPLE``."""

    character_id: str
    restored: int
    episode_ids: tuple[str, ...]


async def _unarchived_pages(
    store: DecayReading, character_id: str, page_size: int
) -> AsyncIterator[list[Episode]]:
    after_id: str | None = None
    while page := await store.list_episodes_for_decay(
        character_id, after_id=after_id, limit=page_size
    ):
        yield page
        after_id = page[-1].id


async def _archived_pages(
    store: DecayReading,
    character_id: str,
    *,
    archived_from: datetime | None,
    archived_before: datetime | None,
    page_size: int,
) -> AsyncIterator[list[Episode]]:
    after_id: str | None = None
    while page := await store.list_archived_episodes(
        character_id,
        archived_from=archived_from,
        archived_before=archived_before,
        after_id=after_id,
        limit=page_size,
    ):
        yield page
        after_id = page[-1].id


def _by_scope(episodes: Iterable[Episode], chosen: set[str]) -> dict[Scope, list[str]]:
    by_scope: dict[Scope, list[str]] = defaultdict(list)
    for episode in episodes:
        if episode.id in chosen:
            by_scope[episode.scope].append(episode.id)
    return by_scope


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

    Archived episodes leave retrieval but stay stored (:func:`restore_archived` brings them
    back); only a purge (archived before ``purge_archived_before``) destroys them, leaving
    tombstones.
    """
    check_identifier(character_id, name="character_id")
    moment = as_utc(now, name="now")
    scanned = archived = 0
    async for page in _unarchived_pages(store, character_id, page_size):
        scanned += len(page)
        chosen = set(select_for_archive(page, policy=policy, now=moment))
        for scope, ids in _by_scope(page, chosen).items():
            archived += await store.archive_episodes(scope, ids, at=moment)
    purged = 0
    if purge_archived_before is not None:
        purged = await store.purge_archived(
            character_id,
            archived_before=as_utc(purge_archived_before, name="purge_archived_before"),
            reason="purged after decay",
            at=moment,
        )
    return DecayReport(character_id, scanned, archived, purged, moment)


async def preview_decay(
    store: DecayReading,
    character_id: str,
    *,
    policy: DecayPolicy,
    now: datetime,
    purge_archived_before: datetime | None = None,
    page_size: int = 1000,
) -> DecayPreview:
    """What :func:`run_decay` with the same arguments would archive and purge; reads only.

    A run purges what it has just archived too when ``now`` is before
    ``purge_archived_before``; the preview counts those as well.
    """
    check_identifier(character_id, name="character_id")
    moment = as_utc(now, name="now")
    scanned = 0
    to_archive: list[str] = []
    async for page in _unarchived_pages(store, character_id, page_size):
        scanned += len(page)
        to_archive += select_for_archive(page, policy=policy, now=moment)
    to_purge: list[str] = []
    if purge_archived_before is not None:
        before = as_utc(purge_archived_before, name="purge_archived_before")
        async for page in _archived_pages(
            store, character_id, archived_from=None, archived_before=before, page_size=page_size
        ):
            to_purge += [episode.id for episode in page]
        if moment < before:
            to_purge = sorted([*to_purge, *to_archive])
    return DecayPreview(
        character_id,
        moment,
        scanned,
        len(to_archive),
        len(to_purge),
        tuple(to_archive[:SAMPLE]),
        tuple(to_purge[:SAMPLE]),
    )


async def restore_archived(
    store: DecayMaintenance,
    character_id: str,
    *,
    episode_ids: Sequence[str] | None = None,
    archived_since: datetime | None = None,
    page_size: int = 1000,
) -> RestoreReport:
    """Bring archived episodes of ``character_id`` back into retrieval.

    Which: those of ``episode_ids``, or every one archived at or after ``archived_since``
    (a decay run's ``now`` undoes that run), or those of the ids archived since then when
    both are given. Ids that are not archived are left as they are.
    """
    check_identifier(character_id, name="character_id")
    wanted = _wanted_ids(episode_ids, archived_since)
    since = None if archived_since is None else as_utc(archived_since, name="archived_since")
    restored: list[str] = []
    count = 0
    async for page in _archived_pages(
        store, character_id, archived_from=since, archived_before=None, page_size=page_size
    ):
        chosen = {episode.id for episode in page if wanted is None or episode.id in wanted}
        for scope, ids in _by_scope(page, chosen).items():
            count += await store.restore_episodes(scope, ids)
            restored += ids
    return RestoreReport(character_id, count, tuple(sorted(restored)[:SAMPLE]))


def _wanted_ids(
    episode_ids: Sequence[str] | None, archived_since: datetime | None
) -> set[str] | None:
    if episode_ids is None:
        if archived_since is None:
            raise InvalidInput("name the episodes to restore (episode_ids) or archived_since")
        return None
    if isinstance(episode_ids, str):
        raise InvalidInput("episode_ids must be a list of ids, not one string")
    if not episode_ids or len(episode_ids) > MAX_RESTORE_IDS:
        raise InvalidInput(f"episode_ids must hold 1 to {MAX_RESTORE_IDS} ids")
    return set(episode_ids)

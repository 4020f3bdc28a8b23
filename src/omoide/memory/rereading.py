"""Bringing stored episodes' readings up to this code's format (``omoide reread``).

The reply path reads four things from a candidate exchange's words; the write path reads
them once and the store keeps them (:mod:`.episode_readings`). An exchange kept by code
whose readings differ (another :data:`~.episode_readings.READINGS_FORMAT`), or before
readings were kept, is read from its words on every reply: correct, but the reply spends
the reading each time. After an upgrade that changed the readings, this use case reads
every such exchange of a character once and keeps the new readings.

It pages through the character's episodes in id order and replaces, scope by scope, only
the readings that are stale; the store replaces one only while it still holds the stale
text it was read with, so an exchange rewritten meanwhile (a redaction writes fresh
readings) is left as it is. Running it twice changes nothing the second time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from omoide.domain import Episode, Scope, check_identifier
from omoide.errors import InvalidInput
from omoide.memory.episode_readings import kept_readings, with_readings

PAGE = 500
"""Episodes read per page."""


class ReadingsStore(Protocol):
    """What rereading reads and replaces (a memory store): every scope of one character."""

    async def list_episodes_for_decay(
        self, character_id: str, *, after_id: str | None, limit: int
    ) -> list[Episode]: ...

    async def replace_episode_readings(
        self, scope: Scope, readings: Mapping[str, tuple[str | None, str]]
    ) -> int: ...


@dataclass(frozen=True, slots=True)
class RereadReport:
    """How many episodes were looked at, and how many got this code's readings."""

    character_id: str
    scanned: int
    reread: int


Progress = Callable[[int, int], None]
"""Told (episodes scanned, episodes reread) after each page."""


async def reread_episodes(
    store: ReadingsStore,
    character_id: str,
    *,
    page: int = PAGE,
    progress: Progress | None = None,
) -> RereadReport:
    """Keep this code's readings with every episode of ``character_id`` in retrieval whose
    kept readings are missing or of another format."""
    check_identifier(character_id, name="character_id")
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise InvalidInput(f"page must be a positive integer (got {page!r})")
    scanned = reread = 0
    after: str | None = None
    while True:
        episodes = await store.list_episodes_for_decay(character_id, after_id=after, limit=page)
        if not episodes:
            break
        scanned += len(episodes)
        reread += await _reread_page(store, episodes)
        after = episodes[-1].id
        if progress is not None:
            progress(scanned, reread)
    return RereadReport(character_id, scanned, reread)


async def _reread_page(store: ReadingsStore, episodes: Sequence[Episode]) -> int:
    """The stale readings of one page replaced, scope by scope; how many were."""
    stale: dict[Scope, dict[str, tuple[str | None, str]]] = defaultdict(dict)
    for episode in episodes:
        if kept_readings(episode) is None:
            fresh = with_readings(episode).readings
            if fresh is not None:
                stale[episode.scope][episode.id] = (episode.readings, fresh)
    replaced = 0
    for scope, readings in stale.items():
        replaced += await store.replace_episode_readings(scope, readings)
    return replaced

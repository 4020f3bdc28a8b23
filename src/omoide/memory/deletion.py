"""Deleting on request: a fact for good, or an exchange with the facts learned from it alone.

Two use cases over the store's deletion role (:class:`MemoryDeletion`), which
:class:`~omoide.memory.manager.MemoryManager` offers as ``delete_fact`` and
``delete_episode``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from omoide.domain import Episode, Fact, Scope, Tombstone
from omoide.memory.facts.digests import fact_digests
from omoide.store.base import FactFilter

SOURCE_DELETED = "the exchange it was learned from was deleted"


class MemoryDeletion(Protocol):
    """What deleting on request reads and deletes (a memory store)."""

    async def get_fact(self, scope: Scope, fact_id: str) -> Fact: ...

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...

    async def delete_fact(
        self, scope: Scope, fact_id: str, *, reason: str, at: datetime, digests: Sequence[str] = ()
    ) -> Tombstone:
        """Delete the fact and leave a tombstone. ``digests`` (lowercase hex, 32 to 128
        characters: keyed digests of what the fact said, never its text) stay with the
        tombstone until the scope is forgotten."""
        ...

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode: ...

    async def delete_episode(
        self, scope: Scope, episode_id: str, *, reason: str, at: datetime
    ) -> Tombstone: ...


async def delete_fact_for_good(
    store: MemoryDeletion, scope: Scope, fact_id: str, *, reason: str, at: datetime
) -> Tombstone:
    """Delete a fact for good: a viewer repeating it does not bring it back (its
    tombstone keeps keyed digests of what it said, never the words)."""
    fact = await store.get_fact(scope, fact_id)
    digests = fact_digests(scope, fact.text, fact.slot, fact.terms)
    return await store.delete_fact(scope, fact_id, reason=reason, at=at, digests=digests)


async def delete_episode_and_facts(
    store: MemoryDeletion, scope: Scope, episode_id: str, *, reason: str, at: datetime
) -> Tombstone:
    """Delete an exchange and the facts learned from it alone (a fact told in passing
    keeps the viewer's sentence: it would keep what was deleted); a fact another
    exchange also said stays, without the link."""
    await store.get_episode(scope, episode_id)  # NotFound before anything goes
    every = await store.list_facts(scope, where=FactFilter(include_inactive=True))
    for fact in every:
        if fact.source_episode_ids == (episode_id,):
            await store.delete_fact(scope, fact.id, reason=SOURCE_DELETED, at=at)
    return await store.delete_episode(scope, episode_id, reason=reason, at=at)

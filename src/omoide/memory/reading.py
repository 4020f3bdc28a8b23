"""Reading what is remembered without the machinery that remembers: no embedder, no model.

:class:`MemoryReader` answers what :class:`~omoide.memory.manager.MemoryManager` answers
for the reads that need no message embedded (a viewer's facts, their profile chosen by
weight alone, everything kept about them, a decay preview), over nothing but the store.
The CLI's read commands use it through ``omoide.wiring.open_reader``, so they start
without loading a model.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from omoide.clock import Clock, moment_of
from omoide.domain import Fact, Scope, ScopeExport
from omoide.memory.decay import DecayPreview, DecayReading, preview_decay
from omoide.memory.forgetting import DecayPolicy
from omoide.memory.viewer_profile import ProfileConfig, ViewerProfile, build_profile
from omoide.store.base import FactFilter


class FactSource(Protocol):
    """Where the facts are kept (a memory store)."""

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...


class StoredMemories(FactSource, DecayReading, Protocol):
    """What the reads read (a memory store)."""

    async def export_scope(self, scope: Scope) -> ScopeExport: ...


class MemoryReader:
    """The read use cases of the memory, over the store alone."""

    def __init__(
        self,
        *,
        store: StoredMemories,
        profile: ProfileConfig,
        decay: DecayPolicy,
        clock: Clock,
    ) -> None:
        self._store = store
        self._profile = profile
        self._decay = decay
        self._clock = clock

    async def list_facts(self, scope: Scope, *, include_inactive: bool = False) -> list[Fact]:
        """What the character believes about the viewer (with ``include_inactive``, also
        what it no longer does), as :meth:`MemoryManager.list_facts` lists it."""
        return await self._store.list_facts(
            scope, where=FactFilter(include_inactive=include_inactive)
        )

    async def profile(self, scope: Scope, *, now: datetime | None = None) -> ViewerProfile:
        """The viewer profile with no message to steer it: facts chosen by their weight
        alone, as :meth:`MemoryManager.profile` chooses them without a message."""
        moment = moment_of(now, self._clock)
        facts = await self._store.list_facts(scope, where=FactFilter())
        known = [fact for fact in facts if fact.recorded_at <= moment]
        return build_profile(scope, known, relevance={}, config=self._profile)

    async def export_viewer(self, scope: Scope) -> ScopeExport:
        """Every memory of ``scope``, as :meth:`MemoryManager.export_viewer` exports it."""
        return await self._store.export_scope(scope)

    async def preview_decay(
        self,
        character_id: str,
        *,
        now: datetime | None = None,
        purge_archived_before: datetime | None = None,
    ) -> DecayPreview:
        """What a decay run would archive and purge, as :meth:`MemoryManager.preview_decay`
        answers it; changes nothing."""
        return await preview_decay(
            self._store,
            character_id,
            policy=self._decay,
            now=moment_of(now, self._clock),
            purge_archived_before=purge_archived_before,
        )

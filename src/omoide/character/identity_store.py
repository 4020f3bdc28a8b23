"""The seams :class:`~omoide.character.identity.IdentityService` keeps a character's
identity history behind: its versions, and the changes proposed to it (their values:
:mod:`omoide.store.records.identity`).

Implementations (one object is both, since a decided change is saved with the version it
made): :class:`~omoide.store.sqlite.identity.IdentityTables` (the growth file) and
:class:`~omoide.store.server.growth_identity.PostgresIdentityTables`.
"""

from __future__ import annotations

from typing import Protocol

from omoide.store.records.identity import ChangeStatus, IdentityVersion, PendingChange


class IdentityVersionStore(Protocol):
    async def list_versions(self, character_id: str) -> list[IdentityVersion]:
        """Oldest first."""
        ...

    async def latest_version(self, character_id: str) -> IdentityVersion | None: ...

    async def add_version(
        self, version: IdentityVersion, *, decided: PendingChange | None = None
    ) -> None:
        """Conflict if the number is taken; ``decided`` is saved in the same transaction."""
        ...


class ChangeStore(Protocol):
    async def add_change(self, change: PendingChange) -> None: ...

    async def get_change(self, character_id: str, change_id: str) -> PendingChange:
        """NotFound when the character has no such change."""
        ...

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]:
        """Oldest first; ``status=None`` lists every change."""
        ...

    async def save_decision(self, change: PendingChange) -> None:
        """Store a change's status, decision time and resulting version."""
        ...

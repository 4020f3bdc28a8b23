"""The seams a character's identity history is kept behind (its values:
:mod:`omoide.store.records.identity`).

Implementations: :class:`~omoide.store.sqlite.identity.IdentityTables` (the growth file)
and :class:`~omoide.store.server.growth_identity.PostgresIdentityTables`.
"""

from __future__ import annotations

from collections.abc import Sequence
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


class IdentityRewriter(Protocol):
    async def rewrite_identity(
        self, versions: Sequence[IdentityVersion], changes: Sequence[PendingChange]
    ) -> None:
        """Overwrite the texts (profile, diff, reason; diff, refusals) of stored versions and
        changes, matched by character and number or id, in one transaction (forgetting a
        viewer takes their words out of them; nothing else is ever rewritten)."""
        ...


class IdentityStore(IdentityVersionStore, ChangeStore, IdentityRewriter, Protocol):
    """All three, as one backend provides them."""

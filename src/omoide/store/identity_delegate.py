"""The identity half of a growth store, handed to the identity tables the store holds.

Both growth stores (SQLite and PostgreSQL) keep identity versions and pending changes in
a separate object that satisfies :class:`~omoide.character.identity_store.IdentityStore`;
this base class forwards the protocol's methods to it, so each store states only how it
builds that object.
"""

from __future__ import annotations

from collections.abc import Sequence

from omoide.character.identity_store import (
    ChangeStatus,
    IdentityStore,
    IdentityVersion,
    PendingChange,
)


class DelegatesIdentity:
    """Forwards :class:`IdentityStore` to ``self._identity`` (set by the subclass)."""

    _identity: IdentityStore

    async def list_versions(self, character_id: str) -> list[IdentityVersion]:
        return await self._identity.list_versions(character_id)

    async def latest_version(self, character_id: str) -> IdentityVersion | None:
        return await self._identity.latest_version(character_id)

    async def add_version(
        self, version: IdentityVersion, *, decided: PendingChange | None = None
    ) -> None:
        await self._identity.add_version(version, decided=decided)

    async def add_change(self, change: PendingChange) -> None:
        await self._identity.add_change(change)

    async def get_change(self, character_id: str, change_id: str) -> PendingChange:
        return await self._identity.get_change(character_id, change_id)

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]:
        return await self._identity.list_changes(character_id, status=status)

    async def save_decision(self, change: PendingChange) -> None:
        await self._identity.save_decision(change)

    async def rewrite_identity(
        self, versions: Sequence[IdentityVersion], changes: Sequence[PendingChange]
    ) -> None:
        await self._identity.rewrite_identity(versions, changes)

"""Identity evolution: a character rewrites parts of its own profile, within bounds, on record.

A model proposes only the fields that should change; what may change, and by how much, is
checked by :func:`~omoide.character.identity_policy.check_diff` under an
:class:`~omoide.character.identity_policy.IdentityPolicy`. The fields that pass are
accepted and the others are reported with their reason. With ``auto_apply`` the accepted
change becomes a new version at once; by default (safer) it waits as a
:class:`~omoide.store.records.identity.PendingChange` for a person to approve or reject.
Every version keeps its field-by-field diff, the diary entry that caused it and its time;
version 0 is the profile file as it was when the first change was applied, and a rollback
to any version is itself a new version holding that version's exact profile.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from omoide.character.identity_policy import (
    IdentityPolicy,
    apply_changes,
    check_diff,
    profile_diff,
)
from omoide.character.identity_store import ChangeStore, IdentityVersionStore
from omoide.character.library import CharacterLibrary
from omoide.clock import Clock, moment_of
from omoide.domain import new_id
from omoide.errors import Conflict, NotFound
from omoide.metrics import Metrics
from omoide.store.records.identity import (
    ChangeStatus,
    FieldChange,
    IdentityVersion,
    PendingChange,
    RefusedField,
)
from omoide.store.records.profile import (
    CharacterProfile,
    check_character_id,
)


class OutcomeStatus(enum.StrEnum):
    APPLIED = "applied"
    PENDING = "pending"
    NO_CHANGE = "no_change"
    REFUSED = "refused"
    FAILED = "failed"
    """The model gave no usable answer; nothing changed."""


@dataclass(frozen=True, slots=True)
class IdentityOutcome:
    """What became of one proposed diff."""

    character_id: str
    status: OutcomeStatus
    accepted: tuple[FieldChange, ...] = ()
    refused: tuple[RefusedField, ...] = ()
    change_id: str | None = None
    version: int | None = None
    diary_entry_id: str | None = None
    message: str = ""


class ProfileSource(Protocol):
    """Where the chat path gets the profile a character speaks with."""

    async def current_profile(self, character_id: str) -> CharacterProfile: ...


class IdentityService:
    """Versions, proposals, approvals and rollbacks of characters' profiles."""

    def __init__(
        self,
        *,
        versions: IdentityVersionStore,
        changes: ChangeStore,
        characters: CharacterLibrary,
        policy: IdentityPolicy,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._versions = versions
        self._changes = changes
        self._characters = characters
        self._policy = policy
        self._clock = clock
        self._metrics = metrics

    @property
    def policy(self) -> IdentityPolicy:
        return self._policy

    def _at(self, at: datetime | None) -> datetime:
        return moment_of(at, self._clock, name="at")

    async def current_profile(self, character_id: str) -> CharacterProfile:
        """The evolved profile when there are versions, else the profile file's."""
        check_character_id(character_id)
        latest = await self._versions.latest_version(character_id)
        if latest is not None:
            return latest.profile
        return (await self._characters.load(character_id)).profile

    async def versions(self, character_id: str) -> list[IdentityVersion]:
        """Oldest first; empty until the first change is applied."""
        check_character_id(character_id)
        return await self._versions.list_versions(character_id)

    async def version(self, character_id: str, number: int) -> IdentityVersion:
        for version in await self.versions(character_id):
            if version.number == number:
                return version
        raise NotFound(f"character {character_id!r} has no identity version {number}")

    async def changes(
        self, character_id: str, *, status: ChangeStatus | None = ChangeStatus.PENDING
    ) -> list[PendingChange]:
        check_character_id(character_id)
        return await self._changes.list_changes(character_id, status=status)

    async def propose(
        self,
        character_id: str,
        proposed: Mapping[str, object],
        *,
        diary_entry_id: str | None = None,
        at: datetime | None = None,
    ) -> IdentityOutcome:
        """Check a diff; keep it pending, or apply it with ``auto_apply``."""
        check_character_id(character_id)
        moment = self._at(at)
        latest = await self._versions.latest_version(character_id)
        profile = latest.profile if latest else await self.current_profile(character_id)
        accepted, refused = check_diff(profile, proposed, self._policy)
        self._metrics.increment("identity.refused_fields", len(refused))
        if not accepted:
            status = OutcomeStatus.REFUSED if refused else OutcomeStatus.NO_CHANGE
            self._metrics.increment(f"identity.{status.value}")
            return IdentityOutcome(
                character_id, status, refused=refused, diary_entry_id=diary_entry_id
            )
        change = PendingChange(
            id=new_id(),
            character_id=character_id,
            base_version=latest.number if latest else None,
            changes=accepted,
            refused=refused,
            created_at=moment,
            diary_entry_id=diary_entry_id,
        )
        if self._policy.auto_apply:
            version = await self._apply(change, ChangeStatus.APPLIED, moment, record=True)
            status, number = OutcomeStatus.APPLIED, version.number
        else:
            await self._changes.add_change(change)
            status, number = OutcomeStatus.PENDING, None
        self._metrics.increment(f"identity.{status.value}")
        return IdentityOutcome(
            character_id, status, accepted, refused, change.id, number, diary_entry_id
        )

    async def approve(
        self, character_id: str, change_id: str, *, at: datetime | None = None
    ) -> IdentityVersion:
        """Apply a pending change: Conflict if it was decided or its fields moved on."""
        change = await self._pending(character_id, change_id)
        current = await self.current_profile(character_id)
        for field_change in change.changes:
            if getattr(current, field_change.field) != field_change.before:
                raise Conflict(
                    f"field {field_change.field!r} changed since change {change_id} was "
                    "proposed; reject it and let a new diary entry propose again"
                )
        return await self._apply(change, ChangeStatus.APPROVED, self._at(at), record=False)

    async def reject(
        self, character_id: str, change_id: str, *, at: datetime | None = None
    ) -> PendingChange:
        change = await self._pending(character_id, change_id)
        rejected = replace(change, status=ChangeStatus.REJECTED, decided_at=self._at(at))
        await self._changes.save_decision(rejected)
        return rejected

    async def rollback(
        self, character_id: str, number: int, *, at: datetime | None = None
    ) -> IdentityVersion:
        """A new version holding exactly the profile of version ``number``."""
        target = await self.version(character_id, number)
        latest = (await self.versions(character_id))[-1]
        if target.profile == latest.profile:
            raise Conflict(f"version {number} of {character_id!r} is the current profile")
        version = IdentityVersion(
            character_id=character_id,
            number=latest.number + 1,
            profile=target.profile,
            changes=profile_diff(latest.profile, target.profile),
            reason=f"rollback to version {number}",
            created_at=self._at(at),
        )
        await self._versions.add_version(version)
        return version

    async def _pending(self, character_id: str, change_id: str) -> PendingChange:
        check_character_id(character_id)
        change = await self._changes.get_change(character_id, change_id)
        if change.status is not ChangeStatus.PENDING:
            raise Conflict(f"change {change_id} was already {change.status.value}")
        return change

    async def _apply(
        self, change: PendingChange, status: ChangeStatus, at: datetime, *, record: bool
    ) -> IdentityVersion:
        """Make ``change`` the next version (creating version 0 from the file first)."""
        character_id = change.character_id
        latest = await self._versions.latest_version(character_id)
        if latest is None:
            base = (await self._characters.load(character_id)).profile
            latest = IdentityVersion(character_id, 0, base, (), "the profile file", at)
            await self._versions.add_version(latest)
        reason = "applied automatically" if status is ChangeStatus.APPLIED else "approved"
        version = IdentityVersion(
            character_id=character_id,
            number=latest.number + 1,
            profile=apply_changes(latest.profile, change.changes),
            changes=change.changes,
            reason=f"{reason} change {change.id}",
            created_at=at,
            diary_entry_id=change.diary_entry_id,
            change_id=change.id,
        )
        decided = replace(change, status=status, decided_at=at, version=version.number)
        if record:
            await self._versions.add_version(version)
            await self._changes.add_change(decided)
        else:
            await self._versions.add_version(version, decided=decided)
        return version

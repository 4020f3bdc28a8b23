"""Identity evolution: a character rewrites parts of its own profile, within bounds, on record.

A model proposes only the fields that should change (``{"personality": [...]}``); omoide
merges them into the current profile, because a model asked to rewrite the whole profile
drops what it forgets to repeat. Before anything is merged, :func:`check_diff`:

* refuses unknown fields, ``id`` and the protected core (``IdentityPolicy.protected_fields``,
  by default :data:`~omoide.store.records.profile.PROTECTED_FIELDS`: name, core values, safety
  rules);
* validates the merged profile against the schema (``CharacterProfile.model_validate``), so
  a wrong type, an over-long entry or an inconsistent emotion set is refused with the
  schema's own message, per field;
* bounds the size of each change, so the character grows instead of being replaced:

  - a text field may change by at most ``max(min_text_change_chars,
    max_text_change_ratio x its current length)`` characters, counted as characters
    deleted plus characters inserted (from :class:`difflib.SequenceMatcher`'s matching
    blocks); defaults 200 characters or 50 %;
  - a list field may change by at most ``max_list_changes`` items (default 3): an item
    added, an item removed, or an item edited (an added item at least
    ``edited_item_similarity`` similar to a removed one; an edit must itself stay within
    the text bound). Reordering is free.

Fields that pass are accepted and the others are reported with their reason. With
``auto_apply`` the accepted change becomes a new version at once; by default (safer) it
waits as a :class:`~omoide.store.records.identity.PendingChange` for a person to approve
or reject. Every version keeps its field-by-field diff, the diary entry that caused it and
its time; version 0 is the profile file as it was when the first change was applied, and a
rollback to any version is itself a new version holding that version's exact profile.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from difflib import SequenceMatcher
from typing import Protocol

from pydantic import ValidationError

from omoide.character.identity_store import ChangeStore, IdentityVersionStore
from omoide.character.library import CharacterLibrary
from omoide.clock import Clock
from omoide.domain import as_utc, check_unit_interval, new_id
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.metrics import Metrics
from omoide.store.records.identity import (
    ChangeStatus,
    FieldChange,
    IdentityVersion,
    PendingChange,
    ProfileValue,
    RefusedField,
)
from omoide.store.records.profile import (
    IDENTITY_FIELD,
    PROTECTED_FIELDS,
    CharacterProfile,
    check_character_id,
    describe_validation_error,
)


@dataclass(frozen=True, slots=True)
class IdentityPolicy:
    """What an evolution may change, how much at once, and whether a person reviews it."""

    protected_fields: frozenset[str] = PROTECTED_FIELDS
    auto_apply: bool = False
    max_text_change_ratio: float = 0.5
    min_text_change_chars: int = 200
    max_list_changes: int = 3
    edited_item_similarity: float = 0.5

    def __post_init__(self) -> None:
        unknown = set(self.protected_fields) - set(CharacterProfile.model_fields)
        if unknown:
            raise InvalidInput(f"protected_fields names unknown fields: {sorted(unknown)}")
        check_unit_interval(self.max_text_change_ratio, name="max_text_change_ratio")
        check_unit_interval(self.edited_item_similarity, name="edited_item_similarity")
        for name in ("min_text_change_chars", "max_list_changes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInput(f"{name} must be a non-negative integer (got {value!r})")

    def text_allowance(self, before: str) -> int:
        return max(self.min_text_change_chars, math.ceil(self.max_text_change_ratio * len(before)))


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


def changed_characters(before: str, after: str) -> int:
    """Characters deleted plus characters inserted to turn ``before`` into ``after``."""
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    return len(before) + len(after) - 2 * kept


def _similarity(first: str, second: str) -> float:
    return SequenceMatcher(None, first, second, autojunk=False).ratio()


def list_edits(
    before: Sequence[str], after: Sequence[str], *, similarity: float
) -> tuple[int, list[tuple[str, str]]]:
    """How many items changed (added, removed or edited) and the edited (old, new) pairs."""
    removed = list((Counter(before) - Counter(after)).elements())
    added = list((Counter(after) - Counter(before)).elements())
    edits: list[tuple[str, str]] = []
    for item in added:
        best = max(removed, key=lambda old: _similarity(old, item), default=None)
        if best is not None and _similarity(best, item) >= similarity:
            edits.append((best, item))
            removed.remove(best)
    return len(added) + len(removed), edits


def _as_text(value: ProfileValue) -> str:
    return value if isinstance(value, str) else ""


def _as_items(value: ProfileValue) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else ()


def bound_problem(before: ProfileValue, after: ProfileValue, policy: IdentityPolicy) -> str | None:
    """Why changing ``before`` into ``after`` is too big a step, or ``None``."""
    if isinstance(before, tuple) or isinstance(after, tuple):
        count, edits = list_edits(
            _as_items(before), _as_items(after), similarity=policy.edited_item_similarity
        )
        if count > policy.max_list_changes:
            limit = policy.max_list_changes
            return f"changes {count} items; at most {limit} may change at once"
        for old, new in edits:
            changed, allowed = changed_characters(old, new), policy.text_allowance(old)
            if changed > allowed:
                return f"item {old[:40]!r} changes by {changed} characters (at most {allowed})"
        return None
    old, new = _as_text(before), _as_text(after)
    changed, allowed = changed_characters(old, new), policy.text_allowance(old)
    if changed > allowed:
        return f"changes {changed} characters; at most {allowed} may change at once"
    return None


def _merged(profile: CharacterProfile, values: Mapping[str, object]) -> CharacterProfile:
    return CharacterProfile.model_validate({**profile.model_dump(), **values})


def _schema_checked(
    profile: CharacterProfile, candidates: Mapping[str, object]
) -> tuple[dict[str, ProfileValue], list[RefusedField]]:
    """Normalised values of the candidates the schema accepts, and the refused ones."""
    try:
        merged = _merged(profile, candidates)
        return {name: getattr(merged, name) for name in candidates}, []
    except ValidationError:
        pass
    kept: dict[str, object] = {}
    refused = []
    for name, value in candidates.items():
        try:
            _merged(profile, {name: value})
            kept[name] = value
        except ValidationError as exc:
            refused.append(RefusedField(name, describe_validation_error(exc)))
    try:
        merged = _merged(profile, kept)
    except ValidationError as exc:
        problem = f"not valid together with the other changes: {describe_validation_error(exc)}"
        return {}, [*refused, *(RefusedField(name, problem) for name in kept)]
    return {name: getattr(merged, name) for name in kept}, refused


def check_diff(
    profile: CharacterProfile, proposed: Mapping[str, object], policy: IdentityPolicy
) -> tuple[tuple[FieldChange, ...], tuple[RefusedField, ...]]:
    """Split a proposed diff into accepted field changes and refused fields (see module)."""
    refused: list[RefusedField] = []
    candidates: dict[str, object] = {}
    for name, value in proposed.items():
        if not isinstance(name, str) or name not in CharacterProfile.model_fields:
            refused.append(RefusedField(str(name), "not a field of the character profile"))
        elif name == IDENTITY_FIELD or name in policy.protected_fields:
            refused.append(RefusedField(name, "protected: evolution may not change it"))
        else:
            candidates[name] = value
    values, invalid = _schema_checked(profile, candidates)
    refused += invalid
    accepted: dict[str, FieldChange] = {}
    for name, after in values.items():
        before = getattr(profile, name)
        if after == before:
            continue
        problem = bound_problem(before, after, policy)
        if problem is not None:
            refused.append(RefusedField(name, f"too large a change: {problem}"))
        else:
            accepted[name] = FieldChange(name, before, after)
    try:
        _merged(profile, {name: change.after for name, change in accepted.items()})
    except ValidationError as exc:
        problem = f"not valid without the refused changes: {describe_validation_error(exc)}"
        return (), (*refused, *(RefusedField(name, problem) for name in accepted))
    return tuple(accepted.values()), tuple(refused)


def profile_diff(before: CharacterProfile, after: CharacterProfile) -> tuple[FieldChange, ...]:
    """Every field whose value differs, in declaration order."""
    return tuple(
        FieldChange(name, getattr(before, name), getattr(after, name))
        for name in CharacterProfile.model_fields
        if getattr(before, name) != getattr(after, name)
    )


def apply_changes(profile: CharacterProfile, changes: Sequence[FieldChange]) -> CharacterProfile:
    try:
        return _merged(profile, {change.field: change.after for change in changes})
    except ValidationError as exc:
        raise InvalidInput(f"the change is not valid: {describe_validation_error(exc)}") from exc


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
        return as_utc(at, name="at") if at is not None else self._clock.now()

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

"""The values of identity evolution and their JSON form (the seams they are kept behind:
:mod:`omoide.character.identity_store`).

A character's identity history is a list of :class:`IdentityVersion` (version 0 is the
profile file as it was when the first change was applied; every later version records
the field-by-field changes that made it) and a list of :class:`PendingChange` (diffs a
model proposed, waiting for a person, or already decided). The embedded implementation is
:class:`omoide.store.sqlite.identity.IdentityTables`.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from omoide.store.records.profile import CharacterProfile

ProfileValue = str | tuple[str, ...] | None
"""Every profile field is a string, a tuple of strings or ``None``."""


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One field's value before and after a change."""

    field: str
    before: ProfileValue
    after: ProfileValue


@dataclass(frozen=True, slots=True)
class RefusedField:
    """A field a proposed diff wanted to change, and why it may not."""

    field: str
    reason: str


class ChangeStatus(enum.StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    APPLIED = "applied"
    """Applied without review (``auto_apply``)."""


@dataclass(frozen=True, slots=True)
class PendingChange:
    """A validated diff proposed for a character's profile, and what became of it.

    ``base_version`` is the version it was computed against (``None``: the profile file).
    """

    id: str
    character_id: str
    base_version: int | None
    changes: tuple[FieldChange, ...]
    refused: tuple[RefusedField, ...]
    created_at: datetime
    status: ChangeStatus = ChangeStatus.PENDING
    diary_entry_id: str | None = None
    decided_at: datetime | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class IdentityVersion:
    """One profile of a character, with the changes that made it from the one before."""

    character_id: str
    number: int
    profile: CharacterProfile
    changes: tuple[FieldChange, ...]
    reason: str
    created_at: datetime
    diary_entry_id: str | None = None
    change_id: str | None = None


def value_to_json(value: ProfileValue) -> str | list[str] | None:
    return list(value) if isinstance(value, tuple) else value


def value_from_json(value: object) -> ProfileValue:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise ValueError(f"a profile value must be a string, a list of strings or null: {value!r}")


def changes_to_json(changes: Sequence[FieldChange]) -> str:
    rows = [
        {"field": c.field, "before": value_to_json(c.before), "after": value_to_json(c.after)}
        for c in changes
    ]
    return json.dumps(rows, ensure_ascii=False)


def changes_from_json(text: str) -> tuple[FieldChange, ...]:
    rows = json.loads(text)
    return tuple(
        FieldChange(
            str(row["field"]), value_from_json(row["before"]), value_from_json(row["after"])
        )
        for row in rows
    )


def refused_to_json(refused: Sequence[RefusedField]) -> str:
    return json.dumps([{"field": r.field, "reason": r.reason} for r in refused], ensure_ascii=False)


def refused_from_json(text: str) -> tuple[RefusedField, ...]:
    return tuple(RefusedField(str(row["field"]), str(row["reason"])) for row in json.loads(text))


def version_texts(version: IdentityVersion) -> tuple[str, str, str]:
    """The texts of a stored version: its profile and diff as JSON, and its reason."""
    return profile_to_json(version.profile), changes_to_json(version.changes), version.reason


def change_texts(change: PendingChange) -> tuple[str, str]:
    """The texts of a stored change: its diff and refusals as JSON."""
    return changes_to_json(change.changes), refused_to_json(change.refused)


def version_row(version: IdentityVersion, time: Callable[[datetime], object]) -> tuple[object, ...]:
    """A version as stored, column by column (``time`` writes a time as the backend keeps
    it): character, number, profile, diff, reason, created, diary entry, change."""
    v = version
    texts = version_texts(v)
    return (v.character_id, v.number, *texts, time(v.created_at), v.diary_entry_id, v.change_id)


def change_row(change: PendingChange, time: Callable[[datetime], object]) -> tuple[object, ...]:
    """A change as stored, column by column (``time`` as in :func:`version_row`): id,
    character, base version, diff, refusals, created, status, diary entry, decided, version."""
    h = change
    decided = None if h.decided_at is None else time(h.decided_at)
    head = (h.id, h.character_id, h.base_version, *change_texts(h), time(h.created_at))
    return (*head, h.status.value, h.diary_entry_id, decided, h.version)


def profile_to_json(profile: CharacterProfile) -> str:
    return json.dumps(profile.model_dump(mode="json"), ensure_ascii=False)


def profile_from_json(text: str) -> CharacterProfile:
    return CharacterProfile.model_validate(json.loads(text))

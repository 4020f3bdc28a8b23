"""Taking a forgotten viewer's words out of a character's identity history.

Identity evolution proposes profile changes from diary entries, so a version, its
field-by-field diff and a proposed change can quote a viewer. Forgetting the viewer applies
the rule of :mod:`omoide.privacy.redaction` to them, as to diary entries, with two limits:

* only the prose fields evolution may change (:data:`TEXT_FIELDS`: background, likes,
  speaking style, ...) are redacted; the protected core (name, core values, safety rules),
  ``id``, emotion labels and languages are left exactly as they are;
* a redacted value always passes the profile's own validation: when
  :data:`~omoide.privacy.redaction.REDACTED` would make it too long, the viewer's words are
  removed without a mark, and a list item left empty is dropped.

The same value is always redacted the same way, so a pending change's ``before`` still
matches the (redacted) current profile and can be approved.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from pydantic import ValidationError

from omoide.privacy.redaction import Redactor
from omoide.store.records.identity import (
    FieldChange,
    IdentityVersion,
    PendingChange,
    ProfileValue,
    RefusedField,
)
from omoide.store.records.profile import EVOLVABLE_FIELDS, CharacterProfile

_NOT_PROSE: Final = frozenset({"emotions", "default_emotion", "language", "home_language"})
TEXT_FIELDS: Final = frozenset(EVOLVABLE_FIELDS) - _NOT_PROSE
"""The fields whose text is redacted: evolvable, and written as prose."""


def _valid(field: str, value: ProfileValue) -> bool:
    try:
        CharacterProfile.model_validate({"id": "redaction", "name": "redaction", field: value})
    except ValidationError:
        return False
    return True


def _redacted_text(field: str, text: str, redactor: Redactor, *, item: bool) -> str:
    marked = redactor.redact(text)
    if marked == text or _valid(field, (marked,) if item else marked):
        return marked
    return redactor.redact(text, mark="").strip()


def redact_value(field: str, value: ProfileValue, redactor: Redactor) -> ProfileValue:
    """``value`` of ``field`` without the viewer's words (unchanged outside TEXT_FIELDS)."""
    if field not in TEXT_FIELDS or value is None:
        return value
    if isinstance(value, str):
        return _redacted_text(field, value, redactor, item=False)
    items = (_redacted_text(field, item, redactor, item=True) for item in value)
    return tuple(item for item in items if item)


def redact_profile(profile: CharacterProfile, redactor: Redactor) -> CharacterProfile:
    values = {name: redact_value(name, getattr(profile, name), redactor) for name in TEXT_FIELDS}
    return CharacterProfile.model_validate({**profile.model_dump(), **values})


def _redact_changes(
    changes: tuple[FieldChange, ...], redactor: Redactor
) -> tuple[FieldChange, ...]:
    return tuple(
        FieldChange(
            change.field,
            redact_value(change.field, change.before, redactor),
            redact_value(change.field, change.after, redactor),
        )
        for change in changes
    )


def redact_version(version: IdentityVersion, redactor: Redactor) -> IdentityVersion:
    """The version with the viewer's words out of its profile, diff and reason."""
    return replace(
        version,
        profile=redact_profile(version.profile, redactor),
        changes=_redact_changes(version.changes, redactor),
        reason=redactor.redact(version.reason),
    )


def redact_change(change: PendingChange, redactor: Redactor) -> PendingChange:
    """The proposed change with the viewer's words out of its diff and refusal reasons."""
    refused = tuple(RefusedField(r.field, redactor.redact(r.reason)) for r in change.refused)
    return replace(change, changes=_redact_changes(change.changes, redactor), refused=refused)

"""What an identity change may be: the policy, and the checks a proposed diff passes.

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

Fields that pass are accepted and the others are reported with their reason
(:class:`~omoide.character.identity.IdentityService` decides what becomes of them).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from pydantic import ValidationError

from omoide.domain import check_unit_interval
from omoide.errors import InvalidInput
from omoide.store.records.identity import FieldChange, ProfileValue, RefusedField
from omoide.store.records.profile import (
    IDENTITY_FIELD,
    PROTECTED_FIELDS,
    CharacterProfile,
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

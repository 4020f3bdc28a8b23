"""The redaction rule on identity history: the viewer's words leave the prose fields of
versions and proposed changes; the protected core, labels and languages stay exactly; every
redacted profile is still valid, and a value is redacted the same way wherever it is."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from omoide.privacy.identity_redaction import (
    TEXT_FIELDS,
    redact_change,
    redact_profile,
    redact_value,
    redact_version,
)
from omoide.privacy.redaction import REDACTED, Redactor, ViewerWords
from omoide.store.records.identity import FieldChange, IdentityVersion, PendingChange, RefusedField
from omoide.store.records.profile import MAX_LIST_ITEMS, PROTECTED_FIELDS, CharacterProfile

REDACTOR = Redactor(ViewerWords(frozenset({"Mo"}), ("I adore Zorbla plushies so much",)))
AT = datetime(2026, 5, 1, tzinfo=UTC)
BASE = CharacterProfile(
    id="haru",
    name="Mo Haru",
    core_values=("Zorbla honesty",),
    safety_rules=("Mo never shares addresses",),
    likes=("rainy streams",),
)
QUOTING = BASE.model_copy(
    update={
        "likes": ("rainy streams", "Zorbla plushies, like Mo"),
        "background": 'Grew up by the sea. Mo said "I adore Zorbla plushies".',
    }
)


def test_prose_is_redacted_and_the_core_stays() -> None:
    redacted = redact_profile(QUOTING, REDACTOR)
    assert redacted.likes == ("rainy streams", f"{REDACTED} plushies, like {REDACTED}")
    assert redacted.background == f'Grew up by the sea. {REDACTED} said "{REDACTED}".'
    for name in {*PROTECTED_FIELDS, "id", "emotions", "default_emotion", "language"}:
        assert getattr(redacted, name) == getattr(QUOTING, name), name
    assert not TEXT_FIELDS & PROTECTED_FIELDS


def test_a_mark_that_would_break_a_limit_is_left_out() -> None:
    entry = ("Mo likes cats. " * 40).strip()
    assert len(entry) <= 600
    likes = redact_value("likes", (entry, "Mo"), REDACTOR)
    assert isinstance(likes, tuple) and likes[1] == REDACTED
    assert REDACTED not in likes[0] and "Mo" not in likes[0].split() and len(likes[0]) <= 600
    background = redact_value("background", "Mo and cats. " * 300, REDACTOR)
    assert isinstance(background, str) and len(background) <= 4000
    assert "Mo" not in background.split() and REDACTED not in background
    full = QUOTING.model_copy(update={"likes": tuple(f"Mo {n}" for n in range(MAX_LIST_ITEMS))})
    assert len(redact_profile(full, REDACTOR).likes) == MAX_LIST_ITEMS


def test_a_version_and_a_change_are_redacted_alike() -> None:
    changes = (FieldChange("likes", BASE.likes, QUOTING.likes),)
    version = IdentityVersion("haru", 1, QUOTING, changes, "approved", AT, change_id="c1")
    fixed = redact_version(version, REDACTOR)
    assert fixed.changes[0].after == fixed.profile.likes, "redacted the same way everywhere"
    assert fixed.changes[0].before == BASE.likes and fixed.reason == "approved"
    refused = (RefusedField("name", "protected: 'Mo Haru'"),)
    change = PendingChange("c2", "haru", 1, changes, refused, AT)
    redacted = redact_change(change, REDACTOR)
    assert redacted.changes == fixed.changes
    assert redacted.refused == (RefusedField("name", f"protected: '{REDACTED} Haru'"),)
    unrelated = replace(version, profile=BASE, changes=())
    assert redact_version(unrelated, REDACTOR) == unrelated

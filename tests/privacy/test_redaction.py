"""The redaction rule: a forgotten viewer's names, quotes and the names they brought in
leave someone else's text; everything else stays."""

from __future__ import annotations

import pytest

from omoide.privacy.redaction import REDACTED, Redactor, ViewerWords

WORDS = ViewerWords(
    names=frozenset({"Mo", "mo-7", "x"}),
    texts=("I adore Zorbla plushies so much, honestly", "likes hiking in winter", "lol"),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('Mo said "I adore Zorbla plushies" tonight.', f'{REDACTED} said "{REDACTED}" tonight.'),
        ("Learned: Mo likes hiking in winter.", f"Learned: {REDACTED}."),
        ("Topics: zorbla (3), Minecraft (2).", f"Topics: {REDACTED} (3), Minecraft (2)."),
        ("mo-7 came back", f"{REDACTED} came back"),
        ("We went hiking and it was winter, lol", "We went hiking and it was winter, lol"),
        ("x marks the spot", "x marks the spot"),
        ("Nothing about them here.", "Nothing about them here."),
    ],
)
def test_the_rule(text: str, expected: str) -> None:
    assert Redactor(WORDS).redact(text) == expected


def test_topics_holding_their_words_are_dropped() -> None:
    assert Redactor(WORDS).redact_topics(["Zorbla", "Minecraft", "Mo"]) == ("Minecraft",)


def test_a_viewer_with_no_words_changes_nothing() -> None:
    empty = Redactor(ViewerWords(frozenset(), ()))
    assert empty.redact("Mo said something") == "Mo said something"

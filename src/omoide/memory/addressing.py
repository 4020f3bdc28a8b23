"""The character's own name is not a search term.

Viewers address the character in message after message ("hey Ash!", "하루 안녕~",
"小雨晚上好"), so its name matches their greetings, not what they are asking about: a
question like "Ash, do you remember which game I play after a rough shift?" would rank
every "hi Ash" above the game. :func:`without_names` takes the names out of the words the
keyword search looks for; the meaning search still reads the whole message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol


class CharacterNames(Protocol):
    """What viewers call a character (its id, its name)."""

    async def names_of(self, character_id: str) -> tuple[str, ...]: ...


def _pattern(name: str) -> str:
    escaped = re.escape(name)
    if name.isascii():
        return rf"(?<![\w]){escaped}(?![\w])"
    return escaped


def without_names(query: str, names: Sequence[str]) -> str:
    """``query`` with every whole-word occurrence of ``names`` removed (case-insensitive,
    after NFKC); names shorter than two characters are kept, they are too ambiguous."""
    usable = sorted(
        {unicodedata.normalize("NFKC", name).strip() for name in names if len(name.strip()) > 1},
        key=len,
        reverse=True,
    )
    if not usable:
        return query
    text = unicodedata.normalize("NFKC", query)
    pattern = re.compile("|".join(_pattern(name) for name in usable), re.IGNORECASE)
    return " ".join(pattern.sub(" ", text).split())

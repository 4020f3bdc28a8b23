"""What text and ids omoide accepts: one written rule, used by the library and every edge.

Text (messages, fact text, chat, stream comments and replies, metadata strings)
    may hold any character except a lone surrogate (UTF-8 cannot encode it, so no store
    can keep it) and the control characters (Unicode category ``Cc``: NUL, escape, the C1
    controls, ...) other than tab, line feed and carriage return. Both are refused, never
    stripped: a caller learns which field is wrong instead of finding its text changed.
Labels (emotions, topics, display names, platforms, metadata keys)
    are text on one line: tab, line feed and carriage return are refused too.
Ids a caller chooses (character, viewer, session, stream)
    are labels of 1 to :data:`MAX_ID_LENGTH` characters that every route can reach: no
    ``/`` or ``\\`` (a path segment cannot hold them), not ``.`` or ``..`` (clients
    resolve them away), and no U+FFFD, the replacement character that undecodable bytes
    become (``%FF`` and ``%FE`` would otherwise name the same viewer).
Times
    lie between :data:`EARLIEST` and :data:`LATEST`: earlier or later ones are typing
    mistakes or probes, and near the ends of ``datetime`` any offset overflows.

:func:`text_problem` says what is wrong in words, or ``None``; the ``check_*`` functions
raise :class:`~omoide.errors.InvalidInput` naming the field. Text that was accepted before
(a turn queued by an older version) or that no caller wrote (a model's reply) is not
refused but cleaned by :func:`without_refused`.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Final

from omoide.errors import InvalidInput

MAX_ID_LENGTH: Final = 256
EARLIEST: Final = datetime(1970, 1, 1, tzinfo=UTC)
LATEST: Final = datetime(2200, 1, 1, tzinfo=UTC)
_LINE_CONTROLS: Final = frozenset("\t\n\r")
_UNREACHABLE_IDS: Final = frozenset({".", ".."})


def text_problem(value: str, *, one_line: bool = False) -> str | None:
    """Why ``value`` is not acceptable text (see the module docstring), or ``None``."""
    for character in value:
        if not _refused(character, one_line=one_line):
            continue
        if unicodedata.category(character) == "Cs":
            return "must not contain lone surrogates (text that is not valid Unicode)"
        return f"must not contain the control character U+{ord(character):04X}"
    return None


def _refused(character: str, *, one_line: bool) -> bool:
    category = unicodedata.category(character)
    if category == "Cs":
        return True
    return category == "Cc" and (one_line or character not in _LINE_CONTROLS)


def without_refused(text: str, *, one_line: bool = False) -> str:
    """``text`` with the characters the rule refuses removed (see the module docstring)."""
    if text_problem(text, one_line=one_line) is None:
        return text
    return "".join(character for character in text if not _refused(character, one_line=one_line))


def check_text(value: str, *, name: str, one_line: bool = False) -> str:
    """``value`` if it follows the text rule; InvalidInput naming ``name`` otherwise."""
    problem = text_problem(value, one_line=one_line)
    if problem is not None:
        raise InvalidInput(f"{name} {problem}")
    return value


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be an id a caller chooses, or ``None``."""
    if not value.strip():
        return "must not be empty"
    if len(value) > MAX_ID_LENGTH:
        return f"is longer than {MAX_ID_LENGTH} characters"
    if "/" in value or "\\" in value:
        return "must not contain '/' or '\\' (ids are path segments)"
    if value in _UNREACHABLE_IDS:
        return "must not be '.' or '..'"
    if "\ufffd" in value:
        return "must not contain U+FFFD (the mark of undecodable bytes)"
    return text_problem(value, one_line=True)


def check_id(value: object, *, name: str) -> str:
    """An id every route can reach (see the module docstring); InvalidInput otherwise."""
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    problem = id_problem(value)
    if problem is not None:
        raise InvalidInput(f"{name} {problem}")
    return value


def moment_problem(moment: datetime) -> str | None:
    """Why an aware ``moment`` is outside the accepted range, or ``None``."""
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        return f"must lie between {EARLIEST.year} and {LATEST.year}"
    if not EARLIEST <= utc < LATEST:
        return f"must lie between {EARLIEST.year} and {LATEST.year}"
    return None

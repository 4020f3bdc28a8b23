"""The prompt fence: viewer text inside a prompt is data, never structure or instructions.

Everything a viewer wrote that reaches a prompt (remembered messages, fact text, their
name, topics taken from their words, stream display names) goes through
:func:`sanitise_memory_text`, which keeps its meaning but takes away the means to break out
of a block or pose as a turn of the conversation:

* NFKC normalisation, so full-width look-alikes (``＜``, ``ｓｙｓｔｅｍ：``) become the plain
  characters the next steps catch;
* line breaks become spaces and control / invisible format characters are removed (bidi
  overrides, Unicode tag characters), so a text cannot start a line of its own and fake
  a header; zero-width (non-)joiners stay, Persian and emoji need them;
* chat-template tokens (``<|im_start|>``, ``<|system|>``, ``[INST]``, ``<<SYS>>``) are
  removed, and the character's ``[EMOTION:x]`` tags become ``(x)``;
* every ``<`` and ``>`` becomes ``‹`` and ``›``, so no text can contain ``</memories>`` or
  any other tag; runs of ``#`` and backticks lose their markdown meaning;
* role markers (``system:``, ``assistant:``, ``[user]``, ``### Instruction:``, ``システム:``,
  ``系统:``, ``시스템:``) become ``(system)``.

Then :func:`as_data` quotes it (``"..."``, with inner double quotes made single), so a
text cannot fake the punctuation around it either; text that reads like an instruction
(:func:`omoide.injection.looks_like_instruction`) becomes reported speech:
``(viewer said: "...")``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from omoide.injection import looks_like_instruction
from omoide.text_caches import remembers_text

_LINE_BREAKS: Final = re.compile(r"[\r\n\t\v\f\x1c-\x1e\x85\u2028\u2029]")
KEPT_FORMAT: Final = frozenset({"\u200c", "\u200d"})
"""Zero-width (non-)joiners: invisible, but Persian and emoji sequences need them."""
_REMOVED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs"})
_TEMPLATE_TOKENS: Final = re.compile(
    r"<\|[^<>|]{0,64}\|>|<<\s*/?\s*sys\s*>>|\[\s*/?\s*(?:inst|sys)\s*\]|</?s>", re.IGNORECASE
)
_EMOTION_TAG: Final = re.compile(r"\[\s*emotion\s*:\s*([^\]]*)\]", re.IGNORECASE)
_MARKDOWN_RUNS: Final = re.compile(r"#{2,}|`{3,}")
_ROLES: Final = (
    r"system|assistant|user|developer|human|model|ai|bot|instructions?|response|input|output"
)
_ROLE_MARKER: Final = re.compile(rf"\[\s*({_ROLES})\s*\]|\b({_ROLES})\s*:", re.IGNORECASE)
_CJK_ROLE_MARKER: Final = re.compile(
    r"(システム|アシスタント|ユーザー|系统|系統|助手|用户|用戶|使用者|시스템|어시스턴트|사용자)\s*:"
)
_WHITESPACE: Final = re.compile(r"\s+")


def sanitise_memory_text(text: str) -> str:
    """``text`` on one line, with no way to close a block or pose as another speaker."""
    cleaned = unicodedata.normalize("NFKC", text)
    cleaned = _LINE_BREAKS.sub(" ", cleaned)
    if not cleaned.isprintable():  # printable text holds no character of those categories
        cleaned = "".join(
            character
            for character in cleaned
            if character in KEPT_FORMAT
            or unicodedata.category(character) not in _REMOVED_CATEGORIES
        )
    cleaned = _TEMPLATE_TOKENS.sub(" ", cleaned)
    cleaned = _EMOTION_TAG.sub(lambda match: f"({match.group(1).strip()})", cleaned)
    cleaned = cleaned.replace("<", "‹").replace(">", "›")
    cleaned = _MARKDOWN_RUNS.sub(lambda match: match.group(0)[0], cleaned)
    cleaned = _ROLE_MARKER.sub(lambda match: f"({match.group(1) or match.group(2)})", cleaned)
    cleaned = _CJK_ROLE_MARKER.sub(lambda match: f"({match.group(1)})", cleaned)
    return _WHITESPACE.sub(" ", cleaned).strip()


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def quoted(text: str) -> str:
    """``text`` in double quotes; its own double quotes become single ones."""
    return '"' + text.replace('"', "'") + '"'


AS_DATA_CACHED: Final = 8192
"""Texts whose quoted form is remembered per process: the reply path quotes the same
profile facts and episodes message after message, and reading a text for instructions
costs more than the rest of the line."""


@remembers_text
@lru_cache(maxsize=AS_DATA_CACHED)
def as_data(text: str, limit: int) -> str:
    """Sanitised, shortened and quoted; an instruction-like text becomes reported speech."""
    cleaned = sanitise_memory_text(text)
    short = quoted(truncate(cleaned, limit))
    return f"(viewer said: {short})" if looks_like_instruction(cleaned) else short


def quoted_name(name: str, limit: int) -> str:
    """A viewer's name for a prompt: sanitised, shortened and quoted, never reported speech
    (a name is not something the viewer said to the character)."""
    return quoted(truncate(sanitise_memory_text(name), limit))

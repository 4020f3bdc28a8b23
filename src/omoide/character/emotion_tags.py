"""Finding and removing ``[EMOTION:<label>]`` tags, all at once or chunk by chunk.

A tag is an opening bracket (``[``, full-width ``［`` or ``【``), optional spaces, the word
``EMOTION`` in any case, optional spaces, a colon (``:`` or ``：``), a label of at most
:data:`MAX_LABEL_CHARS` characters on one line, and a closing bracket (``]``, ``］``, ``】``).
Anything else that starts with a bracket is ordinary text, ``[laughs]`` included.

What viewers see follows three rules, the same however the text is split into chunks:

1. every tag is removed together with the spaces and tabs around it; a run of tags and
   spaces counts as one removal;
2. where a removal sat between two words on one line and took spaces with it, a single
   space remains, so ``"wow [EMOTION:happy] nice"`` reads ``"wow nice"`` and
   ``"すごい[EMOTION:happy]ね"`` reads ``"すごいね"``;
3. whitespace at the very start and end of the reply is dropped.

:class:`EmotionTagFilter` applies the rules incrementally: it holds back only what it cannot
yet decide (a possible tag, or whitespace that may turn out to be trailing), so at most one
tag's worth of text waits in it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

OPEN_BRACKETS: Final = "[［【"
CLOSE_BRACKETS: Final = "]］】"
COLONS: Final = ":："
TAG_WORD: Final = "emotion"
MAX_LABEL_CHARS: Final = 40
MAX_PADDING_CHARS: Final = 4
HORIZONTAL_SPACE: Final = " \t\u3000\u00a0"
LINE_BREAKS: Final = "\n\r"

LabelResolver = Callable[[str], str | None]
"""Maps a raw tag label to an emotion the character has, or ``None`` to ignore it."""


class ScanOutcome(enum.Enum):
    TAG = "tag"
    PARTIAL = "partial"  # the text so far could still become a tag
    TEXT = "text"  # the bracket is ordinary text


@dataclass(frozen=True, slots=True)
class TagScan:
    outcome: ScanOutcome
    end: int = 0
    label: str = ""


_PARTIAL = TagScan(ScanOutcome.PARTIAL)
_TEXT = TagScan(ScanOutcome.TEXT)


def _skip_padding(text: str, position: int) -> int | None:
    """Index after the spaces at ``position``; ``None`` when there are too many."""
    start = position
    while position < len(text) and text[position] in HORIZONTAL_SPACE:
        position += 1
    return None if position - start > MAX_PADDING_CHARS else position


def scan_tag(text: str, start: int) -> TagScan:
    """Whether the bracket at ``text[start]`` opens a tag, might, or does not."""
    position = _skip_padding(text, start + 1)
    if position is None:
        return _TEXT
    for letter in TAG_WORD:
        if position >= len(text):
            return _PARTIAL
        if text[position].lower() != letter:
            return _TEXT
        position += 1
    position = _skip_padding(text, position)
    if position is None:
        return _TEXT
    if position >= len(text):
        return _PARTIAL
    if text[position] not in COLONS:
        return _TEXT
    label_start = position + 1
    for position in range(label_start, min(len(text), label_start + MAX_LABEL_CHARS + 1)):
        character = text[position]
        if character in CLOSE_BRACKETS:
            return TagScan(ScanOutcome.TAG, position + 1, text[label_start:position].strip())
        if character in OPEN_BRACKETS or character in LINE_BREAKS:
            return _TEXT
    if len(text) - label_start > MAX_LABEL_CHARS:
        return _TEXT
    return _PARTIAL


def _keep_label(label: str) -> str | None:
    return label or None


class EmotionTagFilter:
    """Removes emotion tags from a reply streamed in chunks of any size.

    ``feed`` returns the text that is safe to show so far; ``finish`` returns the rest.
    ``emotion`` is the first tag label that ``resolve`` accepts, known as soon as that tag
    has streamed past; ``labels`` lists every tag label seen, in order.
    """

    def __init__(self, resolve: LabelResolver = _keep_label) -> None:
        self._resolve = resolve
        self._pending = ""
        self._held_space = ""
        self._started = False
        self._in_removal = False
        self._removal_spaced = False
        self._removal_after_word = False
        self._labels: list[str] = []
        self._emotion: str | None = None
        self._output: list[str] = []

    @property
    def emotion(self) -> str | None:
        return self._emotion

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self._labels)

    def feed(self, chunk: str) -> str:
        self._pending += chunk
        self._drain(final=False)
        return self._take_output()

    def finish(self) -> str:
        """Flush what was held back; an unfinished tag at the end is shown as text."""
        self._drain(final=True)
        self._in_removal = False
        self._held_space = ""
        return self._take_output()

    def _take_output(self) -> str:
        text = "".join(self._output)
        self._output.clear()
        return text

    def _drain(self, *, final: bool) -> None:
        text = self._pending
        position = 0
        while position < len(text):
            character = text[position]
            if character in OPEN_BRACKETS:
                scan = scan_tag(text, position)
                if scan.outcome is ScanOutcome.PARTIAL and not final:
                    break
                if scan.outcome is ScanOutcome.TAG:
                    self._on_tag(scan.label)
                    position = scan.end
                    continue
            if character.isspace():
                self._on_space(character)
            else:
                self._on_word_character(character)
            position += 1
        self._pending = text[position:]

    def _on_tag(self, label: str) -> None:
        self._labels.append(label)
        if self._emotion is None:
            self._emotion = self._resolve(label)
        if self._in_removal:
            return
        before = self._held_space.rstrip(HORIZONTAL_SPACE)
        self._in_removal = True
        self._removal_spaced = len(before) < len(self._held_space)
        self._removal_after_word = self._started and not before
        self._held_space = before

    def _on_space(self, character: str) -> None:
        if self._in_removal:
            if character in HORIZONTAL_SPACE:
                self._removal_spaced = True
                return
            self._in_removal = False
        self._held_space += character

    def _on_word_character(self, character: str) -> None:
        if self._in_removal:
            self._in_removal = False
            if self._removal_spaced and self._removal_after_word:
                self._held_space += " "
        if self._started:
            self._output.append(self._held_space)
        self._held_space = ""
        self._output.append(character)
        self._started = True

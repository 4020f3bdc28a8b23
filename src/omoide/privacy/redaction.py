"""Taking a forgotten viewer's words out of text that others' memories keep.

Diary entries (and any other memory in a character's own scope) are written from many
viewers' comments; when one viewer is forgotten, their words go and the rest stays. The
rule, applied to words compared without case:

1. **names**: the viewer's id, display names and chat names, as whole words;
2. **quotes**: any run of :data:`QUOTE_WORDS` or more consecutive words found in one of
   the viewer's texts (what they wrote, and the facts learned about them), and a shorter
   text whole when it is at least :data:`SHORT_TEXT_CHARS` characters long;
3. **names they brought in**: the proper nouns their texts introduce (what
   :class:`~omoide.character.topics.TopicTracker` reads as a free topic: ``I love Zorbla``
   -> ``Zorbla``), as whole words.

Each run of matched words becomes :data:`REDACTED`. A topic is dropped when any of it
matches. Common words said alone (``today``, ``game``) stay: they say nothing of who
said them. Words are Unicode ``\\w`` runs, so text without spaces (Japanese, Chinese)
is matched by whole runs only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from omoide.character.topics import TopicTracker

REDACTED: Final = "[forgotten]"
QUOTE_WORDS: Final = 3
SHORT_TEXT_CHARS: Final = 8
MIN_NAME_CHARS: Final = 2
_WORD = re.compile(r"\w+")

Phrase = tuple[str, ...]


def _words(text: str) -> Phrase:
    return tuple(word.casefold() for word in _WORD.findall(text))


@dataclass(frozen=True, slots=True)
class ViewerWords:
    """What identifies a viewer in someone else's text: their names and their texts."""

    names: frozenset[str]
    texts: tuple[str, ...]


def _quotes(text: str) -> set[Phrase]:
    words = _words(text)
    if len(words) >= QUOTE_WORDS:
        return {words[i : i + QUOTE_WORDS] for i in range(len(words) - QUOTE_WORDS + 1)}
    return {words} if words and len(text.strip()) >= SHORT_TEXT_CHARS else set()


def _brought_in(texts: Iterable[str]) -> set[Phrase]:
    reader = TopicTracker(vocabulary=())
    return {_words(noun) for text in texts for noun in reader.extract(text)}


class Redactor:
    """Applies the module's rule for one viewer's words to any text."""

    def __init__(self, words: ViewerWords) -> None:
        phrases = {_words(name) for name in words.names if len(name.strip()) >= MIN_NAME_CHARS}
        for text in words.texts:
            phrases |= _quotes(text)
        phrases |= _brought_in(words.texts)
        self._phrases = frozenset(phrase for phrase in phrases if phrase)
        self._lengths = sorted({len(phrase) for phrase in self._phrases}, reverse=True)

    def redact(self, text: str, *, mark: str = REDACTED) -> str:
        """``text`` with every run of the viewer's words replaced by ``mark``."""
        spans = [match.span() for match in _WORD.finditer(text)]
        marked = self._marked([text[start:end].casefold() for start, end in spans])
        if not any(marked):
            return text
        pieces, cursor, index = [], 0, 0
        while index < len(spans):
            if not marked[index]:
                index += 1
                continue
            last = index
            while last + 1 < len(spans) and marked[last + 1]:
                last += 1
            pieces += [text[cursor : spans[index][0]], mark]
            cursor, index = spans[last][1], last + 1
        return "".join([*pieces, text[cursor:]])

    def redact_topics(self, topics: Sequence[str]) -> tuple[str, ...]:
        """The topics none of whose words are the viewer's."""
        return tuple(topic for topic in topics if self.redact(topic) == topic)

    def _marked(self, words: list[str]) -> list[bool]:
        marked = [False] * len(words)
        for start in range(len(words)):
            for length in self._lengths:
                if tuple(words[start : start + length]) in self._phrases:
                    marked[start : start + length] = [True] * length
                    break
        return marked

"""Finding any of a few hundred words in a short text, faster than one big alternation.

Python's ``re`` tries each alternative of ``a|b|c|...`` at every position of the text, so a
pattern listing every pet, relative and job in four languages costs tens of microseconds
per chat line. A :class:`Lexicon` finds the places where one of its words starts with one
``re`` scan over a trie of its words (each character compared once, in C), and tries, at
each such place, the words starting there (longest first). Words are compared
casefolded; a word in Latin letters matches only as a whole word (no letter or digit
right before or after it); a Korean word only where a word starts (no Hangul right before
it) and ends or takes a particle ("개가", "아이랑": not the "새" of "냄새", nor the "아이" of
"아이돌"); a word in kana or Han anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_PARTICLES = _split(
    "이랑 하고 한테 에게 께서 까지 부터 처럼 보다 이가 이는 이를 이도 이야 이에요 예요 인데 "
    "이라 라서 이고 이네 이지 이었 였 으로 로 하 했 해 함 합 할 한 중 이 가 은 는 을 를 "
    "도 랑 와 과 의 만 야 네 들 님 씨 때 고 지 라 에"
)
"""What may follow a short Korean noun inside its word (particles, plural, copula, the
"하다" of a verb made of it: "전공했어요")."""
_ONE_SYLLABLE_PARTICLES = _split(
    "이랑 하고 한테 에게 께서 까지 부터 처럼 보다 이에요 예요 이야 "
    "이 가 은 는 을 를 도 랑 와 과 의 만 들 에"
)
"""What may follow a one-syllable Korean noun ("개가", "새를"): case particles only. The
verb endings and the short particles that also make other words are left out: "새해" (New
Year) and "새로" (newly) are no bird, "개고" no dog."""
SHORT_KOREAN = 2
"""Korean words of at most this many syllables match only as words: "새" is no bird in
"냄새", "아이" no child in "아이돌"; longer ones ("고양이", "할머니") match anywhere."""


def _is_word_character(character: str) -> bool:
    return character.isascii() and character.isalnum()


def _is_hangul(character: str) -> bool:
    return "\uac00" <= character <= "\ud7a3"


class Lexicon:
    """A set of words and the first of them a text holds (:meth:`find`)."""

    def __init__(self, words: Iterable[str]) -> None:
        starting: dict[str, list[str]] = {}
        for word in {word.casefold() for word in words if word.strip()}:
            starting.setdefault(word[0], []).append(word)
        for group in starting.values():
            group.sort(key=len, reverse=True)
        self._starting = starting
        self._starts = re.compile(trie_pattern(self)) if starting else None
        """Where a word starts: places where none does are skipped by ``re``, not looked at
        in Python. Searched from each place on (not ``finditer``, whose matches do not
        overlap) and not wrapped in a lookahead (which ``re`` tries at every place)."""

    def __iter__(self) -> Iterator[str]:
        return (word for group in self._starting.values() for word in group)

    def find(self, text: str) -> str | None:
        """The leftmost word of the lexicon in ``text`` (the longest at that place), as
        the lexicon holds it; ``None`` when there is none."""
        found = self.locate(text)
        return None if found is None else found[1]

    def locate(self, text: str) -> tuple[int, str] | None:
        """Where the leftmost word is (an index into ``text`` casefolded) and the word."""
        if self._starts is None:
            return None
        folded = text.casefold()
        start = self._starts.search(folded)
        while start is not None:
            index = start.start()
            for word in self._starting[folded[index]]:
                if folded.startswith(word, index) and self._bounded(folded, index, word):
                    return index, word
            start = self._starts.search(folded, index + 1)
        return None

    @staticmethod
    def _bounded(folded: str, index: int, word: str) -> bool:
        end = index + len(word)
        if _is_hangul(word[0]):
            if len(word) > SHORT_KOREAN:
                return True
            if index > 0 and _is_hangul(folded[index - 1]):
                return False
            rest = folded[end:]
            particles = _ONE_SYLLABLE_PARTICLES if len(word) == 1 else _PARTICLES
            return not rest or not _is_hangul(rest[0]) or rest.startswith(particles)
        if not _is_word_character(word[0]):
            return True
        before = index > 0 and _is_word_character(folded[index - 1])
        after = end < len(folded) and _is_word_character(folded[end])
        return not (before or after)


_Trie = dict[str, "_Trie"]
_END = ""
"""The trie key marking that a word ends at its node (no word holds an empty character)."""


def trie_pattern(words: Iterable[str], *, whole: bool = False) -> str:
    """A regular expression matching any of ``words`` (non-empty) as their trie, nested
    alternations that compare each character once. By default it matches where one of
    them starts (each branch cut at its shortest word: a longer one starting the same way
    adds no place); ``whole`` keeps every word, for a pattern that goes on after it
    (``\\b``): backtracking then tries the longest first, then the shorter ones."""
    trie: _Trie = {}
    for word in sorted(set(words), key=len):
        node = trie
        for character in word:
            if _END in node and not whole:
                break
            node = node.setdefault(character, {})
        else:
            node[_END] = {}
    return _branches(trie)


def _branches(node: _Trie) -> str:
    children = {key: child for key, child in node.items() if key != _END}
    if not children:
        return ""
    parts = [re.escape(key) + _branches(child) for key, child in sorted(children.items())]
    joined = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    if _END not in node:
        return joined
    return (joined if len(parts) > 1 else f"(?:{joined})") + "?"


def alternatives(*alternations: str) -> list[str]:
    """The words of regex alternations made of plain words (``"cat|dog|햄스터"``)."""
    return [word for alternation in alternations for word in alternation.split("|")]

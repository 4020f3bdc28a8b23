"""The viewer's emotion read from their own words, without a model (ko, ja, zh, en).

:func:`read_emotion` finds the cues of :mod:`omoide.character.emotion_lexicon` in a message
and weighs each one:

* a cue's strength gives its base intensity (a hint 0.35, a statement 0.5, a strong word
  0.6);
* an intensifier right before it (``너무``, ``すごく``, ``好``/``太``, ``so``), or right after
  it (``죽겠어``, ``累死了``, ``すぎ``), adds 0.15 each (two at most); a softener (``좀``,
  ``ちょっと``, ``有点``, ``a bit``) takes 0.15 away;
* a negation (``안 힘들어``, ``힘들지 않아``, ``不累``, ``疲れてない``, ``not tired``) cancels a
  negative or neutral cue, and turns a happy or excited one into a mild ``sad``.

The label is the one with the strongest cue, counting repeats and favouring what follows a
contrast (``피곤하지만 행복해`` reads happy); on a tie the later cue wins. The intensity is
the strongest cue of the same valence, a little more when several feelings of that
valence are named (``너무 힘들고 외로워요``) or the message exclaims. A message without
any cue has no reading: the caller keeps whatever emotion it had.

Only the first :data:`MAX_READ_CHARS` characters are read: a pasted essay does not say
more about how its sender feels than its opening does, and the reading stays fast.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from typing import Final

from omoide.character import emotion_lexicon as lexicon

MAX_READ_CHARS: Final = 4000
BASE_INTENSITY: Final = {1: 0.35, 2: 0.5, 3: 0.6}
INTENSIFIER_STEP: Final = 0.15
NEGATED_POSITIVE_INTENSITY: Final = 0.4
MIXED_BONUS: Final = 0.1
EXCLAIM_BONUS: Final = 0.05
MIN_INTENSITY: Final = 0.15
_CJK_WINDOW = 7
_LATIN_WINDOW = 24
_AFTER_WINDOW = 8


@dataclass(frozen=True, slots=True)
class EmotionReading:
    """What a message says about its sender's feeling: a label, how strongly, and why."""

    emotion: str
    intensity: float
    cues: tuple[str, ...]
    """The words that were read, in order."""


@dataclass(frozen=True, slots=True)
class _Hit:
    label: str
    strength: int
    intensity: float
    start: int
    after_contrast: bool
    word: str


def _compile(source: str) -> re.Pattern[str]:
    return re.compile(unicodedata.normalize("NFKC", source))


@functools.cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    cues = "|".join(f"(?P<c{index}>{cue[2]})" for index, cue in enumerate(lexicon.ALL_CUES))
    return tuple(
        _compile(source)
        for source in (
            cues,
            lexicon.INTENSIFIERS,
            lexicon.AFTER_INTENSIFIERS,
            lexicon.SOFTENERS,
            lexicon.NEGATION_BEFORE,
            lexicon.NEGATION_AFTER,
            lexicon.CONTRAST,
        )
    )


def _normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text[:MAX_READ_CHARS]).casefold()
    return folded.replace("\u2019", "'")


def _before(text: str, start: int, *, latin: bool) -> str:
    return text[max(0, start - (_LATIN_WINDOW if latin else _CJK_WINDOW)) : start]


def _weigh(text: str, match: re.Match[str], contrast_at: int) -> _Hit | None:
    """One cue with its modifiers applied, or ``None`` when it is negated away."""
    _, more, after_more, softer, negation_before, negation_after, _ = _patterns()
    label, strength, _pattern = lexicon.ALL_CUES[int((match.lastgroup or "c0")[1:])]
    start, end = match.span()
    latin = match.group().isascii()
    before, after = _before(text, start, latin=latin), text[end : end + _AFTER_WINDOW]
    if negation_before.search(before) or negation_after.search(after):
        if label not in ("happy", "excited"):
            return None
        label, strength, intensity = lexicon.NEGATED_POSITIVE, 1, NEGATED_POSITIVE_INTENSITY
    else:
        steps = min(2, len(more.findall(before)) + (1 if after_more.search(after) else 0))
        steps -= 1 if softer.search(before) else 0
        intensity = BASE_INTENSITY[strength] + INTENSIFIER_STEP * steps
    return _Hit(label, strength, intensity, start, start >= contrast_at, match.group())


def _hits(text: str) -> list[_Hit]:
    cues, *_, contrast = _patterns()
    turns = [found.end() for found in contrast.finditer(text)]
    contrast_at = turns[-1] if turns else len(text) + 1
    weighed = (_weigh(text, match, contrast_at) for match in cues.finditer(text))
    return [hit for hit in weighed if hit is not None]


def _valence(label: str) -> frozenset[str]:
    for group in (lexicon.NEGATIVE_LABELS, lexicon.POSITIVE_LABELS):
        if label in group:
            return group
    return frozenset({label})


def _choose(hits: list[_Hit]) -> str:
    """The label with the strongest cue (repeats and a preceding contrast count)."""
    by_label: dict[str, list[_Hit]] = defaultdict(list)
    for hit in hits:
        by_label[hit.label].append(hit)

    def rank(label: str) -> tuple[float, int]:
        found = by_label[label]
        strongest = max(hit.strength for hit in found)
        repeats = 0.5 * min(2, len(found) - 1)
        contrasted = 1.0 if any(hit.after_contrast for hit in found) else 0.0
        return strongest + repeats + contrasted, max(hit.start for hit in found)

    return max(by_label, key=rank)


def read_emotion(text: str) -> EmotionReading | None:
    """The sender's emotion and its intensity in [0, 1], or ``None`` when no cue is found."""
    folded = _normalise(text)
    hits = _hits(folded)
    if not hits:
        return None
    label = _choose(hits)
    group = _valence(label)
    kin = [hit for hit in hits if hit.label in group]
    intensity = max(hit.intensity for hit in kin)
    if len({hit.label for hit in kin}) > 1:
        intensity += MIXED_BONUS
    if "!" in folded:
        intensity += EXCLAIM_BONUS
    intensity = round(min(1.0, max(MIN_INTENSITY, intensity)), 2)
    return EmotionReading(label, intensity, tuple(hit.word for hit in hits))

"""Synthetic multilingual chat for speed benchmarks: deterministic turns, queries, facts.

:class:`ChatGenerator` writes viewer/character exchanges in Korean, Japanese, Chinese and
English from the templates in :mod:`benchmarks.speed.languages`: each viewer has a main
language (viewers are spread evenly over the four) and switches to another one in a share
of turns; a share of turns are low-signal reactions ("ㅋㅋㅋㅋ", "www", "哈哈哈", "lol"),
and some messages join two sentences. Everything is drawn from one seeded random source,
so a seed always gives the same chat.

Embedding a million texts takes far too long for a benchmark, so stores are built from a
pool of distinct embedded texts whose vectors are reused with a small random perturbation
(:func:`perturbed_unit_vectors`): the vector search does the same work on them as on real
embeddings (same dimension, same per-viewer partition sizes).
"""

from __future__ import annotations

import math
import random
import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
from numpy.typing import NDArray

from benchmarks.speed.languages import FACT_TEMPLATES, LANGUAGE_PACKS, LANGUAGES, LanguagePack
from omoide.domain import FactCategory, Matrix, as_utc
from omoide.errors import InvalidInput

EMOTIONS = ("joy", "excitement", "gratitude", "sadness", "anxiety", "neutral")
TOPIC_SLOTS = frozenset({"food", "game", "hobby", "place", "pet", "job"})
MAX_ATTEMPTS_PER_TEXT = 50


@dataclass(frozen=True, slots=True)
class Timeline:
    """The span over which turns are recorded; queries are asked at its end."""

    start: datetime
    span: timedelta

    def __post_init__(self) -> None:
        as_utc(self.start, name="start")
        if self.span <= timedelta(0):
            raise InvalidInput("a timeline's span must be positive")

    @property
    def end(self) -> datetime:
        return self.start + self.span


@dataclass(frozen=True, slots=True)
class SyntheticTurn:
    """One generated exchange of one viewer."""

    viewer_index: int
    language: str
    user_message: str
    bot_message: str
    emotion: str
    emotion_intensity: float
    topics: tuple[str, ...]
    recorded_at: datetime

    @property
    def searchable_text(self) -> str:
        """The text the write path embeds (the same form as ``Episode.searchable_text``)."""
        return f"{self.user_message}\n{self.bot_message}".strip()


@dataclass(frozen=True, slots=True)
class SyntheticFact:
    """A fact about a viewer, phrased as the extractor phrases facts."""

    text: str
    category: FactCategory
    language: str


def _check_share(value: float, *, name: str) -> float:
    if not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be in [0, 1] (got {value})")
    return value


def _slot_names(template: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(template) if field]


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class ChatGenerator:
    """Seeded generator of turns, queries and facts for ``viewers`` viewers."""

    def __init__(
        self,
        *,
        seed: int,
        viewers: int,
        timeline: Timeline,
        low_signal_share: float = 0.1,
        second_sentence_share: float = 0.25,
        code_switch_share: float = 0.1,
    ) -> None:
        if viewers < 1:
            raise InvalidInput(f"viewers must be at least 1 (got {viewers})")
        self._random = random.Random(seed)
        self._viewers = viewers
        self._timeline = timeline
        self._low_signal_share = _check_share(low_signal_share, name="low_signal_share")
        self._second_share = _check_share(second_sentence_share, name="second_sentence_share")
        self._switch_share = _check_share(code_switch_share, name="code_switch_share")

    @property
    def viewers(self) -> int:
        return self._viewers

    @property
    def timeline(self) -> Timeline:
        return self._timeline

    @staticmethod
    def viewer_id(viewer_index: int) -> str:
        return f"viewer-{viewer_index:06d}"

    def language_of(self, viewer_index: int) -> str:
        """A viewer's main language: viewers are spread evenly over the languages."""
        self._check_viewer(viewer_index)
        return LANGUAGES[viewer_index % len(LANGUAGES)]

    def random_viewer(self) -> int:
        return self._random.randrange(self._viewers)

    def turn(self, viewer_index: int, *, low_signal: bool | None = None) -> SyntheticTurn:
        """One exchange of the viewer, at a random moment of the timeline."""
        pack = self._pack_for(viewer_index)
        if low_signal is None:
            low_signal = self._random.random() < self._low_signal_share
        topics: tuple[str, ...] = ()
        if low_signal:
            user = self._random.choice(pack.low_signal)
        else:
            user, topics = self._user_message(pack)
        bot, _ = self._fill(pack, self._random.choice(pack.bot_templates))
        return SyntheticTurn(
            viewer_index=viewer_index,
            language=pack.code,
            user_message=user,
            bot_message=bot,
            emotion=self._random.choice(EMOTIONS),
            emotion_intensity=round(self._random.uniform(0.1, 0.9), 2),
            topics=topics,
            recorded_at=self._moment(),
        )

    def turns(self, count: int) -> list[SyntheticTurn]:
        """``count`` exchanges of randomly chosen viewers."""
        return [self.turn(self.random_viewer()) for _ in range(count)]

    def query(self, viewer_index: int) -> str:
        """A message the viewer might send, in the viewer's main language."""
        pack = LANGUAGE_PACKS[self.language_of(viewer_index)]
        text, _ = self._fill(pack, self._random.choice(pack.query_templates))
        return text

    def fact(self, viewer_index: int) -> SyntheticFact:
        """A fact about the viewer with names and things in the viewer's language."""
        pack = LANGUAGE_PACKS[self.language_of(viewer_index)]
        template, category = self._random.choice(FACT_TEMPLATES)
        text, _ = self._fill(pack, template)
        return SyntheticFact(text=text, category=category, language=pack.code)

    def _check_viewer(self, viewer_index: int) -> None:
        if not 0 <= viewer_index < self._viewers:
            raise InvalidInput(f"viewer index {viewer_index} is not in 0..{self._viewers - 1}")

    def _pack_for(self, viewer_index: int) -> LanguagePack:
        language = self.language_of(viewer_index)
        if self._random.random() < self._switch_share:
            language = self._random.choice([code for code in LANGUAGES if code != language])
        return LANGUAGE_PACKS[language]

    def _user_message(self, pack: LanguagePack) -> tuple[str, tuple[str, ...]]:
        text, topics = self._fill(pack, self._random.choice(pack.user_templates))
        if self._random.random() < self._second_share:
            more, more_topics = self._fill(pack, self._random.choice(pack.user_templates))
            separator = " " if pack.code in ("ko", "en") else ""
            punctuation = "." if pack.code in ("ko", "en") else "。"
            text = f"{text}{punctuation}{separator}{more}"
            topics = tuple(dict.fromkeys((*topics, *more_topics)))
        return text, topics

    def _fill(self, pack: LanguagePack, template: str) -> tuple[str, tuple[str, ...]]:
        names = _slot_names(template)
        values = {name: self._random.choice(pack.slots[name]) for name in names}
        topics = tuple(dict.fromkeys(name for name in names if name in TOPIC_SLOTS))
        return _capitalised(template.format_map(values)), topics

    def _moment(self) -> datetime:
        seconds = self._random.random() * self._timeline.span.total_seconds()
        return self._timeline.start + timedelta(seconds=round(seconds, 6))


def distinct_turns(
    generator: ChatGenerator, count: int, *, include_low_signal: bool = False
) -> list[SyntheticTurn]:
    """``count`` turns with pairwise different searchable texts (viewers drawn at random)."""
    if count < 0:
        raise InvalidInput(f"count must be non-negative (got {count})")
    seen: set[str] = set()
    found: list[SyntheticTurn] = []
    attempts = 0
    while len(found) < count:
        attempts += 1
        if attempts > MAX_ATTEMPTS_PER_TEXT * max(count, 1):
            raise InvalidInput(f"the templates cannot make {count} distinct texts")
        low = None if include_low_signal else False
        turn = generator.turn(generator.random_viewer(), low_signal=low)
        if turn.searchable_text not in seen:
            seen.add(turn.searchable_text)
            found.append(turn)
    return found


def perturbed_unit_vectors(
    base: Matrix, picks: Sequence[int] | NDArray[np.int64], *, noise: float, seed: int
) -> Matrix:
    """Rows ``base[picks]`` moved by Gaussian noise of expected norm ``noise``, renormalised.

    For unit rows the cosine similarity to the source row is about 1 / sqrt(1 + noise^2).
    """
    if not math.isfinite(noise) or noise < 0:
        raise InvalidInput(f"noise must be a finite non-negative number (got {noise})")
    if base.ndim != 2 or base.shape[0] == 0:
        raise InvalidInput("base must be a non-empty matrix of row vectors")
    indices = np.asarray(picks, dtype=np.int64)
    if indices.size and (indices.min() < 0 or indices.max() >= base.shape[0]):
        raise InvalidInput(f"picks must index rows 0..{base.shape[0] - 1}")
    dimensions = base.shape[1]
    rows = base[indices].astype(np.float32)
    rng = np.random.default_rng(seed)
    jitter = rng.standard_normal(rows.shape, dtype=np.float32) * np.float32(
        noise / math.sqrt(dimensions)
    )
    moved = rows + jitter
    norms = np.linalg.norm(moved, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise InvalidInput("a perturbed vector came out all zeros")
    result: Matrix = (moved / norms).astype(np.float32)
    return result


def distinct_facts(generator: ChatGenerator, per_language: int) -> list[SyntheticFact]:
    """Up to ``per_language`` distinct facts in each language (fewer if templates run out)."""
    if per_language < 0:
        raise InvalidInput(f"per_language must be non-negative (got {per_language})")
    viewers = min(generator.viewers, len(LANGUAGES))
    found: dict[str, dict[str, SyntheticFact]] = {
        generator.language_of(viewer_index): {} for viewer_index in range(viewers)
    }
    for _ in range(MAX_ATTEMPTS_PER_TEXT * per_language):
        for viewer_index in range(viewers):
            fact = generator.fact(viewer_index)
            bucket = found[fact.language]
            if len(bucket) < per_language:
                bucket.setdefault(fact.text, fact)
        if all(len(bucket) >= per_language for bucket in found.values()):
            break
    return [fact for bucket in found.values() for fact in bucket.values()]

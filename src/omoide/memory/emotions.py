"""A viewer's recent emotional history, summarised for the prompt.

Labels are compared case-insensitively, trimmed; a blank label counts as ``neutral``.
Each label has a valence from the tables below: common English emotion words are negative
or positive, and every other label (including ones in other languages) is neutral, so an
unknown label can never make a day look hard.

A *hard day* is a calendar day, in the viewer's time zone (UTC unless given), on which the
viewer's negative feelings outweighed everything else they felt: the summed intensity of
negative-valence records is greater than the summed intensity of all the other records of
that day. Each record weighs as much as it was felt, so a strongly sad day counts even if a
few neutral lines were exchanged, and a faint "tired" among cheerful chat does not.
The seed's rule (intensity < 0.3 and one of nervous / tired / concerned) would miss a day of
intense sadness or anger, which is exactly what a companion should remember.
"""

from __future__ import annotations

import enum
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo

from omoide.domain import EmotionRecord, as_utc
from omoide.errors import InvalidInput


class Valence(enum.StrEnum):
    NEGATIVE = "negative"
    NEUTRAL = "neutral"
    POSITIVE = "positive"


NEGATIVE_EMOTIONS = frozenset(
    {
        "sad", "sadness", "unhappy", "down", "gloomy", "melancholy", "miserable", "depressed",
        "hopeless", "grief", "grieving", "heartbroken", "crying", "hurt", "lonely",
        "loneliness", "tired", "exhausted", "drained", "burned out", "burnt out", "sick",
        "nervous", "anxious", "anxiety", "worried", "concerned", "scared", "afraid", "fear",
        "fearful", "frightened", "panicked", "stressed", "overwhelmed", "angry", "anger",
        "mad", "furious", "annoyed", "irritated", "frustrated", "upset", "disappointed",
        "embarrassed", "ashamed", "guilty", "jealous", "envious", "bitter", "disgusted",
        "disgust", "troubled", "distressed", "desperate", "regretful", "sorrowful", "pain",
    }
)  # fmt: skip
POSITIVE_EMOTIONS = frozenset(
    {
        "happy", "happiness", "joy", "joyful", "glad", "cheerful", "delighted", "pleased",
        "excited", "enthusiastic", "energetic", "playful", "amused", "fun", "laughing",
        "grateful", "thankful", "proud", "love", "loving", "affectionate", "hopeful",
        "relieved", "relaxed", "calm", "content", "satisfied", "peaceful", "confident",
        "optimistic", "inspired", "motivated", "touched", "moved", "warm",
    }
)  # fmt: skip
UNINFORMATIVE_LABELS = frozenset({"neutral", "none", "unknown", "n/a"})
"""Labels that say nothing worth a line in the prompt."""


def normalise_label(label: str) -> str:
    cleaned = " ".join(label.split()).lower()
    return cleaned or "neutral"


def valence_of(label: str) -> Valence:
    """The valence of an emotion label; unknown labels are neutral."""
    cleaned = normalise_label(label)
    if cleaned in NEGATIVE_EMOTIONS:
        return Valence.NEGATIVE
    if cleaned in POSITIVE_EMOTIONS:
        return Valence.POSITIVE
    return Valence.NEUTRAL


@dataclass(frozen=True, slots=True)
class EmotionSummary:
    """What a viewer felt over the last ``days`` days.

    ``dominant`` is the most frequent label (ties: the more intensely felt, then
    alphabetical); ``counts`` maps each label to its number of records, most frequent
    first; ``hard_days`` are oldest first. ``dominant`` and ``average_intensity`` are
    ``None`` when there were no records.
    """

    days: int
    dominant: str | None
    average_intensity: float | None
    counts: Mapping[str, int] = field(hash=False)
    hard_days: tuple[date, ...]
    record_count: int


def _check_days(days: int) -> int:
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise InvalidInput(f"days must be a positive integer (got {days!r})")
    return days


def _dominant(records: Sequence[EmotionRecord], counts: Mapping[str, int]) -> str | None:
    felt: dict[str, float] = defaultdict(float)
    for record in records:
        felt[normalise_label(record.emotion)] += record.intensity
    ordered = sorted(counts, key=lambda label: (-counts[label], -felt[label], label))
    return ordered[0] if ordered else None


def _hard_days(records: Sequence[EmotionRecord], tz: tzinfo) -> tuple[date, ...]:
    negative: dict[date, float] = defaultdict(float)
    other: dict[date, float] = defaultdict(float)
    for record in records:
        day = as_utc(record.recorded_at).astimezone(tz).date()
        if valence_of(record.emotion) is Valence.NEGATIVE:
            negative[day] += record.intensity
        else:
            other[day] += record.intensity
    return tuple(sorted(day for day, weight in negative.items() if weight > other[day]))


def summarise_emotions(
    records: Sequence[EmotionRecord], *, now: datetime, days: int = 7, tz: tzinfo = UTC
) -> EmotionSummary:
    """Summarise the records that fall within ``[now - days, now]``; others are ignored.

    ``tz`` decides where one calendar day ends for hard days: pass the viewer's zone when
    known, so a late-night stream is not split across two days.
    """
    moment = as_utc(now, name="now")
    since = moment - timedelta(days=_check_days(days))
    window = [r for r in records if since <= as_utc(r.recorded_at) <= moment]
    tally = Counter(normalise_label(record.emotion) for record in window)
    counts = dict(sorted(tally.items(), key=lambda pair: (-pair[1], pair[0])))
    average = sum(r.intensity for r in window) / len(window) if window else None
    return EmotionSummary(
        days=days,
        dominant=_dominant(window, counts),
        average_intensity=average,
        counts=counts,
        hard_days=_hard_days(window, tz),
        record_count=len(window),
    )


def _format_days(days: Sequence[date]) -> str:
    if len({day.year for day in days}) > 1:
        return ", ".join(day.isoformat() for day in days)
    return ", ".join(day.strftime("%m/%d") for day in days)


def describe_emotions(summary: EmotionSummary) -> str | None:
    """One short English line for the prompt, or ``None`` when there is nothing to say.

    For example: ``Recent mood (7 days): mostly tired (avg intensity 0.7); hard days:
    11/02, 11/03.`` A dominant label like ``neutral`` is not worth a line on its own.
    """
    if summary.record_count == 0:
        return None
    parts = []
    dominant = summary.dominant
    if dominant is not None and normalise_label(dominant) not in UNINFORMATIVE_LABELS:
        mood = f"mostly {dominant}"
        if summary.average_intensity is not None:
            mood += f" (avg intensity {summary.average_intensity:.1f})"
        parts.append(mood)
    if summary.hard_days:
        parts.append(f"hard days: {_format_days(summary.hard_days)}")
    if not parts:
        return None
    span = "1 day" if summary.days == 1 else f"{summary.days} days"
    return f"Recent mood ({span}): {'; '.join(parts)}."

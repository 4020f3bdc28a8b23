"""The emotion engine: reads the emotion a reply was tagged with and moves the state.

Labels: a tag whose label the character has is taken as is; any other label is looked up
in :data:`~omoide.character.emotion_words.EMOTION_SYNONYMS` and mapped to the first
candidate the character has (``joyful`` -> ``happy``; ``excited`` -> ``happy`` for a
character without ``excited``). A label with no such candidate is ignored, so the next tag
may win, and with none at all the emotion stays as it was: an unknown label is never
guessed into a mood the character cannot show.

Dynamics (:class:`EmotionDynamics`), applied in this order on every exchange:

* idle time first: intensity relaxes toward ``resting_intensity`` with a half-life in
  wall-clock hours, and after ``settle_after_hours`` the mood returns to the profile's
  ``default_emotion`` at resting intensity; after ``absence_grace_days`` without a word,
  intimacy fades with a half-life in days;
* then the reply: the same emotion again intensifies (a share of the headroom left, so
  it approaches but never passes 1), another emotion starts at ``switch_intensity``;
* then rapport: intimacy gains a share of the headroom left (diminishing, bounded by 1),
  a larger share when the viewer's message is warm (thanks or affection, ko/ja/zh/en).

Rapport builds with the conversation, as the seed's character state does: with the
default gains (2 % of the headroom an exchange, 5 % a warm one) a newcomer is an
acquaintance after 9 exchanges (4 warm ones), a friend after 22 (9 warm), close after 46
(18 warm) and a best friend after 94 (37 warm); see
:data:`~omoide.character.prompt.INTIMACY_LEVELS` for the words the prompt uses.

Consecutive exchanges within the grace period therefore never lower intimacy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

from omoide.character.emotion_tags import EmotionTagFilter
from omoide.character.emotion_words import EMOTION_SYNONYMS, is_warm_message
from omoide.domain import as_utc
from omoide.errors import InvalidInput
from omoide.store.records.character_state import CharacterState
from omoide.store.records.profile import CharacterProfile, fold_emotion_label

SECONDS_PER_HOUR: Final = 3600.0
HOURS_PER_DAY: Final = 24.0


@dataclass(frozen=True, slots=True)
class ParsedReply:
    """A reply as viewers see it, and the emotion its tags chose (``None``: no valid tag)."""

    clean_text: str
    emotion: str | None
    labels: tuple[str, ...] = ()
    """Every tag label found, valid or not, in order (for logs and metrics)."""


@dataclass(frozen=True, slots=True)
class EmotionDynamics:
    """The constants of the state machine; the defaults suit a live stream."""

    repeat_gain: float = 0.25
    switch_intensity: float = 0.55
    resting_intensity: float = 0.3
    idle_half_life_hours: float = 2.0
    settle_after_hours: float = 6.0
    intimacy_gain: float = 0.02
    warm_intimacy_gain: float = 0.05
    absence_grace_days: float = 7.0
    absence_half_life_days: float = 60.0

    def __post_init__(self) -> None:
        for name in (
            "repeat_gain",
            "switch_intensity",
            "resting_intensity",
            "intimacy_gain",
            "warm_intimacy_gain",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidInput(f"{name} must be in [0, 1] (got {value})")
        for name in ("idle_half_life_hours", "absence_half_life_days"):
            if not getattr(self, name) > 0.0:
                raise InvalidInput(f"{name} must be positive")
        for name in ("settle_after_hours", "absence_grace_days"):
            if not getattr(self, name) >= 0.0:
                raise InvalidInput(f"{name} must not be negative")


def _clamp_unit(value: float) -> float:
    return min(1.0, max(0.0, value))


def _half_life_factor(elapsed: float, half_life: float) -> float:
    return math.pow(0.5, elapsed / half_life)


class EmotionEngine:
    """Parses tagged replies and updates a :class:`CharacterState` for one character."""

    def __init__(
        self, profile: CharacterProfile, *, dynamics: EmotionDynamics | None = None
    ) -> None:
        self._profile = profile
        self._emotions = frozenset(profile.emotions)
        self._dynamics = dynamics if dynamics is not None else EmotionDynamics()

    @property
    def profile(self) -> CharacterProfile:
        return self._profile

    @property
    def dynamics(self) -> EmotionDynamics:
        return self._dynamics

    def resolve(self, label: str) -> str | None:
        """The character's emotion a label stands for, or ``None`` when it has none."""
        folded = fold_emotion_label(label)
        if folded in self._emotions:
            return folded
        for candidate in EMOTION_SYNONYMS.get(folded, ()):
            if candidate in self._emotions:
                return candidate
        return None

    def stream_filter(self) -> EmotionTagFilter:
        """A fresh filter for one streamed reply, resolving labels like :meth:`parse`."""
        return EmotionTagFilter(self.resolve)

    def parse(self, reply_text: str) -> ParsedReply:
        """Strip every emotion tag from a complete reply; the first valid one wins."""
        tag_filter = self.stream_filter()
        clean_text = tag_filter.feed(reply_text) + tag_filter.finish()
        return ParsedReply(clean_text, tag_filter.emotion, tag_filter.labels)

    def update(
        self,
        state: CharacterState,
        *,
        detected_emotion: str | None,
        user_message: str,
        now: datetime,
    ) -> CharacterState:
        """The state after one exchange that ended at ``now``."""
        moment = as_utc(now, name="now")
        previous = state.last_interaction_at
        elapsed_hours = 0.0
        if previous is not None:
            elapsed_hours = max(0.0, (moment - previous).total_seconds() / SECONDS_PER_HOUR)
        settled = self._after_idle(state, elapsed_hours)
        emotion, intensity = self._transition(settled, detected_emotion)
        intimacy = self._grow_intimacy(settled.intimacy, user_message)
        return replace(
            settled,
            emotion=emotion,
            emotion_intensity=intensity,
            intimacy=intimacy,
            turn_count=state.turn_count + 1,
            last_interaction_at=moment if previous is None else max(previous, moment),
        )

    def _after_idle(self, state: CharacterState, elapsed_hours: float) -> CharacterState:
        dynamics = self._dynamics
        rest = dynamics.resting_intensity
        relax = _half_life_factor(elapsed_hours, dynamics.idle_half_life_hours)
        intensity = _clamp_unit(rest + (state.emotion_intensity - rest) * relax)
        emotion = self.resolve(state.emotion) or self._profile.default_emotion
        if elapsed_hours >= dynamics.settle_after_hours and elapsed_hours > 0.0:
            emotion, intensity = self._profile.default_emotion, rest
        intimacy = state.intimacy
        absent_days = elapsed_hours / HOURS_PER_DAY - dynamics.absence_grace_days
        if absent_days > 0.0:
            fade = _half_life_factor(absent_days, dynamics.absence_half_life_days)
            intimacy = _clamp_unit(intimacy * fade)
        return replace(state, emotion=emotion, emotion_intensity=intensity, intimacy=intimacy)

    def _transition(self, state: CharacterState, detected: str | None) -> tuple[str, float]:
        emotion = self.resolve(detected) if detected is not None else None
        if emotion is None:
            return state.emotion, state.emotion_intensity
        if emotion == state.emotion:
            headroom = 1.0 - state.emotion_intensity
            return emotion, _clamp_unit(
                state.emotion_intensity + self._dynamics.repeat_gain * headroom
            )
        return emotion, self._dynamics.switch_intensity

    def _grow_intimacy(self, intimacy: float, user_message: str) -> float:
        dynamics = self._dynamics
        gain = (
            dynamics.warm_intimacy_gain if is_warm_message(user_message) else dynamics.intimacy_gain
        )
        return _clamp_unit(intimacy + gain * (1.0 - intimacy))

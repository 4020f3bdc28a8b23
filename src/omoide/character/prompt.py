"""The system prompt: a character's Jinja2 template rendered with its profile and state.

Templates are plain text (autoescape off) rendered in Jinja2's immutable sandbox with
``StrictUndefined``, so a misspelt variable is a :class:`~omoide.errors.ConfigError`
naming the template, never a silent blank. Variables a template can use:

``character``
    the profile as a mapping (``character.name``, ``character.personality``, ...).
``emotions``
    the labels the character may tag replies with.
``viewer_name``
    the viewer's display name as data: through the prompt fence (:mod:`omoide.fence`), at
    most :data:`MAX_VIEWER_NAME_CHARS` long and in double quotes (``"Minjun"``).
``state``
    ``emotion``, ``emotion_intensity``, ``intensity_word`` ("mild", "moderate", "strong"),
    ``intimacy``, ``intimacy_level`` (a word such as "friend"), ``intimacy_description``
    (how to treat this viewer), ``recent_topics`` (taken from the viewer's words, so each
    is fenced and quoted like the name), ``turn_count``, ``first_meeting`` and
    ``time_since_last_talk`` (words such as "3 days", or ``None`` before the first talk).
``reply_language``
    one sentence saying which language to answer in.
``memory_section``
    the memory module's text, already delimited, or ``""``; templates insert it only when
    it is not empty, and it is inserted as data: Jinja syntax inside it is never run.
``now``
    the current time as ``YYYY-MM-DD HH:MM UTC``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from omoide.domain import as_utc
from omoide.errors import ConfigError, InvalidInput
from omoide.fence import quoted_name, sanitise_memory_text
from omoide.store.records.character_state import CharacterState
from omoide.store.records.profile import CharacterProfile

MAX_VIEWER_NAME_CHARS: Final = 64
MAX_PROMPT_TOPIC_CHARS: Final = 40


@dataclass(frozen=True, slots=True)
class IntimacyLevel:
    """A rapport value in words: a short label and how the character should behave."""

    label: str
    description: str


INTIMACY_LEVELS: Final = (
    (0.15, IntimacyLevel("new face", "You have only just met. Be welcoming and polite.")),
    (
        0.35,
        IntimacyLevel("acquaintance", "You have talked a few times. Friendly, a bit polite."),
    ),
    (
        0.6,
        IntimacyLevel("friend", "You are friends: relaxed and casual, light teasing is fine."),
    ),
    (
        0.85,
        IntimacyLevel(
            "close friend",
            "You are close: joke freely, bring up shared moments, say you missed them.",
        ),
    ),
    (
        1.0,
        IntimacyLevel(
            "best friend",
            "You trust each other deeply: affectionate and playful, still respectful.",
        ),
    ),
)


def describe_intimacy(intimacy: float) -> IntimacyLevel:
    """The level whose upper bound is the first above ``intimacy`` (1.0 is the top)."""
    for upper_bound, level in INTIMACY_LEVELS:
        if intimacy < upper_bound:
            return level
    return INTIMACY_LEVELS[-1][1]


def describe_intensity(intensity: float) -> str:
    if intensity < 0.34:
        return "mild"
    return "moderate" if intensity < 0.67 else "strong"


def describe_elapsed(seconds: float) -> str:
    """A duration in the largest whole unit that fits: "just now", "5 minutes", "3 days"."""
    minutes = seconds / 60
    units = ((60 * 24 * 30, "month"), (60 * 24 * 7, "week"), (60 * 24, "day"), (60, "hour"))
    for unit_minutes, name in units:
        if minutes >= unit_minutes:
            count = int(minutes // unit_minutes)
            return f"{count} {name}" + ("s" if count > 1 else "")
    if minutes < 2:
        return "just now"
    return f"{int(minutes)} minutes"


def clean_viewer_name(user_name: str) -> str:
    """The viewer's name as data: fenced, bounded and quoted (it is user input)."""
    if not isinstance(user_name, str):
        raise InvalidInput("user_name must be a string")
    if not sanitise_memory_text(user_name):
        raise InvalidInput("user_name must not be empty")
    return quoted_name(user_name, MAX_VIEWER_NAME_CHARS)


def _reply_language(profile: CharacterProfile) -> str:
    if not profile.replies_in_viewer_language:
        return f"Always reply in {profile.language}, whatever language the viewer uses."
    sentence = "Reply in the language of the viewer's latest message."
    if profile.home_language:
        sentence += f" When it is unclear (emoji, a single word), use {profile.home_language}."
    return sentence


def prompt_variables(
    profile: CharacterProfile,
    state: CharacterState,
    *,
    user_name: str,
    memory_section: str,
    now: datetime,
) -> dict[str, object]:
    """Everything a system-prompt template may use (see the module docstring)."""
    moment = as_utc(now, name="now")
    level = describe_intimacy(state.intimacy)
    since = state.last_interaction_at
    elapsed = None if since is None else describe_elapsed((moment - since).total_seconds())
    return {
        "character": profile.model_dump(),
        "emotions": list(profile.emotions),
        "viewer_name": clean_viewer_name(user_name),
        "state": {
            "emotion": state.emotion,
            "emotion_intensity": round(state.emotion_intensity, 2),
            "intensity_word": describe_intensity(state.emotion_intensity),
            "intimacy": round(state.intimacy, 2),
            "intimacy_level": level.label,
            "intimacy_description": level.description,
            "recent_topics": [
                quoted_name(topic, MAX_PROMPT_TOPIC_CHARS)
                for topic in state.recent_topics
                if sanitise_memory_text(topic)
            ],
            "turn_count": state.turn_count,
            "first_meeting": since is None,
            "time_since_last_talk": elapsed,
        },
        "reply_language": _reply_language(profile),
        "memory_section": memory_section.strip(),
        "now": moment.strftime("%Y-%m-%d %H:%M UTC"),
    }


def _environment() -> ImmutableSandboxedEnvironment:
    return ImmutableSandboxedEnvironment(
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


class PromptBuilder:
    """Renders one character's system-prompt template."""

    def __init__(self, template_source: str, *, source: str = "<template>") -> None:
        self._source = source
        try:
            self._template = _environment().from_string(template_source)
        except jinja2.TemplateSyntaxError as exc:
            raise ConfigError(f"{source}: template error at line {exc.lineno}: {exc}") from exc

    @property
    def source(self) -> str:
        """Where the template came from (a path), for error messages."""
        return self._source

    def build_system_prompt(
        self,
        profile: CharacterProfile,
        state: CharacterState,
        *,
        user_name: str,
        memory_section: str,
        now: datetime,
    ) -> str:
        variables = prompt_variables(
            profile, state, user_name=user_name, memory_section=memory_section, now=now
        )
        return self.render(variables)

    def render(self, variables: Mapping[str, object]) -> str:
        """Render with explicit variables; template mistakes become ConfigError."""
        try:
            return self._template.render(variables).strip()
        except Exception as exc:  # anything a template does wrong is the template's fault
            raise ConfigError(f"{self._source}: cannot render template: {exc}") from exc

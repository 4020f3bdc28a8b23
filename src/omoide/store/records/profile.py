"""Who a character is: the profile read from ``<character_id>/profile.yaml``.

:class:`CharacterProfile` is a frozen pydantic model: it validates the YAML at the edge
(``extra="forbid"``, strings never coerced from numbers) and is immutable in the core.
Every field is a plain string, a tuple of strings or ``None``, so a profile diffs field
by field and ``CharacterProfile.model_validate(profile.model_dump()) == profile`` holds
(also through JSON: ``model_dump(mode="json")``). Identity evolution (merging the fields
a language model says changed) may touch :data:`EVOLVABLE_FIELDS` only; the
:data:`PROTECTED_FIELDS` are the character's core and ``id`` never changes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Annotated, Final

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    StringConstraints,
    ValidationError,
    model_validator,
)

from omoide.domain import check_identifier
from omoide.errors import ConfigError, InvalidInput

MATCH_VIEWER_LANGUAGE: Final = "match_viewer"
"""``language`` value meaning: answer in whatever language the viewer writes in."""

MAX_CHARACTER_ID_CHARS: Final = 64
MAX_EMOTION_LABEL_CHARS: Final = 40
MAX_LIST_ITEMS: Final = 40

DEFAULT_EMOTIONS: Final = (
    "neutral",
    "happy",
    "excited",
    "playful",
    "calm",
    "sad",
    "tired",
    "nervous",
    "concerned",
    "angry",
    "surprised",
    "shy",
    "affectionate",
)

PROTECTED_FIELDS: Final = frozenset({"name", "core_values", "safety_rules"})
"""Core fields that identity evolution leaves alone unless an operator opts in."""

IDENTITY_FIELD: Final = "id"
"""Names the character's folder; never changed by any merge."""

_UNSAFE_ID_CHARACTERS = re.compile(r"[/\\:*?\"<>|]")
_LABEL_SEPARATORS = re.compile(r"[\s\-]+")
_LABEL_FORBIDDEN = re.compile(r"[\[\]［］【】:：]")
_LABEL_QUOTES = "\"'`「」『』“”‘’"


def check_character_id(value: str) -> str:
    """Validate a character id that names a folder: no separators, no traversal."""
    check_identifier(value, name="character_id")
    if value != value.strip():
        raise InvalidInput("character_id must not start or end with whitespace")
    if len(value) > MAX_CHARACTER_ID_CHARS:
        raise InvalidInput(f"character_id is longer than {MAX_CHARACTER_ID_CHARS} characters")
    if value.startswith("."):
        raise InvalidInput(f"character_id must not start with a dot (got {value!r})")
    if _UNSAFE_ID_CHARACTERS.search(value):
        raise InvalidInput(f"character_id must not contain path separators (got {value!r})")
    if any(unicodedata.category(char).startswith("C") for char in value):
        raise InvalidInput("character_id must not contain control characters")
    return value


def fold_emotion_label(raw: str) -> str:
    """The comparable form of an emotion label: trimmed, case-folded, ``_`` for spaces."""
    trimmed = raw.strip().strip(_LABEL_QUOTES).strip()
    return _LABEL_SEPARATORS.sub("_", unicodedata.normalize("NFKC", trimmed).casefold())


def _check_emotion_label(raw: str) -> str:
    label = fold_emotion_label(raw)
    if not label:
        raise ValueError("emotion labels must not be empty")
    if len(label) > MAX_EMOTION_LABEL_CHARS:
        raise ValueError(f"emotion label {label!r} is longer than {MAX_EMOTION_LABEL_CHARS}")
    if _LABEL_FORBIDDEN.search(label):
        raise ValueError(f"emotion label {label!r} must not contain brackets or colons")
    return label


def _check_profile_id(value: str) -> str:
    try:
        return check_character_id(value)
    except InvalidInput as exc:
        raise ValueError(str(exc)) from exc


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=4000)]
Entry = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=600)]
Language = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=40)]
EmotionLabel = Annotated[str, AfterValidator(_check_emotion_label)]
CharacterId = Annotated[str, AfterValidator(_check_profile_id)]


class CharacterProfile(BaseModel):
    """A character's identity, as the operator wrote it (and evolution later refines)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: CharacterId
    name: Name
    background: Text = ""
    personality: tuple[Entry, ...] = ()
    likes: tuple[Entry, ...] = ()
    dislikes: tuple[Entry, ...] = ()
    speaking_style: Text = ""
    distance_to_viewers: Text = ""
    """How close and familiar the character is with viewers, in the operator's words."""
    emotions: tuple[EmotionLabel, ...] = DEFAULT_EMOTIONS
    """Labels the character may show; replies are tagged ``[EMOTION:<label>]``."""
    default_emotion: EmotionLabel = "neutral"
    """The resting emotion: where a new relationship starts and a long idle returns to."""
    core_values: tuple[Entry, ...] = ()
    safety_rules: tuple[Entry, ...] = ()
    language: Language = MATCH_VIEWER_LANGUAGE
    """Default reply language (a name or code), or ``match_viewer``."""
    home_language: Language | None = None
    """The character's own first language: used when the viewer's language is unclear."""

    @model_validator(mode="after")
    def _check_consistency(self) -> CharacterProfile:
        if not self.emotions:
            raise ValueError("emotions must list at least one label")
        duplicates = sorted({label for label in self.emotions if self.emotions.count(label) > 1})
        if duplicates:
            raise ValueError(f"emotions lists {', '.join(duplicates)} more than once")
        if self.default_emotion not in self.emotions:
            raise ValueError(f"default_emotion {self.default_emotion!r} is not among emotions")
        for field_name in ("personality", "likes", "dislikes", "core_values", "safety_rules"):
            if len(getattr(self, field_name)) > MAX_LIST_ITEMS:
                raise ValueError(f"{field_name} has more than {MAX_LIST_ITEMS} entries")
        return self

    @property
    def replies_in_viewer_language(self) -> bool:
        return self.language.casefold() == MATCH_VIEWER_LANGUAGE


EVOLVABLE_FIELDS: Final = tuple(
    name
    for name in CharacterProfile.model_fields
    if name not in PROTECTED_FIELDS and name != IDENTITY_FIELD
)
"""Fields an identity-evolution merge may change by default, in declaration order."""


def describe_validation_error(exc: ValidationError) -> str:
    """One line per problem, each naming the field (``emotions.2``) it concerns."""
    problems = []
    for error in exc.errors():
        location = ".".join(str(part) for part in error["loc"]) or "(profile)"
        problems.append(f"field {location!r}: {error['msg']}")
    return "; ".join(problems)


def parse_profile(data: object, *, source: str) -> CharacterProfile:
    """Validate ``data`` (parsed YAML or JSON) as a profile; errors name ``source``."""
    if not isinstance(data, Mapping):
        kind = type(data).__name__
        raise ConfigError(f"{source}: a profile must be a mapping of fields (got {kind})")
    try:
        return CharacterProfile.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(f"{source}: {describe_validation_error(exc)}") from exc

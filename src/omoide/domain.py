"""Domain values: frozen dataclasses shared by every layer.

Times are timezone-aware UTC everywhere; :func:`as_utc` is the one gate that enforces it.
Importance (salience: how much a memory mattered) and confidence (how likely a fact is
true) are separate fields wherever both apply.
"""

from __future__ import annotations

import enum
import math
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from omoide.errors import InvalidInput
from omoide.metadata import Metadata, MetadataValue, check_metadata
from omoide.text_rules import MAX_ID_LENGTH, check_text

MAX_MESSAGE_CHARS = 100_000
"""A user or bot message may be this long (a pasted text is real input)."""
FUTURE_TOLERANCE = timedelta(minutes=5)
"""How far after the clock's now a turn may be dated (clocks drift; the future is refused)."""
MAX_TOPICS = 32

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Vector = NDArray[np.float32]
    """One embedding: a 1-d float32 array."""
    Matrix = NDArray[np.float32]
    """Several embeddings, one per row."""


def __getattr__(name: str) -> Any:
    """``Vector`` and ``Matrix`` at run time, made when first asked for: code that only
    reads records (the CLI's read commands) does not import numpy."""
    if name in ("Vector", "Matrix"):
        import numpy as np
        from numpy.typing import NDArray

        alias = NDArray[np.float32]
        globals()[name] = alias
        return alias
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def as_utc(moment: datetime, *, name: str = "timestamp") -> datetime:
    """Return ``moment`` in UTC; naive datetimes are refused, never guessed."""
    if moment.tzinfo is UTC:  # what every stored time is: astimezone would return it
        return moment
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidInput(f"{name} must be timezone-aware (got naive {moment.isoformat()})")
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise InvalidInput(f"{name} {moment.isoformat()} is outside the range of times") from None


class _IdSequence:
    """Identifiers in the order they are made: a 48-bit millisecond time that never goes
    back, a 32-bit counter, 48 random bits (unique across processes); 32 hex digits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._milliseconds = 0
        self._count = 0

    def next(self) -> str:
        with self._lock:
            self._milliseconds = max(self._milliseconds, time.time_ns() // 1_000_000)
            self._count = (self._count + 1) % (1 << 32)
            milliseconds, count = self._milliseconds, self._count
        return f"{milliseconds:012x}{count:08x}{secrets.randbits(48):012x}"


_IDS = _IdSequence()


def new_id() -> str:
    """A fresh identifier for a stored memory, later (as a string) than every one this
    process made before.

    Stores order memories recorded at the same moment by id (the facts one message
    told): with ids in the order they were made, that order, and every decision taken on
    it, is the same on every run, where random ids (uuid4) made it a coin toss.
    """
    return _IDS.next()


def check_identifier(value: str, *, name: str) -> str:
    """Validate an identifier as stored (character, viewer, session).

    Ids a caller chooses at an edge (the API, stream events) follow the stricter
    :func:`omoide.text_rules.check_id`, so that every route can reach them; this looser
    rule also admits ids stored before it existed.
    """
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    if not value or not value.strip():
        raise InvalidInput(f"{name} must not be empty")
    if len(value) > MAX_ID_LENGTH:
        raise InvalidInput(f"{name} is longer than {MAX_ID_LENGTH} characters")
    if "\x00" in value:
        raise InvalidInput(f"{name} must not contain NUL characters")
    if any("\ud800" <= character <= "\udfff" for character in value):
        raise InvalidInput(f"{name} must not contain lone surrogates")
    return value


def check_unit_interval(value: float, *, name: str) -> float:
    """Validate a score that must lie in [0, 1]."""
    if type(value) is float and 0.0 <= value <= 1.0:  # every decoded row: no other check
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number in [0, 1]")
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be in [0, 1] (got {value})")
    return float(value)


@dataclass(frozen=True, slots=True, order=True)
class Scope:
    """Who a memory belongs to: a character and, where it applies, one viewer.

    ``user_id=None`` is the character's own memory (its diary); it is never a wildcard.
    """

    character_id: str
    user_id: str | None = None

    def __post_init__(self) -> None:
        check_identifier(self.character_id, name="character_id")
        if self.user_id is not None:
            check_identifier(self.user_id, name="user_id")

    @property
    def is_character_wide(self) -> bool:
        return self.user_id is None

    def __str__(self) -> str:
        viewer = self.user_id if self.user_id is not None else "(character)"
        return f"{self.character_id}/{viewer}"


class FactCategory(enum.StrEnum):
    """The type of a semantic fact; the prompt picks types that fit the topic."""

    PREFERENCE = "preference"
    PERSONAL = "personal"
    EMOTION = "emotion"
    HABIT = "habit"
    GOAL = "goal"


class TrustState(enum.StrEnum):
    """How a fact came to be believed."""

    STATED = "stated"
    INFERRED = "inferred"
    CONFIRMED = "confirmed"
    CONTRADICTED = "contradicted"


class ScoringMethod(enum.StrEnum):
    """How an episode's importance was decided."""

    RULES = "rules"
    LLM = "llm"
    UNSCORED = "unscored"  # the LLM pass failed twice: the rule score stands, marked
    GIVEN = "given"  # supplied by the caller (imports, force_store)


class MemoryKind(enum.StrEnum):
    EPISODE = "episode"
    FACT = "fact"
    EMOTION = "emotion"
    VIEWER = "viewer"
    CHARACTER = "character"


@dataclass(frozen=True, slots=True)
class Episode:
    """One exchange between a viewer and the character."""

    id: str
    scope: Scope
    user_message: str
    bot_message: str
    recorded_at: datetime
    importance: float
    emotion: str = "neutral"
    emotion_intensity: float = 0.5
    topics: tuple[str, ...] = ()
    scoring: ScoringMethod = ScoringMethod.RULES
    last_recalled_at: datetime | None = None
    recall_count: int = 0
    archived_at: datetime | None = None
    metadata: Metadata = field(default_factory=dict)
    readings: str | None = field(default=None, compare=False, repr=False)
    """What the reply path reads from the two messages, read by this library when the
    episode was written and kept with it (:mod:`omoide.memory.episode_readings` writes and
    reads the text); ``None``: not kept, read from the messages. Derived from the
    messages, so not part of the episode's value (equality) or of any API shape."""

    def __post_init__(self) -> None:
        check_unit_interval(self.importance, name="importance")
        check_unit_interval(self.emotion_intensity, name="emotion_intensity")
        as_utc(self.recorded_at, name="recorded_at")

    @property
    def searchable_text(self) -> str:
        return f"{self.user_message}\n{self.bot_message}".strip()


MAX_SLOT_CHARS = 120
MAX_TERMS = 16
MAX_TERM_CHARS = 200


def check_fact_slot(slot: str | None, terms: tuple[str, ...]) -> None:
    """A fact's slot is None or a short non-blank string; terms a short tuple of strings."""
    if slot is not None and (
        not isinstance(slot, str) or not slot.strip() or len(slot) > MAX_SLOT_CHARS
    ):
        raise InvalidInput(f"a fact slot must be a non-blank string of at most {MAX_SLOT_CHARS}")
    if not isinstance(terms, tuple) or len(terms) > MAX_TERMS:
        raise InvalidInput(f"fact terms must be a tuple of at most {MAX_TERMS} strings")
    for term in terms:
        if not isinstance(term, str) or not term.strip() or len(term) > MAX_TERM_CHARS:
            raise InvalidInput(
                f"each fact term must be a non-blank string of at most {MAX_TERM_CHARS}"
            )


@dataclass(frozen=True, slots=True)
class Fact:
    """Something believed about a viewer, with its provenance and validity times."""

    id: str
    scope: Scope
    text: str
    category: FactCategory
    confidence: float
    salience: float
    recorded_at: datetime
    valid_from: datetime
    trust: TrustState = TrustState.STATED
    confirmation_count: int = 1
    valid_to: datetime | None = None
    superseded_at: datetime | None = None
    supersedes: str | None = None
    source_episode_ids: tuple[str, ...] = ()
    last_recalled_at: datetime | None = None
    recall_count: int = 0
    slot: str | None = None
    """What the fact fills ("home", "pet:<species>", "like:<object>"): a later fact of the
    same slot updates it (see ``omoide.memory.facts.text``); None when untyped."""
    terms: tuple[str, ...] = ()
    """Key terms as the viewer said them: names, objects, places, dates."""

    def __post_init__(self) -> None:
        check_unit_interval(self.confidence, name="confidence")
        check_unit_interval(self.salience, name="salience")
        as_utc(self.recorded_at, name="recorded_at")
        as_utc(self.valid_from, name="valid_from")
        check_fact_slot(self.slot, self.terms)

    @property
    def is_current(self) -> bool:
        return self.superseded_at is None and self.trust is not TrustState.CONTRADICTED


@dataclass(frozen=True, slots=True)
class EmotionRecord:
    """How a viewer felt in one exchange, and what triggered it."""

    id: str
    scope: Scope
    emotion: str
    intensity: float
    recorded_at: datetime
    trigger_topics: tuple[str, ...] = ()
    episode_id: str | None = None

    def __post_init__(self) -> None:
        check_unit_interval(self.intensity, name="intensity")
        as_utc(self.recorded_at, name="recorded_at")


@dataclass(frozen=True, slots=True)
class Tombstone:
    """What remains of a deleted memory: never its content."""

    memory_id: str
    kind: MemoryKind
    scope: Scope
    deleted_at: datetime
    reason: str


@dataclass(frozen=True, slots=True)
class ViewerSummary:
    """A viewer as seen from a character: counts and last activity.

    ``episode_count`` counts the episodes retrieval sees (not archived), as the episode
    list does by default; ``archived_episode_count`` those decay archived."""

    scope: Scope
    episode_count: int
    fact_count: int
    last_seen_at: datetime | None
    archived_episode_count: int = 0
    display_name: str | None = None
    """The name the viewer went by most recently (chat ``user_name``, a stream comment's
    ``display_name``), if any was given."""


@dataclass(frozen=True, slots=True)
class DisplayName:
    """A name a viewer went by, and when it was first and last seen."""

    name: str
    first_seen_at: datetime
    last_seen_at: datetime


@dataclass(frozen=True, slots=True)
class ScopeExport:
    """Everything stored about one scope."""

    scope: Scope
    episodes: tuple[Episode, ...]
    facts: tuple[Fact, ...]
    emotions: tuple[EmotionRecord, ...]
    tombstones: tuple[Tombstone, ...]
    display_names: tuple[DisplayName, ...] = ()
    """The names the viewer went by, most recently seen first."""


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What a delete removed, by kind."""

    scope: Scope
    episodes: int
    facts: int
    emotions: int


@dataclass(frozen=True, slots=True)
class TurnState:
    """The character's reading of the viewer in this exchange (from its emotion engine)."""

    emotion: str = "neutral"
    emotion_intensity: float = 0.5
    topics: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.emotion.strip():
            raise InvalidInput("emotion must not be empty")
        check_text(self.emotion, name="emotion", one_line=True)
        for topic in self.topics:
            check_text(topic, name="topic", one_line=True)
        check_unit_interval(self.emotion_intensity, name="emotion_intensity")
        if len(self.topics) > MAX_TOPICS:
            raise InvalidInput(f"at most {MAX_TOPICS} topics per turn")


@dataclass(frozen=True, slots=True)
class TurnInput:
    """One exchange to remember."""

    scope: Scope
    user_message: str
    bot_message: str = ""
    state: TurnState = field(default_factory=TurnState)
    timestamp: datetime | None = None
    metadata: Mapping[str, MetadataValue] = field(default_factory=dict)
    force_store: bool = False
    importance: float | None = None
    user_name: str | None = None
    turn_id: str | None = None

    def __post_init__(self) -> None:
        if self.turn_id is not None:
            check_identifier(self.turn_id, name="turn_id")
        if self.user_name is not None:
            check_identifier(self.user_name, name="user_name")
            check_text(self.user_name, name="user_name", one_line=True)
        if self.scope.is_character_wide:
            raise InvalidInput("a turn belongs to a viewer: scope.user_id is required")
        check_message(self.user_message, name="user_message", allow_empty=True)
        check_message(self.bot_message, name="bot_message", allow_empty=True)
        if not self.user_message.strip() and not self.bot_message.strip():
            raise InvalidInput("user_message and bot_message must not both be empty")
        check_metadata(self.metadata)
        if self.importance is not None:
            check_unit_interval(self.importance, name="importance")


def check_message(text: str, *, name: str, allow_empty: bool) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"{name} must be a string")
    if not allow_empty and not text.strip():
        raise InvalidInput(f"{name} must not be empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(
            f"{name} is {len(text):,} characters long; the limit is {MAX_MESSAGE_CHARS:,}"
        )
    return check_text(text, name=name)


def check_not_future(moment: datetime, *, now: datetime, name: str = "timestamp") -> datetime:
    """``moment`` in UTC, refused when it is more than :data:`FUTURE_TOLERANCE` after ``now``
    (a memory dated in the future is invisible to every search until then)."""
    moment = as_utc(moment, name=name)
    if moment > now + FUTURE_TOLERANCE:
        minutes = int(FUTURE_TOLERANCE.total_seconds() // 60)
        raise InvalidInput(
            f"{name} {moment.isoformat()} is in the future: the server's time is "
            f"{as_utc(now, name='now').isoformat()} (at most {minutes} minutes ahead is accepted)"
        )
    return moment

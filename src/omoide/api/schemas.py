"""Request bodies: strict (no silent type coercion, no unknown fields), documented.

Times must be timezone-aware ISO 8601 (``2026-05-01T12:00:00+09:00`` or ``...Z``); a naive
time is refused, never guessed. Limits mirror the library's, so the API refuses what the
library would refuse, with a message that names the field.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    WithJsonSchema,
    model_validator,
)

from omoide.chat.conversation import MAX_CHAT_MESSAGE_CHARS
from omoide.domain import (
    MAX_MESSAGE_CHARS,
    MAX_METADATA_CHARS,
    MAX_METADATA_KEYS,
    MAX_TOPICS,
    FactCategory,
    MetadataValue,
    Scope,
    TurnInput,
    TurnState,
    as_utc,
    check_metadata,
    check_not_future,
)
from omoide.errors import InvalidInput
from omoide.memory.decay import MAX_RESTORE_IDS
from omoide.memory.facts.corrections import MAX_FACT_CHARS
from omoide.text_rules import MAX_ID_LENGTH, moment_problem
from omoide.wire_types import Identifier, Label, Moment, Text

MAX_BATCH_TURNS = 1000
MAX_BATCH_CHARS = 2_000_000
"""Characters of all messages of one batch together: 1000 turns of 2,000 characters, or ten
exchanges whose two messages are at the 100,000-character limit (a body of ~2-8 MB)."""
MAX_QUERY_CHARS = 8000
"""What a search or context query may be: a message to look up, not a document."""
MAX_SEARCH_RESULTS = 100
MAX_TOKEN_BUDGET = 8192
MAX_EMOTION_CHARS = 64
MAX_TOPIC_CHARS = 100
MAX_OFFSET = 1_000_000_000
"""How far into a list a page may start: beyond any real list, within SQLite's integers."""
ViewerName = Annotated[Label, Field(min_length=1, max_length=MAX_ID_LENGTH)]
"""A display name: any text on one line (a name is not an id: ``AC/DC`` is fine)."""
_DECODED_PLUS = re.compile(r" (\d{2}(?::?\d{2})?)$")
"""An offset whose ``+`` a query string turned into a space: ``12:00:00 09:00``."""


def parse_moment(text: str, *, name: str) -> datetime:
    """A timezone-aware ISO 8601 time from a query parameter; InvalidInput otherwise."""
    repaired = _DECODED_PLUS.sub(r"+\1", text.strip())
    try:
        moment = datetime.fromisoformat(repaired)
    except ValueError as exc:
        raise InvalidInput(
            f"{name} must be an ISO 8601 time with a timezone, e.g. 2026-05-01T12:00:00Z "
            f"(got {text[:64]!r})"
        ) from exc
    utc = as_utc(moment, name=name)
    problem = moment_problem(utc)
    if problem is not None:
        raise InvalidInput(f"{name} {problem}")
    return utc


def _flat_metadata(value: dict[str, Any]) -> dict[str, MetadataValue]:
    """A flat JSON object: string keys, values string, number, bool or null, bounded."""
    for key, item in value.items():
        if isinstance(item, dict | list):
            kind = "an object" if isinstance(item, dict) else "a list"
            raise ValueError(
                f"metadata value for {key[:40]!r} is {kind}; metadata must be a flat object "
                "whose values are strings, numbers, booleans or null"
            )
    try:
        return check_metadata(value)
    except InvalidInput as exc:
        raise ValueError(str(exc)) from None


FlatMetadata = Annotated[
    dict[str, Any],
    AfterValidator(_flat_metadata),
    WithJsonSchema(
        {
            "type": "object",
            "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
            "maxProperties": MAX_METADATA_KEYS,
            "description": (
                "A flat JSON object, returned unchanged with every search hit; keys and "
                f"string values hold at most {MAX_METADATA_CHARS:,} characters together"
            ),
            "examples": [{"source": "twitch", "message_id": "m-1842", "subscriber": True}],
        }
    ),
]


class StrictBody(BaseModel):
    """Unknown fields are refused; strings, numbers and booleans are never coerced.

    Times and enums parse from their JSON strings (they have no JSON type of their own).
    """

    model_config = ConfigDict(extra="forbid")


class ChatBody(StrictBody):
    """One viewer message to a character; the reply streams back as server-sent events."""

    character_id: Identifier = Field(examples=["haru"])
    user_id: Identifier = Field(description="Stable viewer id", examples=["twitch:minjun"])
    user_name: ViewerName = Field(description="How the character addresses the viewer")
    session_id: Identifier = Field(description="Short-term history is kept per session")
    message: Text = Field(min_length=1, max_length=MAX_CHAT_MESSAGE_CHARS)

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "character_id": "haru",
                    "user_id": "twitch:minjun",
                    "user_name": "민준",
                    "session_id": "stream-2026-05-01",
                    "message": "나 롤 게임 엄청 좋아해요!",
                }
            ]
        }
    )


class TurnBody(StrictBody):
    """One exchange to remember now (imports, or a chat pipeline of your own)."""

    user_message: Text = Field(
        max_length=MAX_MESSAGE_CHARS,
        description="May be empty when bot_message is not (an import that starts with the bot)",
    )
    bot_message: Text = Field(default="", max_length=MAX_MESSAGE_CHARS)
    timestamp: Moment | None = Field(
        default=None,
        description="When it was said (default: now); at most 5 minutes after the server's time",
    )
    emotion: Label = Field(default="neutral", min_length=1, max_length=MAX_EMOTION_CHARS)
    emotion_intensity: StrictFloat = Field(default=0.5, ge=0.0, le=1.0)
    topics: list[Annotated[Label, Field(min_length=1, max_length=MAX_TOPIC_CHARS)]] = Field(
        default_factory=list, max_length=MAX_TOPICS
    )
    metadata: FlatMetadata = Field(default_factory=dict)
    force_store: StrictBool = Field(default=False, description="Store even if it seems unimportant")
    importance: StrictFloat | None = Field(
        default=None, ge=0.0, le=1.0, description="Your own importance score (skips scoring)"
    )
    user_name: ViewerName | None = Field(default=None, description="Helps fact extraction")

    @model_validator(mode="after")
    def _something_said(self) -> Self:
        if not self.user_message.strip() and not self.bot_message.strip():
            raise ValueError("user_message and bot_message must not both be empty")
        return self

    @property
    def characters(self) -> int:
        return len(self.user_message) + len(self.bot_message)

    def to_turn(self, scope: Scope, *, now: datetime) -> TurnInput:
        """The library's turn; raises InvalidInput for what only the library checks, and
        for a timestamp more than 5 minutes after ``now`` (the server's time)."""
        moment = self.timestamp
        return TurnInput(
            scope=scope,
            user_message=self.user_message,
            bot_message=self.bot_message,
            state=TurnState(self.emotion, self.emotion_intensity, tuple(self.topics)),
            timestamp=check_not_future(moment, now=now) if moment is not None else None,
            metadata=dict(self.metadata),
            force_store=self.force_store,
            importance=self.importance,
            user_name=self.user_name,
        )

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "user_message": "I finally beat the Elden Ring DLC last night!",
                    "bot_message": "No way, congratulations!",
                    "timestamp": "2026-05-01T21:30:00+09:00",
                    "emotion": "excited",
                    "emotion_intensity": 0.8,
                    "metadata": {"source": "twitch", "message_id": "m-1842"},
                }
            ]
        }
    )


class TurnBatchBody(StrictBody):
    """Exchanges stored in one transaction: all of them, or (on any error) none."""

    turns: list[TurnBody] = Field(min_length=1, max_length=MAX_BATCH_TURNS)

    @model_validator(mode="after")
    def _bounded(self) -> Self:
        total = sum(turn.characters for turn in self.turns)
        if total > MAX_BATCH_CHARS:
            raise ValueError(
                f"the batch's messages hold {total:,} characters; the limit is "
                f"{MAX_BATCH_CHARS:,} per batch (send it in smaller batches)"
            )
        return self


class SearchBody(StrictBody):
    query: Text = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    k: StrictInt = Field(default=10, ge=1, le=MAX_SEARCH_RESULTS, description="Limits both lists")
    now: Moment | None = Field(default=None, description="Rank as if it were this time")


class ContextBody(StrictBody):
    query: Text = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    now: Moment | None = None
    token_budget: StrictInt | None = Field(default=None, ge=0, le=MAX_TOKEN_BUDGET)


class FactBody(StrictBody):
    """A fact a person states about the viewer; stored as confirmed."""

    text: Text = Field(
        min_length=1, max_length=MAX_FACT_CHARS, examples=["likes League of Legends"]
    )
    category: FactCategory
    confidence: StrictFloat = Field(default=0.9, ge=0.0, le=1.0)
    salience: StrictFloat = Field(default=0.6, ge=0.0, le=1.0)


class FactPatch(StrictBody):
    """A correction: a new text supersedes the old version, which is kept, closed."""

    text: Text | None = Field(default=None, min_length=1, max_length=MAX_FACT_CHARS)
    category: FactCategory | None = None
    confidence: StrictFloat | None = Field(default=None, ge=0.0, le=1.0)
    salience: StrictFloat | None = Field(default=None, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _something_to_change(self) -> Self:
        if all(value is None for value in (self.text, self.category, self.confidence)) and (
            self.salience is None
        ):
            raise ValueError("give at least one of text, category, confidence, salience")
        return self


class DecayBody(StrictBody):
    character_id: Identifier
    now: Moment | None = None
    purge_archived_before: Moment | None = Field(
        default=None, description="Also destroy memories archived before this time"
    )
    dry_run: StrictBool = Field(
        default=False,
        description="Only count (and list the first ids of) what would be archived and "
        "purged; nothing changes",
    )


class RestoreBody(StrictBody):
    character_id: Identifier
    episode_ids: list[Identifier] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_RESTORE_IDS,
        description="Archived episodes to bring back (any scope of the character)",
    )
    archived_since: Moment | None = Field(
        default=None,
        description="Bring back every episode archived at or after this time (a decay "
        "run's `now` undoes that run); with episode_ids, only those of them",
    )

    @model_validator(mode="after")
    def _names_something(self) -> Self:
        if self.episode_ids is None and self.archived_since is None:
            raise ValueError("give episode_ids or archived_since")
        return self

"""omoide (思い出): long-term memory for AI VTubers and AI companions."""

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    Scope,
    ScoringMethod,
    Tombstone,
    TrustState,
)
from omoide.errors import (
    AccessDenied,
    BackendError,
    BackendUnavailable,
    ConfigError,
    Conflict,
    InvalidInput,
    NotFound,
    OmoideError,
    ParseFailure,
)

__all__ = [
    "AccessDenied",
    "BackendError",
    "BackendUnavailable",
    "ConfigError",
    "Conflict",
    "EmotionRecord",
    "Episode",
    "Fact",
    "FactCategory",
    "InvalidInput",
    "NotFound",
    "OmoideError",
    "ParseFailure",
    "Scope",
    "ScoringMethod",
    "Tombstone",
    "TrustState",
]

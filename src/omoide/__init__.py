"""omoide (思い出): long-term memory for AI VTubers and AI companions.

Start with :func:`build` (from :class:`Settings`) and use ``app.memory``, a
:class:`MemoryManager`: ``store_interaction`` and ``retrieve_context`` take a :class:`Scope`.
"""

from omoide.config import Settings
from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    Scope,
    ScoringMethod,
    Tombstone,
    TrustState,
    TurnInput,
    TurnState,
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
from omoide.memory.manager import MemoryManager
from omoide.memory.turns import StoredTurn
from omoide.wiring import Omoide, build

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
    "MemoryManager",
    "NotFound",
    "Omoide",
    "OmoideError",
    "ParseFailure",
    "Scope",
    "ScoringMethod",
    "Settings",
    "StoredTurn",
    "Tombstone",
    "TrustState",
    "TurnInput",
    "TurnState",
    "build",
]

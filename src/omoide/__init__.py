"""omoide (思い出): long-term memory for AI VTubers and AI companions.

Start with :func:`build` (from :class:`Settings`) and use ``app.memory``, a
:class:`MemoryManager`: ``store_interaction`` and ``retrieve_context`` take a :class:`Scope`.

The names below are imported when first used, so that ``import omoide.<module>`` (the
``omoide`` command, for one) does not load the embedder, the store and pydantic with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

_HOMES = {
    "omoide.config": ("Settings",),
    "omoide.domain": (
        "EmotionRecord",
        "Episode",
        "Fact",
        "FactCategory",
        "Scope",
        "ScoringMethod",
        "Tombstone",
        "TrustState",
        "TurnInput",
        "TurnState",
    ),
    "omoide.errors": (
        "AccessDenied",
        "BackendError",
        "BackendUnavailable",
        "ConfigError",
        "Conflict",
        "InvalidInput",
        "NotFound",
        "OmoideError",
        "ParseFailure",
    ),
    "omoide.memory.manager": ("MemoryManager",),
    "omoide.memory.turns": ("StoredTurn",),
    "omoide.wiring": ("Omoide", "build"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

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


def __getattr__(name: str) -> object:
    """``omoide.Scope`` and the other public names, imported on first use."""
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'omoide' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

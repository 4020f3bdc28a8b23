from __future__ import annotations

import omoide

EXPECTED = {
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
}


def test_public_api_is_pinned() -> None:
    assert set(omoide.__all__) == EXPECTED
    for name in omoide.__all__:
        assert getattr(omoide, name) is not None


def test_every_error_is_an_omoide_error() -> None:
    for name in [
        "AccessDenied",
        "BackendError",
        "BackendUnavailable",
        "ConfigError",
        "Conflict",
        "InvalidInput",
        "NotFound",
        "ParseFailure",
    ]:
        assert issubclass(getattr(omoide, name), omoide.OmoideError)
    assert issubclass(omoide.BackendUnavailable, omoide.BackendError)
    assert issubclass(omoide.ParseFailure, omoide.BackendError)

"""Where a character starts with a viewer (the state itself:
:mod:`omoide.store.records.character_state`)."""

from __future__ import annotations

from omoide.store.records.character_state import CharacterState
from omoide.store.records.profile import CharacterProfile


def initial_state(profile: CharacterProfile) -> CharacterState:
    """Where a character starts with a viewer it has never met."""
    return CharacterState(emotion=profile.default_emotion)

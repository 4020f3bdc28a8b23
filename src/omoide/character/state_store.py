"""Where character states live between exchanges.

The durable implementation belongs to the SQLite store (one table, written with
:func:`~omoide.character.state.state_to_json`); :class:`InMemoryCharacterStateStore` is for
tests and demos and forgets everything when the process ends.
"""

from __future__ import annotations

from typing import Protocol

from omoide.character.state import CharacterState
from omoide.domain import Scope


class CharacterStateStore(Protocol):
    """Keeps one :class:`CharacterState` per scope (a character and one viewer)."""

    async def load(self, scope: Scope) -> CharacterState | None:
        """The saved state, or ``None`` when the character has not met this viewer."""
        ...

    async def save(self, scope: Scope, state: CharacterState) -> None: ...

    async def delete(self, scope: Scope) -> None:
        """Forget the state; deleting a state that does not exist is not an error."""
        ...


class InMemoryCharacterStateStore:
    """A dictionary behind the store protocol: for tests and demos only."""

    def __init__(self) -> None:
        self._states: dict[Scope, CharacterState] = {}

    async def load(self, scope: Scope) -> CharacterState | None:
        return self._states.get(scope)

    async def save(self, scope: Scope, state: CharacterState) -> None:
        self._states[scope] = state

    async def delete(self, scope: Scope) -> None:
        self._states.pop(scope, None)

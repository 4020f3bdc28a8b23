"""Where character states live between exchanges.

The durable implementations keep one JSON row per scope, written with
:func:`~omoide.store.records.character_state.state_to_json`:
:class:`~omoide.store.sqlite.character_states.SqliteCharacterStateStore` and
:class:`~omoide.store.server.states.PostgresCharacterStateStore`.
:class:`InMemoryCharacterStateStore` is for tests and demos and forgets everything when
the process ends.
"""

from __future__ import annotations

from typing import Protocol

from omoide.domain import Scope
from omoide.store.records.character_state import CharacterState


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

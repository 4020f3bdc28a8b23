"""Short-term memory: the last exchanges of each session, bounded in turns and sessions."""

from __future__ import annotations

from collections import OrderedDict, deque

from omoide.domain import Scope, check_identifier
from omoide.llm.base import ChatMessage


class SessionHistory:
    """Recent messages per (scope, session), least recently used sessions dropped first.

    The key includes the scope: a session id reused by another viewer or character never
    sees someone else's conversation.
    """

    def __init__(self, *, max_turns: int = 10, max_sessions: int = 10_000) -> None:
        self._max_messages = max_turns * 2
        self._max_sessions = max_sessions
        self._sessions: OrderedDict[tuple[Scope, str], deque[ChatMessage]] = OrderedDict()

    def messages(self, scope: Scope, session_id: str) -> list[ChatMessage]:
        key = (scope, check_identifier(session_id, name="session_id"))
        found = self._sessions.get(key)
        if found is None:
            return []
        self._sessions.move_to_end(key)
        return list(found)

    def append(self, scope: Scope, session_id: str, user: str, assistant: str) -> None:
        key = (scope, check_identifier(session_id, name="session_id"))
        history = self._sessions.setdefault(key, deque(maxlen=self._max_messages))
        history.append(ChatMessage("user", user))
        history.append(ChatMessage("assistant", assistant))
        self._sessions.move_to_end(key)
        while len(self._sessions) > self._max_sessions:
            self._sessions.popitem(last=False)

    def of_viewer(self, scope: Scope) -> dict[str, list[ChatMessage]]:
        """Every session of a viewer, by session id (for an export)."""
        return {key[1]: list(found) for key, found in self._sessions.items() if key[0] == scope}

    def forget(self, scope: Scope) -> None:
        """Drop every session of a viewer (when the viewer is forgotten)."""
        for key in [key for key in self._sessions if key[0] == scope]:
            del self._sessions[key]

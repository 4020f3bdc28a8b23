"""Short-term memory: the last exchanges of each session, bounded in turns and sessions,
and the turns clients that keep their own history sent lately (:class:`ClientTurns`)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict, deque
from datetime import datetime, timedelta

from omoide.chat.client import ClientHistory
from omoide.domain import Scope, check_identifier
from omoide.llm.base import ChatMessage

REPEAT_WINDOW = timedelta(hours=1)
"""How long a client's resent turn counts as the same turn (regenerate, swipe, continue)."""
REMEMBERED_TURNS = 4096


class ClientTurns:
    """The turns clients sent lately, to tell a new turn from the same one sent again.

    A frontend that regenerates or swipes a reply sends the very same conversation again:
    the same last user message after the same history. That is not the viewer saying it
    twice, so it is stored once (the reply still streams). A viewer who does say the same
    words again says them after a longer history: a new turn. Kept in memory as digests,
    bounded (:data:`REMEMBERED_TURNS`, oldest first out) and for :data:`REPEAT_WINDOW`;
    after a restart a resent turn is stored once more.
    """

    def __init__(self, *, window: timedelta = REPEAT_WINDOW, size: int = REMEMBERED_TURNS) -> None:
        self._window = window
        self._size = size
        self._seen: OrderedDict[tuple[Scope, str], datetime] = OrderedDict()

    def is_repeat(self, scope: Scope, client: ClientHistory, message: str, now: datetime) -> bool:
        """Whether this turn was sent within the window; remembers it either way."""
        key = (scope, _turn_digest(client, message))
        seen = self._seen.pop(key, None)
        repeated = seen is not None and now - seen <= self._window
        self._seen[key] = seen if seen is not None and repeated else now
        while len(self._seen) > self._size:
            self._seen.popitem(last=False)
        return repeated

    def forget(self, scope: Scope) -> None:
        for key in [key for key in self._seen if key[0] == scope]:
            del self._seen[key]


def _turn_digest(client: ClientHistory, message: str) -> str:
    turns = [m for m in client.messages if m.role in ("user", "assistant")]
    said = hashlib.blake2b(digest_size=16)
    for part in (str(len(turns)), *(m.content for m in turns[-2:]), message):
        said.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return said.hexdigest()


class SessionHistory:
    """Recent messages per (scope, session), least recently used sessions dropped first.

    The key includes the scope: a session id reused by another viewer or character never
    sees someone else's conversation.
    """

    def __init__(self, *, max_turns: int = 10, max_sessions: int = 10_000) -> None:
        self._max_messages = max_turns * 2
        self._max_sessions = max_sessions
        self._sessions: OrderedDict[tuple[Scope, str], deque[ChatMessage]] = OrderedDict()
        self.client_turns = ClientTurns()

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
        """Drop every session of a viewer and their clients' recent turns (when the viewer
        is forgotten)."""
        for key in [key for key in self._sessions if key[0] == scope]:
            del self._sessions[key]
        self.client_turns.forget(scope)

"""One chat exchange: recall, prompt, stream, then queue the turn off the reply path.

The same exchange serves ``/v1/chat/stream`` (the service keeps the session's short-term
history) and the OpenAI-compatible ``/v1/chat/completions`` (the client keeps it and sends
it every time: see :mod:`omoide.chat.client`).

The reply waits for memory retrieval (no language model involved) and for the chat model;
it never waits for the memory write, which goes through the durable queue. If retrieval
fails, the reply still comes, without memories, and the failure is logged. If the model
is unreachable, the stream ends with an error event, and what the viewer said is still
queued (with no reply, marked ``unanswered`` in its metadata), so it is remembered.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

from omoide.character.emotion import EmotionEngine
from omoide.character.identity import ProfileSource
from omoide.character.library import Character, CharacterLibrary
from omoide.character.state import initial_state
from omoide.character.state_store import CharacterStateStore
from omoide.character.topics import TopicTracker
from omoide.chat.client import ClientHistory, Sampling
from omoide.chat.history import SessionHistory
from omoide.clock import Clock, moment_of
from omoide.domain import (
    MAX_MESSAGE_CHARS,
    MAX_TOPICS,
    Scope,
    TurnInput,
    TurnState,
    check_identifier,
    check_message,
)
from omoide.errors import BackendError, BackendUnavailable, InvalidInput, OmoideError
from omoide.llm.base import ChatMessage, ChatModel, ChatOptions
from omoide.memory.manager import MemoryManager
from omoide.memory.recall import Recollection
from omoide.metadata import MetadataValue
from omoide.metrics import Metrics
from omoide.store.records.character_state import CharacterState
from omoide.text_rules import check_id, without_refused

logger = logging.getLogger(__name__)

MAX_CHAT_MESSAGE_CHARS = MAX_MESSAGE_CHARS
"""A chat message may be as long as any stored message (a pasted text is real input)."""


class TurnIntake(Protocol):
    """Where a chat turn goes to be remembered (the durable turn queue)."""

    async def put(self, turns: Sequence[TurnInput]) -> list[TurnInput]: ...


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One viewer message. ``client`` is the conversation a client keeps itself (then the
    service's session history is neither used nor added to); ``sampling`` overrides the
    service's sampling defaults."""

    character_id: str
    user_id: str
    user_name: str
    session_id: str
    message: str
    now: datetime | None = None
    client: ClientHistory | None = None
    sampling: Sampling = field(default_factory=Sampling)

    def __post_init__(self) -> None:
        check_id(self.user_id, name="user_id")
        check_id(self.session_id, name="session_id")
        check_identifier(self.user_name, name="user_name")
        check_message(self.message, name="message", allow_empty=False)
        if len(self.message) > MAX_CHAT_MESSAGE_CHARS:
            raise InvalidInput(f"message is longer than {MAX_CHAT_MESSAGE_CHARS} characters")

    @property
    def scope(self) -> Scope:
        return Scope(self.character_id, self.user_id)


@dataclass(frozen=True, slots=True)
class TokenEvent:
    content: str


@dataclass(frozen=True, slots=True)
class DoneEvent:
    emotion: str
    intimacy_level: float
    memories_used: int
    fact_ids: tuple[str, ...]
    episode_ids: tuple[str, ...]
    turn_id: str | None


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    message: str
    retryable: bool
    turn_id: str | None = None
    """The viewer's message, queued without a reply (``None`` when nothing was queued)."""


ChatEvent = TokenEvent | DoneEvent | ErrorEvent


@dataclass(frozen=True, slots=True)
class PreparedChat:
    """Everything decided before the model is called."""

    request: ChatRequest
    character: Character
    state: CharacterState
    messages: list[ChatMessage]
    recollection: Recollection | None
    now: datetime
    options: ChatOptions


class Conversation:
    """Chat with characters, remembering each viewer."""

    def __init__(
        self,
        *,
        memory: MemoryManager,
        characters: CharacterLibrary,
        states: CharacterStateStore,
        chat_model: ChatModel,
        queue: TurnIntake,
        history: SessionHistory,
        clock: Clock,
        metrics: Metrics,
        options: ChatOptions | None = None,
        on_queued: Callable[[], None] | None = None,
        profiles: ProfileSource | None = None,
    ) -> None:
        self._memory = memory
        self._characters = characters
        self._states = states
        self._model = chat_model
        self._queue = queue
        self._history = history
        self._clock = clock
        self._metrics = metrics
        self._options = options or ChatOptions(max_tokens=400, temperature=0.8)
        self._on_queued = on_queued
        self._profiles = profiles

    async def prepare(self, request: ChatRequest) -> PreparedChat:
        """Load the character and state, recall memories and build the messages.

        Raises NotFound for an unknown character before anything streams.
        """
        character = await self._characters.load(request.character_id)
        if self._profiles is not None:
            evolved = await self._profiles.current_profile(request.character_id)
            character = replace(character, profile=evolved)
        now = moment_of(request.now, self._clock)
        scope = request.scope
        state = await self._states.load(scope) or initial_state(character.profile)
        recollection = await self._recall(scope, request.message, now)
        section = recollection.rendered.text if recollection else ""
        messages = self._messages(request, character, state, section, now)
        options = request.sampling.applied_to(self._options)
        return PreparedChat(request, character, state, messages, recollection, now, options)

    def _messages(
        self,
        request: ChatRequest,
        character: Character,
        state: CharacterState,
        section: str,
        now: datetime,
    ) -> list[ChatMessage]:
        """The character's system prompt and the session's history, or the conversation the
        client keeps (its own system message kept, the memory section added to it); then
        the turn, and whatever the client sent after it."""
        turn = ChatMessage("user", request.message)
        client = request.client
        if client is not None and client.has_system:
            return [
                *client.with_memory(section, viewer_name=request.user_name),
                turn,
                *client.after,
            ]
        text = character.prompt.build_system_prompt(
            character.profile, state, user_name=request.user_name, memory_section=section, now=now
        )
        system = ChatMessage("system", text)
        if client is None:
            return [system, *self._history.messages(request.scope, request.session_id), turn]
        return [system, *client.messages, turn, *client.after]

    async def _recall(self, scope: Scope, message: str, now: datetime) -> Recollection | None:
        try:
            return await self._memory.retrieve_context(scope, message, now=now)
        except OmoideError:
            self._metrics.increment("chat.recall_failures")
            logger.exception("memory retrieval failed for %s; replying without memories", scope)
            return None

    async def stream(self, prepared: PreparedChat) -> AsyncGenerator[ChatEvent, None]:
        """Stream the reply as clean text (emotion tags removed), then the outcome."""
        engine = EmotionEngine(prepared.character.profile)
        tag_filter = engine.stream_filter()
        pieces: list[str] = []
        try:
            async for chunk in self._model.stream(prepared.messages, prepared.options):
                visible = tag_filter.feed(chunk)
                if visible:
                    pieces.append(visible)
                    yield TokenEvent(visible)
        except BackendError as exc:
            self._metrics.increment("chat.model_failures")
            logger.warning("chat model failed for %s: %s", prepared.request.scope, exc)
            turn_id = await self._keep_unanswered(prepared)
            message = f"the language model failed: {exc}"
            yield ErrorEvent(message, retryable=_retryable(exc), turn_id=turn_id)
            return
        tail = tag_filter.finish()
        if tail:
            pieces.append(tail)
            yield TokenEvent(tail)
        reply = without_refused("".join(pieces)).strip()  # a model's text is cleaned, not refused
        yield await self._finish(prepared, engine, reply, tag_filter.emotion)

    async def _finish(
        self, prepared: PreparedChat, engine: EmotionEngine, reply: str, emotion: str | None
    ) -> DoneEvent:
        request = prepared.request
        state = engine.update(
            prepared.state, detected_emotion=emotion, user_message=request.message, now=prepared.now
        )
        tracker = TopicTracker.for_profile(prepared.character.profile)
        topics = tracker.extract(request.message, reply, viewer_name=request.user_name)
        state = tracker.update(
            state, user_message=request.message, reply=reply, viewer_name=request.user_name
        )
        await self._states.save(request.scope, state)
        if request.client is None:
            self._history.append(request.scope, request.session_id, request.message, reply)
        # the character's own mood after replying is kept in the metadata only
        metadata: dict[str, MetadataValue] = {
            "session_id": request.session_id,
            "character_emotion": state.emotion,
        }
        turn_id = None
        if not self._resent(request, prepared.now):
            turn_id = await self._enqueue(request, reply, topics, prepared.now, metadata)
        rendered = prepared.recollection.rendered if prepared.recollection else None
        fact_ids = rendered.fact_ids if rendered else ()
        episode_ids = rendered.episode_ids if rendered else ()
        return DoneEvent(
            emotion=state.emotion,
            intimacy_level=state.intimacy,
            memories_used=len(fact_ids) + len(episode_ids),
            fact_ids=fact_ids,
            episode_ids=episode_ids,
            turn_id=turn_id,
        )

    def _resent(self, request: ChatRequest, now: datetime) -> bool:
        """Whether a client sent this very turn again (regenerate, swipe): stored once."""
        if request.client is None:
            return False
        turns = self._history.client_turns
        repeat = turns.is_repeat(request.scope, request.client, request.message, now)
        if repeat:
            self._metrics.increment("chat.turns_resent")
        return repeat

    async def _keep_unanswered(self, prepared: PreparedChat) -> str | None:
        """The model failed: queue what the viewer said, with no reply, so it is remembered
        (a partial reply is not kept: the viewer never saw it whole)."""
        request = prepared.request
        tracker = TopicTracker.for_profile(prepared.character.profile)
        topics = tracker.extract(request.message, "", viewer_name=request.user_name)
        metadata: dict[str, MetadataValue] = {"session_id": request.session_id}
        return await self._enqueue(
            request, "", topics, prepared.now, metadata | {"unanswered": True}
        )

    async def _enqueue(
        self,
        request: ChatRequest,
        reply: str,
        topics: tuple[str, ...],
        now: datetime,
        metadata: dict[str, MetadataValue],
    ) -> str | None:
        """Queue the exchange with this turn's own topics (never the session's recent ones).

        The turn's emotion is the viewer's, read from their message by the write path."""
        turn = TurnInput(
            scope=request.scope,
            user_message=request.message,
            bot_message=reply,
            state=TurnState("neutral", 0.0, topics[:MAX_TOPICS]),
            timestamp=now,
            metadata=metadata,
            user_name=request.user_name,
        )
        (accepted,) = await self._queue.put([turn])
        self._metrics.increment("chat.turns_queued")
        if self._on_queued is not None:
            self._on_queued()
        return accepted.turn_id


def _retryable(error: BackendError) -> bool:
    return isinstance(error, BackendUnavailable)

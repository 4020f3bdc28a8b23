"""What ``/health`` reports: every component's own state, and the service's from them.

``unavailable`` (503) when the store or the turn queue fails: nothing can be remembered.
``degraded`` (200) when only the language model fails: memory works, chat does not.
The model is asked for one token at most every :data:`MODEL_PROBE_SECONDS` (a health
check polled every few seconds must not become a stream of model calls), and waited for
at most :data:`MODEL_PROBE_TIMEOUT_SECONDS`.
"""

from __future__ import annotations

import logging
from typing import Literal

import anyio
from pydantic import BaseModel, Field

from omoide.errors import OmoideError
from omoide.llm.base import ChatMessage, ChatModel, ChatOptions
from omoide.wiring import Omoide

logger = logging.getLogger(__name__)

MODEL_PROBE_SECONDS = 60.0
MODEL_PROBE_TIMEOUT_SECONDS = 5.0
_PROBE_MESSAGES = (ChatMessage("user", "Reply with the single word: ok"),)
_PROBE_OPTIONS = ChatOptions(max_tokens=1, temperature=0.0)


class StoreHealth(BaseModel):
    ok: bool
    error: str | None = None


class EmbedderHealth(BaseModel):
    model_name: str
    dimensions: int


class LanguageModelHealth(BaseModel):
    name: str | None = Field(description="None when no chat model is configured")
    ok: bool | None = Field(
        default=None, description="Whether it answered its last probe; None without a model"
    )
    error: str | None = None


class QueueHealth(BaseModel):
    pending: int | None = Field(description="Chat turns waiting to be stored")
    failed: int | None = Field(description="Turns parked after repeated failures")
    error: str | None = None


class HealthOut(BaseModel):
    status: Literal["ok", "degraded", "unavailable"]
    store: StoreHealth
    embedder: EmbedderHealth
    llm: LanguageModelHealth
    queue: QueueHealth


class ModelProbe:
    """Asks the chat model for one token, remembering the answer for a while."""

    def __init__(self, model: ChatModel | None) -> None:
        self._model = model
        self._checked_at: float | None = None
        self._last = LanguageModelHealth(name=model.name if model is not None else None)
        self._lock = anyio.Lock()

    async def health(self) -> LanguageModelHealth:
        if self._model is None:
            return self._last
        async with self._lock:
            now = anyio.current_time()
            if self._checked_at is None or now - self._checked_at >= MODEL_PROBE_SECONDS:
                self._last = await self._probe(self._model)
                self._checked_at = anyio.current_time()
        return self._last

    @staticmethod
    async def _probe(model: ChatModel) -> LanguageModelHealth:
        error = f"no answer within {MODEL_PROBE_TIMEOUT_SECONDS:g} seconds"
        with anyio.move_on_after(MODEL_PROBE_TIMEOUT_SECONDS):
            try:
                await model.complete(_PROBE_MESSAGES, _PROBE_OPTIONS)
                return LanguageModelHealth(name=model.name, ok=True)
            except OmoideError as exc:
                error = str(exc)
        logger.warning("health: the chat model %s failed its probe: %s", model.name, error)
        return LanguageModelHealth(name=model.name, ok=False, error=error)


async def _store_health(built: Omoide) -> StoreHealth:
    try:
        await built.memory.check_store()
    except OmoideError as exc:
        return StoreHealth(ok=False, error=str(exc))
    return StoreHealth(ok=True)


async def _queue_health(built: Omoide) -> QueueHealth:
    try:
        counts = await built.queue.counts()
    except Exception as exc:  # the queue's own SQLite errors are not translated
        logger.warning("health: the turn queue failed: %s", exc)
        return QueueHealth(pending=None, failed=None, error=str(exc))
    return QueueHealth(pending=counts["pending"], failed=counts["failed"])


async def health_report(built: Omoide, probe: ModelProbe) -> HealthOut:
    """Every component's state, and the service's status from them (see the module)."""
    store, queue, llm = await _store_health(built), await _queue_health(built), await probe.health()
    status: Literal["ok", "degraded", "unavailable"] = "ok"
    if not store.ok or queue.error is not None:
        status = "unavailable"
    elif llm.ok is False:
        status = "degraded"
    embedder = EmbedderHealth(
        model_name=built.embedder.model_name, dimensions=built.embedder.dimensions
    )
    return HealthOut(status=status, store=store, embedder=embedder, llm=llm, queue=queue)

"""The composition root: Settings in, every collaborator built once and connected.

:func:`build` is a few small builders run under an :class:`~contextlib.AsyncExitStack`:
what one opened is closed again if a later one fails. :meth:`Omoide.aclose` closes
everything, each part even when another fails to close, and raises one error after.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from omoide.character.identity import IdentityService
from omoide.character.identity_policy import IdentityPolicy
from omoide.character.library import CharacterLibrary
from omoide.chat.conversation import Conversation
from omoide.chat.history import SessionHistory
from omoide.clock import Clock, SystemClock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.embed.cache import CachedQueryEmbedder
from omoide.errors import BackendError, ConfigError, OmoideError
from omoide.keys import KeyStore
from omoide.llm.base import ChatModel
from omoide.memory.drain import QueueDrainer
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.manager import MemoryManager
from omoide.metrics import Metrics
from omoide.privacy.viewer_data import ViewerData
from omoide.stream.service import StreamService
from omoide.wiring.memory import MemoryParts, build_facts, build_memory
from omoide.wiring.models import build_chat_model, build_embedder
from omoide.wiring.storage import (
    GrowthLogs,
    MemoryBackend,
    TurnQueueBackend,
    build_growth,
    build_key_store,
    build_service_state,
    build_store,
    local_files,
)
from omoide.wiring.streams import StreamParts, build_streams, stream_config, stream_model

if TYPE_CHECKING:  # the server extra is optional: imported where it is used
    from omoide.store.server.states import PostgresCharacterStateStore
    from omoide.store.sqlite.character_states import SqliteCharacterStateStore

logger = logging.getLogger(__name__)

Close = Callable[[], Awaitable[object]]


class Resources:
    """What :func:`build` opened, closed in reverse order; every close runs even when an
    earlier one fails, and the failures are raised together after, as one BackendError."""

    def __init__(self) -> None:
        self._closers: list[tuple[str, Close]] = []

    def add(self, name: str, close: Close) -> None:
        self._closers.append((name, close))

    async def aclose(self) -> None:
        failures: list[tuple[str, Exception]] = []
        while self._closers:
            name, close = self._closers.pop()
            try:
                await close()
            except Exception as exc:
                failures.append((name, exc))
        if failures:
            named = "; ".join(f"{name}: {exc}" for name, exc in failures)
            raise BackendError(f"closing omoide failed ({named})") from failures[0][1]

    async def close_after_failure(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool:
        """For the exit stack of a build that failed: close, keep the build's error."""
        try:
            await self.aclose()
        except OmoideError:
            logger.exception("closing what a failed build had opened also failed")
        return False


@dataclass
class Omoide:
    """Everything the library, the CLI, the MCP server and the service need, built from one
    Settings. Shells call its use cases (``memory``, ``viewer_data``, ``streams``, ...)."""

    settings: Settings
    clock: Clock
    metrics: Metrics
    embedder: Embedder
    store: MemoryBackend
    memory: MemoryManager
    facts: FactKeeper
    chat_model: ChatModel | None
    characters: CharacterLibrary
    queue: TurnQueueBackend
    drainer: QueueDrainer
    states: SqliteCharacterStateStore | PostgresCharacterStateStore
    conversation: Conversation | None
    growth: GrowthLogs
    """Identity versions and stream logs, each log on its own: ``data_dir/growth.sqlite3``
    in the embedded profile; the server store's PostgreSQL in the server profile (no local
    file), shared by every instance."""
    identity: IdentityService
    streams: StreamService
    """Live streams: ingestion, the background worker's steps, diary and identity."""
    viewer_data: ViewerData
    """Export or forget everything about one viewer, wherever it is kept."""
    keys: KeyStore
    """API keys: ``data_dir/keys.json`` in the embedded profile; the server store's
    PostgreSQL in the server profile, shared by every instance."""
    resources: Resources
    """What :meth:`aclose` closes: everything built here, and a chat model handed to
    :func:`build` (an embedder handed to it stays its caller's to close)."""

    async def aclose(self) -> None:
        """Store the turns still queued, then close everything (see :class:`Resources`)."""
        await self.resources.aclose()


@dataclass(frozen=True, slots=True)
class _Models:
    model_embedder: Embedder
    embedder: CachedQueryEmbedder
    chat_model: ChatModel | None


async def _models(
    settings: Settings,
    resources: Resources,
    clock: Clock,
    embedder: Embedder | None,
    chat_model: ChatModel | None,
) -> _Models:
    base = embedder
    if base is None:
        base = await build_embedder(settings)
        resources.add("embedder", base.aclose)
    model = chat_model if chat_model is not None else build_chat_model(settings)
    if model is not None:
        resources.add("chat model", model.aclose)
    cached = CachedQueryEmbedder(
        base,
        max_entries=settings.query_cache_size,
        ttl_seconds=settings.query_cache_seconds,
        clock=clock,
    )
    return _Models(base, cached, model)


async def _flush_quietly(memory: MemoryManager) -> None:
    """The recalls noted but not yet written; a failing store loses them, loudly."""
    try:
        await memory.flush_reinforcements()
    except OmoideError as exc:
        logger.warning("reinforcing recalled memories failed at shutdown: %s", exc)


@dataclass(frozen=True, slots=True)
class _Memory:
    store: MemoryBackend
    facts: FactKeeper
    memory: MemoryManager
    characters: CharacterLibrary


async def _memory(
    settings: Settings, resources: Resources, models: _Models, clock: Clock, metrics: Metrics
) -> _Memory:
    store = await build_store(settings, models.model_embedder)
    resources.add("memory store", store.close)
    characters = CharacterLibrary(settings.characters_dirs)
    parts = MemoryParts(
        settings, store, models.model_embedder, models.embedder, models.chat_model,
        characters, clock, metrics,
    )  # fmt: skip
    facts = await build_facts(parts)
    memory = await build_memory(parts, facts)
    resources.add("reinforcements", lambda: _flush_quietly(memory))
    return _Memory(store, facts, memory, characters)


@dataclass(frozen=True, slots=True)
class _State:
    queue: TurnQueueBackend
    states: SqliteCharacterStateStore | PostgresCharacterStateStore
    growth: GrowthLogs
    drainer: QueueDrainer


def _state(
    settings: Settings, resources: Resources, memory: _Memory, clock: Clock, metrics: Metrics
) -> _State:
    """The turn queue (and its drainer), character states and the growth logs."""
    queue, states = build_service_state(settings, memory.store, clock)
    resources.add("turn queue", queue.close)
    resources.add("character states", states.close)
    growth = build_growth(settings, memory.store)
    resources.add("growth logs", growth.aclose)
    drainer = QueueDrainer(queue, memory.memory, episodes=memory.store, metrics=metrics)
    resources.add("turn queue drain", drainer.drain_all)  # closed first: turns stored
    return _State(queue, states, growth, drainer)


async def build(
    settings: Settings,
    *,
    clock: Clock | None = None,
    embedder: Embedder | None = None,
    chat_model: ChatModel | None = None,
) -> Omoide:
    """Build omoide from settings; explicit collaborators override what settings name."""
    _make_data_dir(settings.data_dir)
    clock = clock or SystemClock()
    metrics = Metrics()
    resources = Resources()
    async with AsyncExitStack() as stack:
        stack.push_async_exit(resources.close_after_failure)
        models = await _models(settings, resources, clock, embedder, chat_model)
        memory = await _memory(settings, resources, models, clock, metrics)
        state = _state(settings, resources, memory, clock, metrics)
        omoide = _assemble(settings, resources, models, memory, state, clock, metrics)
        stack.pop_all()
    settle_heap()
    return omoide


PYTHON_GC_THRESHOLDS = (700, 10, 10)
SERVICE_GC_THRESHOLDS = (5_000, 10, 10)
"""A reply holds several hundred objects at once (rows, candidates, their scores), so with
Python's 700 the youngest generation was collected in every other reply and each
collection carried the reply's live objects on to the next generation; with 5,000, 1,200
replies at 100,000 episodes spent 48 ms in the collector instead of 97, 3 % of them were
interrupted instead of 23 % (0.8 % for more than 0.5 ms instead of 2 %), and the longest
pause was 9.5 ms instead of 22."""


def settle_heap() -> None:
    """Tune the cyclic garbage collector for a long-lived service, unless the host
    application tuned it already.

    What is alive once the first build is done (imported modules, the loaded models, the
    opened store) is frozen out of the collector's reach (``gc.freeze``): otherwise every
    full collection walks all of it, and one landed inside a reply every few hundred
    (50-67 ms at 100,000 episodes). Only the first build in a process freezes, after
    collecting what is already garbage, so what later builds open and close stays
    collectable; the young generation's threshold is raised (``SERVICE_GC_THRESHOLDS``)
    only from Python's default.
    """
    if gc.get_freeze_count() == 0:
        gc.collect()
        gc.freeze()
    if gc.get_threshold() == PYTHON_GC_THRESHOLDS:
        gc.set_threshold(*SERVICE_GC_THRESHOLDS)


def _make_data_dir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"the data directory {path} (OMOIDE_DATA_DIR) cannot be made: {exc.strerror or exc}"
        ) from exc


def _assemble(
    settings: Settings,
    resources: Resources,
    models: _Models,
    memory: _Memory,
    state: _State,
    clock: Clock,
    metrics: Metrics,
) -> Omoide:
    identity = IdentityService(
        versions=state.growth.identity,
        changes=state.growth.identity,
        characters=memory.characters,
        policy=IdentityPolicy(),
        clock=clock,
        metrics=metrics,
    )
    streams = build_streams(
        StreamParts(
            memory.store, models.embedder, memory.facts, identity, state.growth.stream,
            state.growth.diary_jobs, state.growth.viewer_work, memory.characters, clock,
            metrics, models.model_embedder,
        ),
        stream_config(settings),
        stream_model(settings, models.chat_model),
    )  # fmt: skip
    history = SessionHistory(max_turns=settings.history_turns)
    return Omoide(
        settings=settings, clock=clock, metrics=metrics, embedder=models.embedder,
        store=memory.store, memory=memory.memory, facts=memory.facts,
        chat_model=models.chat_model, characters=memory.characters, queue=state.queue,
        drainer=state.drainer, states=state.states,
        conversation=_conversation(memory, state, identity, history, clock, metrics, models),
        growth=state.growth, identity=identity, streams=streams,
        viewer_data=_viewer_data(memory, state, history, models),
        keys=build_key_store(settings, memory.store), resources=resources,
    )  # fmt: skip


def _conversation(
    memory: _Memory,
    state: _State,
    identity: IdentityService,
    history: SessionHistory,
    clock: Clock,
    metrics: Metrics,
    models: _Models,
) -> Conversation | None:
    if models.chat_model is None:
        return None
    return Conversation(
        memory=memory.memory,
        characters=memory.characters,
        states=state.states,
        chat_model=models.chat_model,
        queue=state.queue,
        history=history,
        clock=clock,
        metrics=metrics,
        on_queued=state.drainer.notify,
        profiles=identity,
    )


def _viewer_data(
    memory: _Memory, state: _State, history: SessionHistory, models: _Models
) -> ViewerData:
    return ViewerData(
        memory=memory.memory,
        store=memory.store,
        embedder=models.model_embedder,
        drain=state.drainer,
        queue=state.queue,
        states=state.states,
        history=history,
        log=state.growth.viewer_rows,
        identity=state.growth.identity,
        files=local_files(memory.store, state.queue, state.states, state.growth.file),
        caches=[models.embedder],
    )

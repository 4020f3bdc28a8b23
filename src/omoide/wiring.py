"""The composition root: Settings in, every collaborator built and connected.

Concrete classes are chosen here, in one ``match`` per seam; optional dependencies are
imported lazily with an error that names the extra to install.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from omoide.character.identity import IdentityPolicy, IdentityService
from omoide.character.library import CharacterLibrary
from omoide.chat.conversation import Conversation
from omoide.chat.history import SessionHistory
from omoide.clock import Clock, SystemClock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.embed.cache import CachedQueryEmbedder
from omoide.embed.threshold_cache import ThresholdCache, cached_duplicate_threshold
from omoide.errors import ConfigError
from omoide.keys import KeyStore
from omoide.llm.base import ChatModel
from omoide.memory.config import MemoryConfig, RecallConfig, WriteConfig
from omoide.memory.drain import QueueDrainer
from omoide.memory.extraction import FactExtractor
from omoide.memory.extraction_llm import LLMFactExtractor
from omoide.memory.extraction_rules import RuleFactExtractor
from omoide.memory.facts import FactKeeper
from omoide.memory.importance import ImportanceScorer
from omoide.memory.manager import MemoryManager
from omoide.memory.neighbours import NeighbourConfig
from omoide.memory.queue import TurnQueue
from omoide.memory.ranking import RankingWeights
from omoide.memory.recall import Recaller
from omoide.memory.relevance import cached_relevance_floor
from omoide.memory.remember import Rememberer
from omoide.memory.tokens import SentencePieceTokenCounter
from omoide.memory.viewer_profile import ProfileConfig
from omoide.metrics import Metrics
from omoide.privacy.viewer_data import Scrubbable, ViewerData
from omoide.store.base import EmbeddingInfo, MemoryStore
from omoide.store.sqlite.character_states import SqliteCharacterStateStore
from omoide.store.sqlite.growth import GROWTH_FILE, SqliteGrowthStore
from omoide.store.sqlite.key_file import KeyFile, key_file_path
from omoide.store.sqlite.store import SqliteMemoryStore, open_sqlite_store
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from omoide.stream.service import GrowthStore

if TYPE_CHECKING:  # the server extra is optional: imported where it is used
    from omoide.store.server.endpoints import ServerConfig
    from omoide.store.server.states import PostgresCharacterStateStore

logger = logging.getLogger(__name__)


@dataclass
class Omoide:
    """Everything the library, the CLI and the service need, built from one Settings."""

    settings: Settings
    clock: Clock
    metrics: Metrics
    embedder: Embedder
    store: MemoryStore
    memory: MemoryManager
    chat_model: ChatModel | None
    characters: CharacterLibrary
    queue: TurnQueue
    drainer: QueueDrainer
    states: SqliteCharacterStateStore | PostgresCharacterStateStore
    conversation: Conversation | None
    growth: GrowthStore
    """Identity versions and stream logs: ``data_dir/growth.sqlite3`` in the embedded
    profile; the server store's PostgreSQL in the server profile (no local file), shared by
    every instance."""
    identity: IdentityService
    viewer_data: ViewerData
    """Export or forget everything about one viewer, wherever it is kept."""
    keys: KeyStore
    """API keys: ``data_dir/keys.json`` in the embedded profile; the server store's
    PostgreSQL in the server profile, shared by every instance."""
    owned_embedder: Embedder | None = None
    """The embedder built from the settings (closed with the rest); one handed to
    :func:`build` stays its caller's to close."""

    async def aclose(self) -> None:
        await self.drainer.drain_all()
        await self.memory.close()
        await self.queue.close()
        await self.states.close()
        await self.growth.close()
        for resource in (self.chat_model, self.owned_embedder):
            close = getattr(resource, "aclose", None)
            if close is not None:
                await close()


def memory_config(settings: Settings) -> MemoryConfig:
    return MemoryConfig(
        ranking=RankingWeights(
            relevance=settings.weight_relevance,
            recency=settings.weight_recency,
            importance=settings.weight_importance,
            recency_decay_per_hour=settings.recency_decay_per_hour,
        ),
        recall=RecallConfig(
            token_budget=settings.context_token_budget,
            min_relevance=settings.min_relevance,
            keyword_half=settings.keyword_half,
            neighbours=NeighbourConfig(
                best=settings.neighbours_of_best, share=settings.neighbour_share
            ),
        ),
        profile=ProfileConfig(share=settings.profile_share, max_entries=settings.profile_max_facts),
        write=WriteConfig(store_threshold=settings.store_threshold),
    )


async def build_embedder(settings: Settings) -> Embedder:
    """The embedder named by ``settings.embedder``, without the query cache; a local model
    embeds large document batches in a worker process unless ``embedder_worker`` is off."""
    model = settings.embedder_model
    match settings.embedder:
        case "use":
            from omoide.embed.use import USEEmbedder

            return _local_model(
                settings, functools.partial(USEEmbedder, threads=settings.embedder_threads)
            )
        case "e5":
            from omoide.embed.e5 import E5Embedder

            return _local_model(
                settings, functools.partial(E5Embedder, threads=settings.embedder_threads)
            )
        case "hashing":
            from omoide.embed.hashing import HashingEmbedder

            return HashingEmbedder(settings.embedder_dimensions or 256)
        case "sentence-transformers":
            from omoide.embed.sentence_transformers import SentenceTransformerEmbedder

            return await SentenceTransformerEmbedder.load(_required(model, "OMOIDE_EMBEDDER_MODEL"))
        case "ollama":
            from omoide.embed.ollama import OllamaEmbedder

            return await OllamaEmbedder.connect(
                _required(model, "OMOIDE_EMBEDDER_MODEL"),
                dimensions=settings.embedder_dimensions,
                base_url=settings.embedder_url or "http://localhost:11434",
            )
        case "openai":
            from omoide.embed.openai import OpenAIEmbedder

            key = settings.embedder_api_key
            return await OpenAIEmbedder.connect(
                _required(model, "OMOIDE_EMBEDDER_MODEL"),
                dimensions=settings.embedder_dimensions,
                base_url=settings.embedder_url or "https://api.openai.com/v1",
                api_key=key.get_secret_value() if key else None,
            )


def _local_model(settings: Settings, factory: Callable[[], Embedder]) -> Embedder:
    """``factory``'s model, with a worker process for large document batches if enabled."""
    inner = factory()
    if not settings.embedder_worker:
        return inner
    from omoide.embed.process import WorkerProcessEmbedder

    return WorkerProcessEmbedder(inner, factory)


def build_chat_model(settings: Settings) -> ChatModel | None:
    """The chat model named by ``settings.llm``; ``none`` means no model at all."""
    from omoide.llm.retry import RetryPolicy

    retry = RetryPolicy(max_retries=settings.llm_max_retries)
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    timeout = settings.llm_timeout_seconds
    match settings.llm:
        case "none":
            return None
        case "scripted":
            from omoide.llm.scripted import ScriptedChatModel

            return ScriptedChatModel()
        case "ollama":
            from omoide.llm.ollama import OllamaChatModel

            return OllamaChatModel(
                _required(settings.llm_model, "OMOIDE_LLM_MODEL"),
                base_url=settings.llm_url or "http://localhost:11434",
                timeout_seconds=timeout,
                retry=retry,
            )
        case "openai":
            from omoide.llm.openai import OpenAIChatModel

            return OpenAIChatModel(
                _required(settings.llm_model, "OMOIDE_LLM_MODEL"),
                base_url=settings.llm_url or "https://api.openai.com",
                api_key=key,
                timeout_seconds=timeout,
                retry=retry,
            )
        case "anthropic":
            from omoide.llm.anthropic import AnthropicChatModel

            return AnthropicChatModel(
                _required(settings.llm_model, "OMOIDE_LLM_MODEL"),
                base_url=settings.llm_url or "https://api.anthropic.com",
                api_key=key,
                timeout_seconds=timeout,
                retry=retry,
            )


def _required(value: str | None, variable: str) -> str:
    if not value:
        raise ConfigError(f"{variable} must be set for this backend")
    return value


async def build_store(settings: Settings, embedder: Embedder) -> MemoryStore:
    info = EmbeddingInfo(embedder.model_name, embedder.dimensions)
    match settings.store:
        case "sqlite":
            return await open_sqlite_store(settings.database_path, embedding=info)
        case "server":
            with server_extra():
                from omoide.wiring_server import open_store
            return await open_store(settings, info)


def server_config(settings: Settings) -> ServerConfig:
    """The PostgreSQL + Qdrant endpoints named by the settings (OMOIDE_DATABASE_URL, ...)."""
    with server_extra():
        from omoide.wiring_server import server_config as config_of
    return config_of(settings)


@contextmanager
def server_extra() -> Iterator[None]:
    """Around the imports of the server profile: a missing extra becomes a ConfigError."""
    try:
        yield
    except ImportError as exc:
        raise ConfigError(
            "OMOIDE_STORE=server needs the server extra: pip install 'omoide[server]'"
        ) from exc


def build_service_state(
    settings: Settings, store: MemoryStore, clock: Clock
) -> tuple[TurnQueue, SqliteCharacterStateStore | PostgresCharacterStateStore]:
    """The durable turn queue and the character states: files, or the server's PostgreSQL."""
    match settings.store:
        case "sqlite":
            queue = SqliteTurnQueue(settings.queue_path, clock=clock)
            return queue, SqliteCharacterStateStore(settings.state_path)
        case "server":
            with server_extra():
                from omoide.wiring_server import service_state
            return service_state(store, clock)


def build_extractor(
    settings: Settings, chat_model: ChatModel | None, metrics: Metrics
) -> FactExtractor:
    rules = RuleFactExtractor()
    if chat_model is None or not settings.llm_extraction or not settings.uses_real_llm:
        return rules
    return LLMFactExtractor(chat_model, metrics=metrics, fallback=rules)


def build_growth(settings: Settings, store: MemoryStore) -> GrowthStore:
    """Identity versions and stream logs: a file, or the server store's PostgreSQL."""
    match settings.store:
        case "sqlite":
            return SqliteGrowthStore(settings.data_dir / GROWTH_FILE)
        case "server":
            with server_extra():
                from omoide.wiring_server import growth_store
            return growth_store(store)


def local_files(*parts: object) -> list[Scrubbable]:
    """The parts kept in local SQLite files: after a forget, their logs are emptied."""
    return [
        part
        for part in parts
        if isinstance(
            part,
            SqliteMemoryStore | SqliteTurnQueue | SqliteCharacterStateStore | SqliteGrowthStore,
        )
    ]


def build_key_store(settings: Settings, store: MemoryStore) -> KeyStore:
    """Where the service finds API keys: the key file, or the server store's PostgreSQL."""
    match settings.store:
        case "sqlite":
            return KeyFile(key_file_path(settings.data_dir))
        case "server":
            with server_extra():
                from omoide.wiring_server import key_store
            return key_store(store)


@asynccontextmanager
async def open_key_store(settings: Settings) -> AsyncIterator[KeyStore]:
    """The key store of ``settings`` without the rest (for ``omoide keys``), closed after.

    The server profile connects to the same PostgreSQL as the service (migrating its schema
    if needed) but to no embedder or Qdrant.
    """
    match settings.store:
        case "sqlite":
            yield KeyFile(key_file_path(settings.data_dir))
        case "server":
            with server_extra():
                from omoide.wiring_server import open_key_store as open_server_keys
            async with open_server_keys(settings) as store:
                yield store


def build_identity(
    settings: Settings,
    store: MemoryStore,
    characters: CharacterLibrary,
    clock: Clock,
    metrics: Metrics,
) -> tuple[GrowthStore, IdentityService]:
    """The growth store and the evolving profiles kept in it, in either profile."""
    growth = build_growth(settings, store)
    identity = IdentityService(
        store=growth.identity,
        characters=characters,
        policy=IdentityPolicy(),
        clock=clock,
        metrics=metrics,
    )
    return growth, identity


async def build(
    settings: Settings,
    *,
    clock: Clock | None = None,
    embedder: Embedder | None = None,
    chat_model: ChatModel | None = None,
) -> Omoide:
    """Build omoide from settings; explicit collaborators override what settings name."""
    clock = clock or SystemClock()
    metrics = Metrics()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    base_embedder = embedder or await build_embedder(settings)
    owned_embedder = None if embedder is not None else base_embedder
    query_embedder = CachedQueryEmbedder(
        base_embedder,
        max_entries=settings.query_cache_size,
        ttl_seconds=settings.query_cache_seconds,
        clock=clock,
    )
    model = chat_model if chat_model is not None else build_chat_model(settings)
    config = memory_config(settings)
    store = await build_store(settings, base_embedder)
    cache = ThresholdCache(settings.data_dir / "calibration.json")
    duplicate = await cached_duplicate_threshold(base_embedder, cache)
    floors = await cached_relevance_floor(base_embedder, settings.data_dir / "relevance.json")
    facts = FactKeeper(
        store=store,
        embedder=query_embedder,
        duplicate_threshold=duplicate.threshold,
        metrics=metrics,
        batch_limit=settings.fact_batch_limit,
    )
    scorer = ImportanceScorer(
        llm=model if settings.llm_importance and settings.uses_real_llm else None,
        metrics=metrics,
        store_threshold=config.write.store_threshold,
    )
    rememberer = Rememberer(
        store=store,
        embedder=query_embedder,
        scorer=scorer,
        extractor=build_extractor(settings, model, metrics),
        facts=facts,
        config=config.write,
        clock=clock,
        metrics=metrics,
    )
    characters = CharacterLibrary(settings.characters_dirs)
    recaller = Recaller(
        store=store,
        embedder=query_embedder,
        counter=await anyio.to_thread.run_sync(SentencePieceTokenCounter),
        config=config,
        clock=clock,
        floors=floors,
        names=characters,
    )
    memory = MemoryManager(
        store=store,
        rememberer=rememberer,
        recaller=recaller,
        facts=facts,
        config=config,
        clock=clock,
    )
    queue, states = build_service_state(settings, store, clock)
    drainer = QueueDrainer(queue, memory, metrics=metrics)
    growth, identity = build_identity(settings, store, characters, clock, metrics)
    history = SessionHistory(max_turns=settings.history_turns)
    conversation = None
    if model is not None:
        conversation = Conversation(
            memory=memory,
            characters=characters,
            states=states,
            chat_model=model,
            queue=queue,
            history=history,
            clock=clock,
            metrics=metrics,
            on_queued=drainer.notify,
            profiles=identity,
        )
    return Omoide(
        settings=settings,
        clock=clock,
        metrics=metrics,
        embedder=query_embedder,
        store=store,
        memory=memory,
        chat_model=model,
        characters=characters,
        queue=queue,
        drainer=drainer,
        states=states,
        conversation=conversation,
        growth=growth,
        identity=identity,
        viewer_data=ViewerData(
            memory=memory,
            store=store,
            embedder=base_embedder,
            drain=drainer,
            queue=queue,
            states=states,
            history=history,
            log=growth,
            identity=growth.identity,
            files=local_files(store, queue, states, growth),
            caches=[query_embedder],
        ),
        keys=build_key_store(settings, store),
        owned_embedder=owned_embedder,
    )

"""Where everything is kept: files in the embedded profile, PostgreSQL + Qdrant in the server
profile. One ``match settings.store`` per part; the server half is :mod:`.server`, imported
only inside :func:`server_extra`, which names the extra when it is missing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, TypeAlias

from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.errors import ConfigError
from omoide.keys import KeyStore
from omoide.privacy.viewer_data import Scrubbable
from omoide.store.base import EmbeddingInfo
from omoide.store.sqlite.character_states import SqliteCharacterStateStore
from omoide.store.sqlite.growth import GROWTH_FILE, SqliteGrowthStore
from omoide.store.sqlite.key_file import KeyFile, key_file_path
from omoide.store.sqlite.store import SqliteMemoryStore, open_sqlite_store
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from omoide.stream.service import GrowthStore

if TYPE_CHECKING:  # the server extra is optional: imported where it is used
    from omoide.store.server.endpoints import ServerConfig
    from omoide.store.server.states import PostgresCharacterStateStore
    from omoide.store.server.store import ServerMemoryStore
    from omoide.store.server.turn_queue import PostgresTurnQueue

MemoryBackend: TypeAlias = "SqliteMemoryStore | ServerMemoryStore"
"""The memory store of either profile. No Protocol names the whole store: each consumer
declares the role it plays (``memory.recall.MemorySearch``, ``memory.remember.TurnWriting``,
``memory.decay.DecayMaintenance``, ...) and the one store object is passed for each."""

TurnQueueBackend: TypeAlias = "SqliteTurnQueue | PostgresTurnQueue"
"""The durable turn queue of either profile; its roles are declared where used (producer:
``chat.conversation.TurnIntake``; consumer: ``memory.drain.DrainedQueue``; a viewer's
turns: ``privacy.viewer_data.ViewerQueue``)."""


@contextmanager
def server_extra() -> Iterator[None]:
    """Around the imports of the server profile: a missing extra becomes a ConfigError."""
    try:
        yield
    except ImportError as exc:
        raise ConfigError(
            "OMOIDE_STORE=server needs the server extra: pip install 'omoide[server]'"
        ) from exc


async def build_store(settings: Settings, embedder: Embedder) -> MemoryBackend:
    info = EmbeddingInfo(embedder.model_name, embedder.dimensions)
    match settings.store:
        case "sqlite":
            return await open_sqlite_store(settings.database_path, embedding=info)
        case "server":
            with server_extra():
                from omoide.wiring.server import open_store
            return await open_store(settings, info)


def server_config(settings: Settings) -> ServerConfig:
    """The PostgreSQL + Qdrant endpoints named by the settings (OMOIDE_DATABASE_URL, ...)."""
    with server_extra():
        from omoide.wiring.server import server_config as config_of
    return config_of(settings)


def build_service_state(
    settings: Settings, store: MemoryBackend, clock: Clock
) -> tuple[TurnQueueBackend, SqliteCharacterStateStore | PostgresCharacterStateStore]:
    """The durable turn queue and the character states: files, or the server's PostgreSQL."""
    match settings.store:
        case "sqlite":
            queue = SqliteTurnQueue(settings.queue_path, clock=clock)
            return queue, SqliteCharacterStateStore(settings.state_path)
        case "server":
            with server_extra():
                from omoide.wiring.server import service_state
            return service_state(store, clock)


def build_growth(settings: Settings, store: MemoryBackend) -> GrowthStore:
    """Identity versions and stream logs: a file, or the server store's PostgreSQL."""
    match settings.store:
        case "sqlite":
            return SqliteGrowthStore(settings.data_dir / GROWTH_FILE)
        case "server":
            with server_extra():
                from omoide.wiring.server import growth_store
            return growth_store(store)


def build_key_store(settings: Settings, store: MemoryBackend) -> KeyStore:
    """Where the service finds API keys: the key file, or the server store's PostgreSQL."""
    match settings.store:
        case "sqlite":
            return KeyFile(key_file_path(settings.data_dir))
        case "server":
            with server_extra():
                from omoide.wiring.server import key_store
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
                from omoide.wiring.server import open_key_store as open_server_keys
            async with open_server_keys(settings) as store:
                yield store


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

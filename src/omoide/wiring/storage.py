"""Where everything is kept: files in the embedded profile, PostgreSQL + Qdrant in the server
profile. One ``match settings.store`` per part; the server half is :mod:`.server`, imported
only inside :func:`server_extra`, which names the extra when it is missing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.errors import ConfigError
from omoide.keys import KeyStore
from omoide.privacy.viewer_data import Scrubbable, ViewerLog
from omoide.store.base import EmbeddingInfo
from omoide.store.claims import Claimant
from omoide.store.sqlite.character_states import SqliteCharacterStateStore
from omoide.store.sqlite.connection import Database as SqliteDatabase
from omoide.store.sqlite.diary_jobs import SqliteDiaryJobs
from omoide.store.sqlite.growth import GROWTH_FILE, SqliteStreamLog, open_growth_file
from omoide.store.sqlite.growth_viewers import SqliteViewerRows
from omoide.store.sqlite.identity import IdentityTables
from omoide.store.sqlite.key_file import KeyFile, key_file_path
from omoide.store.sqlite.store import SqliteMemoryStore, open_sqlite_store
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from omoide.store.sqlite.viewer_work import SqliteViewerWork
from omoide.stream.logs import DiaryJobLog, StreamLog, ViewerWorkLog

if TYPE_CHECKING:  # the server extra is optional: imported where it is used
    from omoide.store.server.endpoints import ServerConfig
    from omoide.store.server.growth_identity import PostgresIdentityTables
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


@dataclass(frozen=True, slots=True)
class GrowthLogs:
    """The logs kept beside the memory store, each built on its own and passed on its own
    (to the stream service, the identity service, a viewer's data); one file, or the
    server store's database, holds them all."""

    stream: StreamLog
    diary_jobs: DiaryJobLog
    viewer_work: ViewerWorkLog
    viewer_rows: ViewerLog
    """One viewer's rows across the logs, for export and forgetting."""
    identity: IdentityTables | PostgresIdentityTables
    """Identity versions and the changes proposed to them."""
    file: SqliteDatabase | None = None
    """The growth file they share, in the embedded profile (closed and scrubbed once);
    ``None`` in the server profile, whose pool belongs to the memory store."""

    async def aclose(self) -> None:
        """Close the growth file, if the logs have one."""
        if self.file is not None:
            await self.file.close()


def sqlite_growth(path: Path, *, claimant: Claimant | None = None) -> GrowthLogs:
    """The growth logs of the growth file at ``path`` (opened here; closed with ``file``)."""
    database = open_growth_file(path)
    claimant = claimant or Claimant()
    return GrowthLogs(
        stream=SqliteStreamLog(database),
        diary_jobs=SqliteDiaryJobs(database, claimant),
        viewer_work=SqliteViewerWork(database, claimant),
        viewer_rows=SqliteViewerRows(database),
        identity=IdentityTables(database),
        file=database,
    )


def build_growth(settings: Settings, store: MemoryBackend) -> GrowthLogs:
    """Identity versions and stream logs: a file, or the server store's PostgreSQL."""
    match settings.store:
        case "sqlite":
            return sqlite_growth(settings.data_dir / GROWTH_FILE)
        case "server":
            with server_extra():
                from omoide.wiring.server import growth_logs
            return growth_logs(store)


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
            SqliteMemoryStore | SqliteTurnQueue | SqliteCharacterStateStore | SqliteDatabase,
        )
    ]

"""The embedded profile's files as :class:`~omoide.wiring.reader.Reader` opens them: each
on first use, once, closed with the reader; a file not created yet is not created, and
reads as empty (:class:`NoMemories`, :class:`NoFile`).
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from datetime import datetime
from typing import TYPE_CHECKING

from omoide.config import Settings
from omoide.domain import Episode, Fact, Scope, ScopeExport, TurnInput
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.records.character_state import CharacterState
from omoide.store.records.identity import ChangeStatus, IdentityVersion, PendingChange
from omoide.store.records.stream import ViewerStreamData
from omoide.store.sqlite.connection import Database
from omoide.store.sqlite.store import SqliteMemoryStore
from omoide.store.sqlite.vectors import VectorSpace

if TYPE_CHECKING:  # each part is imported when it is first opened
    from omoide.character.library import CharacterLibrary
    from omoide.clock import Clock
    from omoide.embed.base import Embedder
    from omoide.memory.context import MemoryContext
    from omoide.store.sqlite.character_states import SqliteCharacterStateStore
    from omoide.store.sqlite.growth_viewers import SqliteViewerRows
    from omoide.store.sqlite.identity import IdentityTables
    from omoide.store.sqlite.turn_queue import SqliteTurnQueue


class ReaderFiles:
    """The files under ``settings.data_dir``, opened for reading."""

    def __init__(self, settings: Settings, stack: AsyncExitStack) -> None:
        self._settings = settings
        self._stack = stack
        self._memory: SqliteMemoryStore | NoMemories | None = None
        self._space: VectorSpace | None = None
        self._growth: Database | None = None

    async def memory_store(self) -> SqliteMemoryStore | NoMemories:
        """The memory store as it is bound (its recorded model), whatever the settings name."""
        if self._memory is None:
            self._memory = await self._open_memory_store()
        return self._memory

    async def _open_memory_store(self) -> SqliteMemoryStore | NoMemories:
        from omoide.store.sqlite.migrations import open_memory_database
        from omoide.store.sqlite.vectors import current_space

        path = self._settings.database_path
        if not path.exists():
            return NoMemories()
        database = await open_memory_database(path, readers=1)
        self._stack.push_async_callback(database.close)
        self._space = await database.read(current_space)
        if self._space is None:  # bound to a model on its first open: never opened
            return NoMemories()
        return SqliteMemoryStore(database, self._space)

    async def bound_embedder(self) -> Embedder:
        """The configured embedder, refused (``Conflict``) unless the store is bound to its
        model; closed with the reader."""
        from omoide.store.base import EmbeddingInfo
        from omoide.store.sqlite.vectors import check_bound_model
        from omoide.wiring.models import build_embedder

        await self.memory_store()
        embedder = await build_embedder(self._settings)
        self._stack.push_async_callback(embedder.aclose)
        if self._space is not None:
            info = EmbeddingInfo(embedder.model_name, embedder.dimensions)
            check_bound_model(self._space, info, self._settings.database_path)
        return embedder

    def characters(self) -> CharacterLibrary:
        """The character library (a search leaves a character's own names out of the
        keyword query, as the full path does)."""
        from omoide.character.library import CharacterLibrary

        return CharacterLibrary(self._settings.characters_dirs)

    def queue(self, clock: Clock) -> SqliteTurnQueue | NoFile:
        """Turns accepted but not yet remembered."""
        from omoide.store.sqlite.turn_queue import SqliteTurnQueue

        path = self._settings.queue_path
        if not path.exists():
            return NoFile()
        queue = SqliteTurnQueue(path, clock=clock)
        self._stack.push_async_callback(queue.close)
        return queue

    def states(self) -> SqliteCharacterStateStore | NoFile:
        """The character's state per viewer."""
        from omoide.store.sqlite.character_states import SqliteCharacterStateStore

        path = self._settings.state_path
        if not path.exists():
            return NoFile()
        states = SqliteCharacterStateStore(path)
        self._stack.push_async_callback(states.close)
        return states

    def stream_rows(self) -> SqliteViewerRows | NoFile:
        """A viewer's rows in the stream logs of the growth file."""
        from omoide.store.sqlite.growth_viewers import SqliteViewerRows

        database = self._growth_file()
        return NoFile() if database is None else SqliteViewerRows(database)

    def identity_tables(self) -> IdentityTables | NoFile:
        """The identity tables of the growth file, without its stream logs."""
        from omoide.store.sqlite.identity import IdentityTables

        database = self._growth_file()
        return NoFile() if database is None else IdentityTables(database)

    def _growth_file(self) -> Database | None:
        from omoide.store.sqlite.files import open_sqlite_file
        from omoide.store.sqlite.growth import GROWTH_FILE, MIGRATIONS

        path = self._settings.data_dir / GROWTH_FILE
        if self._growth is None and path.exists():
            self._growth = open_sqlite_file(path, MIGRATIONS, durable=True)  # as the growth store
            self._stack.push_async_callback(self._growth.close)
        return self._growth


class NoMemories:
    """A memory store not created yet (or never bound to a model): nothing remembered."""

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]:
        return []

    async def export_scope(self, scope: Scope) -> ScopeExport:
        return ScopeExport(scope, episodes=(), facts=(), emotions=(), tombstones=())

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int:
        return 0

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]:
        return []

    async def list_episodes_for_decay(
        self, character_id: str, *, after_id: str | None, limit: int
    ) -> list[Episode]:
        return []

    async def list_archived_episodes(
        self,
        character_id: str,
        *,
        archived_from: datetime | None,
        archived_before: datetime | None,
        after_id: str | None,
        limit: int,
    ) -> list[Episode]:
        return []

    async def search(
        self, scope: Scope, query: str, *, now: datetime | None = None, limit: int | None = None
    ) -> MemoryContext:
        """Nothing to search: no query is embedded, since no vector was ever stored."""
        from omoide.memory.context import MemoryContext

        return MemoryContext()


class NoFile:
    """The queue, states or growth file not created yet: nothing kept in it."""

    async def viewer_turns(self, scope: Scope) -> list[TurnInput]:
        return []

    async def load(self, scope: Scope) -> CharacterState | None:
        return None

    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData:
        return ViewerStreamData(character_id, viewer_id)

    async def list_versions(self, character_id: str) -> list[IdentityVersion]:
        return []

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]:
        return []

"""The read-only path: what a reading command opens, and nothing else.

:func:`open_reader` gives a :class:`Reader`, the library's read use cases (a viewer's
facts and profile; a character's identity versions and pending changes) over the store
files alone: no embedder, no chat model, no turn queue or its worker, no stream service,
no web stack, and none of their imports. It opens only what a read asks for, on first use,
and creates nothing: a store that does not exist yet reads as empty, as it would after
being created, and stays uncreated.

The memory store is opened as it is bound (the embedding model recorded in the file), not
as the settings name it, so a read does not need the model; only the full path
(:func:`~omoide.wiring.build`) checks that the configured model matches.

The server profile has no such shortcut yet: its reader is a view over a full build.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Protocol

from omoide.clock import Clock, SystemClock
from omoide.config import Settings
from omoide.errors import NotFound

if TYPE_CHECKING:  # each read imports what it reads, when it is asked for
    from datetime import datetime

    from omoide.domain import Fact, Scope
    from omoide.memory.reading import FactSource
    from omoide.memory.viewer_profile import ProfileConfig, ViewerProfile
    from omoide.store.base import FactFilter
    from omoide.store.records.identity import ChangeStatus, IdentityVersion, PendingChange
    from omoide.wiring.root import Omoide


class MemoryReading(Protocol):
    """A viewer's facts and profile (:class:`~omoide.memory.reading.MemoryReader`)."""

    async def list_facts(self, scope: Scope, *, include_inactive: bool = False) -> list[Fact]: ...
    async def profile(self, scope: Scope, *, now: datetime | None = None) -> ViewerProfile: ...


class IdentityReading(Protocol):
    """A character's identity history (the read half of ``IdentityService``)."""

    async def versions(self, character_id: str) -> list[IdentityVersion]: ...
    async def version(self, character_id: str, number: int) -> IdentityVersion: ...
    async def changes(self, character_id: str) -> list[PendingChange]: ...


class Reader:
    """The read use cases; each part is opened on first use and closed by :func:`open_reader`."""

    def __init__(
        self,
        settings: Settings,
        stack: AsyncExitStack,
        clock: Clock,
        *,
        built: Omoide | None = None,
    ) -> None:
        self._settings = settings
        self._stack = stack
        self._clock = clock
        self._built = built
        self._memory: MemoryReading | None = None
        self._identity: IdentityReading | None = None

    async def memory(self) -> MemoryReading:
        from omoide.memory.reading import MemoryReader

        if self._memory is None:
            store = self._built.store if self._built else await self._open_memory_store()
            self._memory = MemoryReader(
                facts=store, profile=profile_config(self._settings), clock=self._clock
            )
        return self._memory

    async def identity(self) -> IdentityReading:
        if self._identity is None:
            self._identity = self._built.identity if self._built else self._open_identity()
        return self._identity

    async def _open_memory_store(self) -> FactSource:
        from omoide.store.sqlite.migrations import open_memory_database
        from omoide.store.sqlite.store import SqliteMemoryStore
        from omoide.store.sqlite.vectors import current_space

        path = self._settings.database_path
        if not path.exists():
            return _NoFacts()
        database = await open_memory_database(path, readers=1)
        self._stack.push_async_callback(database.close)
        space = await database.read(current_space)
        if space is None:  # bound to a model on its first open: never opened, nothing kept
            return _NoFacts()
        return SqliteMemoryStore(database, space)

    def _open_identity(self) -> IdentityReading:
        """The identity tables of the growth file, without its stream logs."""
        from omoide.store.sqlite.files import open_sqlite_file
        from omoide.store.sqlite.growth import GROWTH_FILE, MIGRATIONS
        from omoide.store.sqlite.identity import IdentityTables

        path = self._settings.data_dir / GROWTH_FILE
        if not path.exists():
            return IdentityHistory(None)
        database = open_sqlite_file(path, MIGRATIONS, durable=True)  # as the growth store
        self._stack.push_async_callback(database.close)
        return IdentityHistory(IdentityTables(database))


class IdentityRecords(Protocol):
    """Where identity versions and changes are kept (the read half of ``IdentityStore``)."""

    async def list_versions(self, character_id: str) -> list[IdentityVersion]: ...
    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]: ...


class IdentityHistory:
    """What ``IdentityService.versions``, ``.version`` and ``.changes`` answer, over the
    records alone: ``omoide.character`` (which holds the service) loads the character
    library and the prompt templates when imported. ``None``: no growth file yet, so no
    versions and no changes."""

    def __init__(self, records: IdentityRecords | None) -> None:
        self._records = records

    async def versions(self, character_id: str) -> list[IdentityVersion]:
        from omoide.store.records.profile import check_character_id

        check_character_id(character_id)
        return [] if self._records is None else await self._records.list_versions(character_id)

    async def version(self, character_id: str, number: int) -> IdentityVersion:
        for version in await self.versions(character_id):
            if version.number == number:
                return version
        raise NotFound(f"character {character_id!r} has no identity version {number}")

    async def changes(self, character_id: str) -> list[PendingChange]:
        from omoide.store.records.identity import ChangeStatus
        from omoide.store.records.profile import check_character_id

        check_character_id(character_id)
        if self._records is None:
            return []
        return await self._records.list_changes(character_id, status=ChangeStatus.PENDING)


def profile_config(settings: Settings) -> ProfileConfig:
    """How many facts the profile carries, and how a message steers them."""
    from omoide.memory.viewer_profile import ProfileConfig

    return ProfileConfig(share=settings.profile_share, max_entries=settings.profile_max_facts)


class _NoFacts:
    """A memory store not created yet: no facts."""

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]:
        return []


@asynccontextmanager
async def open_reader(settings: Settings, *, clock: Clock | None = None) -> AsyncIterator[Reader]:
    """A :class:`Reader` over the stores of ``settings``; everything it opened is closed
    after. The embedded profile opens only the files a read needs; the server profile
    builds everything (see the module's docstring)."""
    clock = clock or SystemClock()
    async with AsyncExitStack() as stack:
        if settings.store == "sqlite":
            yield Reader(settings, stack, clock)
            return
        from omoide.wiring.root import build

        built = await build(settings, clock=clock)
        stack.push_async_callback(built.aclose)
        yield Reader(settings, stack, clock, built=built)

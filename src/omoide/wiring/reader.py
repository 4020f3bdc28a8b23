"""The read-only path: what a reading command opens, and nothing else.

:func:`open_reader` gives a :class:`Reader`, the library's read use cases (a viewer's
facts, profile and export; a decay preview; a character's identity versions and pending
changes; a search; a reply's memory section) over the store files alone: no chat model,
no turn queue worker, no stream service, no web stack, and none of their imports. Only a
search and a reply's memory section load a model: the embedder, to embed the query (and
the latter the token counter). A reader opens only what a read asks for, on first use,
and creates nothing: a store that does not exist yet reads as empty, as it would after
being created, and stays uncreated. The one write is the full build's too: the memories
a reply's section recalled are reinforced when the reader closes.

The memory store is opened as it is bound (the embedding model recorded in the file), not
as the settings name it, so a read does not need the model; a search checks that the
configured model is the store's, as the full path (:func:`~omoide.wiring.build`) does.

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
    from omoide.memory.context import MemoryContext
    from omoide.memory.decay import DecayPreview
    from omoide.memory.forgetting import DecayPolicy
    from omoide.memory.reading import MemoryReader
    from omoide.memory.recall import Recaller, Recollection
    from omoide.memory.tokens import TokenCounter
    from omoide.memory.viewer_profile import ProfileConfig, ViewerProfile
    from omoide.privacy.viewer_export import ViewerExport
    from omoide.store.records.identity import ChangeStatus, IdentityVersion, PendingChange
    from omoide.store.sqlite.store import SqliteMemoryStore
    from omoide.wiring.reader_files import ReaderFiles
    from omoide.wiring.root import Omoide


class MemoryReading(Protocol):
    """A viewer's facts and profile, and a decay preview
    (:class:`~omoide.memory.reading.MemoryReader`)."""

    async def list_facts(self, scope: Scope, *, include_inactive: bool = False) -> list[Fact]: ...
    async def profile(self, scope: Scope, *, now: datetime | None = None) -> ViewerProfile: ...
    async def preview_decay(
        self,
        character_id: str,
        *,
        now: datetime | None = None,
        purge_archived_before: datetime | None = None,
    ) -> DecayPreview: ...


class MemorySearching(Protocol):
    """Ranked memories for a query (:class:`~omoide.memory.recall.Recaller`)."""

    async def search(
        self, scope: Scope, query: str, *, now: datetime | None = None, limit: int | None = None
    ) -> MemoryContext: ...


class ContextRecalling(Protocol):
    """The memory section for a reply (``MemoryManager.retrieve_context``)."""

    async def retrieve_context(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime | None = None,
        token_budget: int | None = None,
    ) -> Recollection: ...


class ProfileSteering(Protocol):
    """The profile as a reply to a message would carry it (``MemoryManager.profile``)."""

    async def profile(
        self, scope: Scope, message: str | None = None, *, now: datetime | None = None
    ) -> ViewerProfile: ...


class ViewerExporting(Protocol):
    """Everything kept about a viewer (:class:`~omoide.privacy.viewer_export.ViewerExporter`)."""

    async def export_viewer(self, scope: Scope) -> ViewerExport: ...


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
        self._files: ReaderFiles | None = None

    async def memory(self) -> MemoryReading:
        if self._built is not None:
            return self._built.memory
        return await self._memory_reader()

    async def search(self) -> MemorySearching:
        """Search needs the query embedded: the configured embedder, checked against the
        model the store is bound to (a ``Conflict`` if it differs, as the full path)."""
        if self._built is not None:
            return self._built.memory
        from omoide.memory.tokens import ApproximateTokenCounter
        from omoide.wiring.reader_files import NoMemories

        store = await self._opened().memory_store()
        if isinstance(store, NoMemories):
            return store  # nothing stored: no model to load, no query to embed
        return await self._recaller(store, ApproximateTokenCounter())  # renders nothing

    async def context(self) -> ContextRecalling:
        """A reply's memory section needs what a search needs, and the token counter the
        prompt is counted with. What it recalls is reinforced when the reader closes, as
        the full build does when it closes (nothing else is written)."""
        if self._built is not None:
            return self._built.memory
        from omoide.wiring.reader_files import NoMemories

        store = await self._opened().memory_store()
        if isinstance(store, NoMemories):  # no model to load, no store to create
            from omoide.wiring.recall import NothingToRecall

            budget = self._settings.context_token_budget
            return NothingToRecall(self._clock, token_budget=budget)
        import anyio

        from omoide.memory.tokens import SentencePieceTokenCounter
        from omoide.wiring.recall import RecallOnly

        counter = await anyio.to_thread.run_sync(SentencePieceTokenCounter)  # the full build's
        recaller = await self._recaller(store, counter)
        self._stack.push_async_callback(recaller.reinforcements.flush_quietly)
        return RecallOnly(recaller, self._clock)

    async def steered_profile(self) -> ProfileSteering:
        """The profile steered by a message needs the message embedded: what a search
        needs, without the token counter (nothing is rendered) and without writing."""
        if self._built is not None:
            return self._built.memory
        from omoide.memory.tokens import ApproximateTokenCounter
        from omoide.wiring.reader_files import NoMemories

        store = await self._opened().memory_store()
        if isinstance(store, NoMemories):  # no facts: the profile by weight is the same
            return _UnsteeredProfile(await self._memory_reader())
        from omoide.wiring.recall import RecallOnly

        recaller = await self._recaller(store, ApproximateTokenCounter())
        return RecallOnly(recaller, self._clock)

    async def _recaller(self, store: SqliteMemoryStore, counter: TokenCounter) -> Recaller:
        """The full build's recaller over ``store``, with the configured embedder."""
        from omoide.wiring.recall import build_recaller

        files = self._opened()
        embedder = await files.bound_embedder()
        return await build_recaller(
            self._settings,
            store,
            embedder=embedder,
            model_embedder=embedder,
            counter=counter,
            names=files.characters(),
            clock=self._clock,
        )

    async def viewer_data(self) -> ViewerExporting:
        if self._built is not None:
            return self._built.viewer_data
        from omoide.privacy.viewer_export import NoSessions, ViewerExporter

        files = self._opened()
        return ViewerExporter(
            memory=await self._memory_reader(),
            episodes=await files.memory_store(),
            queue=files.queue(self._clock),
            states=files.states(),
            history=NoSessions(),  # chat sessions live in the service's process only
            log=files.stream_rows(),
            identity=files.identity_tables(),
        )

    async def _memory_reader(self) -> MemoryReader:
        from omoide.memory.reading import MemoryReader

        return MemoryReader(
            store=await self._opened().memory_store(),
            profile=profile_config(self._settings),
            decay=decay_policy(self._settings),
            clock=self._clock,
        )

    async def identity(self) -> IdentityReading:
        if self._built is not None:
            return self._built.identity
        return IdentityHistory(self._opened().identity_tables())

    def _opened(self) -> ReaderFiles:
        from omoide.wiring.reader_files import ReaderFiles

        if self._files is None:
            self._files = ReaderFiles(self._settings, self._stack)
        return self._files


class IdentityRecords(Protocol):
    """Where identity versions and changes are kept (the read half of ``IdentityStore``)."""

    async def list_versions(self, character_id: str) -> list[IdentityVersion]: ...
    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]: ...


class IdentityHistory:
    """What ``IdentityService.versions``, ``.version`` and ``.changes`` answer, over the
    records alone: ``omoide.character`` (which holds the service) loads the character
    library and the prompt templates when imported."""

    def __init__(self, records: IdentityRecords) -> None:
        self._records = records

    async def versions(self, character_id: str) -> list[IdentityVersion]:
        from omoide.store.records.profile import check_character_id

        check_character_id(character_id)
        return await self._records.list_versions(character_id)

    async def version(self, character_id: str, number: int) -> IdentityVersion:
        for version in await self.versions(character_id):
            if version.number == number:
                return version
        raise NotFound(f"character {character_id!r} has no identity version {number}")

    async def changes(self, character_id: str) -> list[PendingChange]:
        from omoide.store.records.identity import ChangeStatus
        from omoide.store.records.profile import check_character_id

        check_character_id(character_id)
        return await self._records.list_changes(character_id, status=ChangeStatus.PENDING)


class _UnsteeredProfile:
    """The profile by weight standing in for one steered by a message (a store with no
    facts: a message has nothing to steer, and no model needs loading)."""

    def __init__(self, memory: MemoryReading) -> None:
        self._memory = memory

    async def profile(
        self, scope: Scope, message: str | None = None, *, now: datetime | None = None
    ) -> ViewerProfile:
        return await self._memory.profile(scope, now=now)


def profile_config(settings: Settings) -> ProfileConfig:
    """How many facts the profile carries, and how a message steers them."""
    from omoide.memory.viewer_profile import ProfileConfig

    return ProfileConfig(share=settings.profile_share, max_entries=settings.profile_max_facts)


def decay_policy(settings: Settings) -> DecayPolicy:
    """When a memory has faded enough to be archived (no setting changes it yet)."""
    from omoide.memory.forgetting import DecayPolicy

    return DecayPolicy()


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

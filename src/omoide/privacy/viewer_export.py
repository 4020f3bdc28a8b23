"""Export everything kept about one viewer: the read half of :mod:`.viewer_data`.

:class:`ViewerExporter` reads only (no embedder, no model, nothing written), so both the
service (through :class:`~omoide.privacy.viewer_data.ViewerData`) and the CLI's read path
(``omoide.wiring.open_reader``, over the store files alone) export with it: the same
reads, the same :class:`ViewerExport`. The helpers that find the viewer's words in the
character's own memories and identity history serve forgetting as well.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from omoide.domain import Episode, Scope, ScopeExport, TurnInput
from omoide.errors import InvalidInput
from omoide.memory.episode_readings import with_readings
from omoide.privacy.identity_redaction import redact_change, redact_version
from omoide.privacy.redaction import Redactor, ViewerWords
from omoide.store.base import EpisodeFilter
from omoide.store.records.character_state import CharacterState
from omoide.store.records.identity import ChangeStatus, IdentityVersion, PendingChange
from omoide.store.records.stream import ViewerStreamData

if TYPE_CHECKING:  # omoide.llm's package loads every HTTP client
    from omoide.llm.base import ChatMessage

PAGE = 200


class ScopeExporting(Protocol):
    """Every memory of one scope (the memory use case, or a memory store's reader)."""

    async def export_viewer(self, scope: Scope) -> ScopeExport: ...


class EpisodePages(Protocol):
    """A character's own memories, page by page (a memory store)."""

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int: ...

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]: ...


class QueuedTurns(Protocol):
    async def viewer_turns(self, scope: Scope) -> list[TurnInput]: ...


class StateSource(Protocol):
    async def load(self, scope: Scope) -> CharacterState | None: ...


class Sessions(Protocol):
    def of_viewer(self, scope: Scope) -> dict[str, list[ChatMessage]]: ...


class StreamRows(Protocol):
    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData: ...


class IdentityListing(Protocol):
    """The character's identity history, as far as a viewer's words may be in it."""

    async def list_versions(self, character_id: str) -> list[IdentityVersion]: ...

    async def list_changes(
        self, character_id: str, *, status: ChangeStatus | None
    ) -> list[PendingChange]: ...


class NoSessions:
    """The chat sessions of a process that holds none (a command-line read)."""

    def of_viewer(self, scope: Scope) -> dict[str, list[ChatMessage]]:
        return {}


@dataclass(frozen=True, slots=True)
class ViewerExport:
    """Everything kept about one viewer, wherever it is kept."""

    memory: ScopeExport
    queued_turns: tuple[TurnInput, ...]
    state: CharacterState | None
    sessions: dict[str, list[ChatMessage]]
    stream: ViewerStreamData
    quoted_in: tuple[str, ...]
    """Ids of the character's own memories (diary entries) that quote the viewer: their
    text is about others too, so it is not shown; forgetting redacts it."""
    quoted_in_versions: tuple[int, ...] = ()
    """Numbers of the character's identity versions that quote the viewer (likewise)."""
    quoted_in_changes: tuple[str, ...] = ()
    """Ids of the character's proposed identity changes that quote the viewer (likewise)."""


@dataclass(frozen=True, slots=True)
class ViewerExporter:
    """What :meth:`export_viewer` reads; built in :mod:`omoide.wiring` (twice: over the
    full build, and over the store files alone)."""

    memory: ScopeExporting
    episodes: EpisodePages
    queue: QueuedTurns
    states: StateSource
    history: Sessions
    log: StreamRows
    identity: IdentityListing

    async def export_viewer(self, scope: Scope) -> ViewerExport:
        """Everything forgetting the viewer would remove, and what it would redact."""
        viewer = viewer_of(scope)
        memory = await self.memory.export_viewer(scope)
        queued = await self.queue.viewer_turns(scope)
        stream = await self.log.viewer_data(scope.character_id, viewer)
        redactor = Redactor(viewer_words(scope, memory, queued, stream))
        quoting = quoting_episodes(self.episodes, scope.character_id, redactor)
        versions, changes = await identity_quoting(self.identity, scope.character_id, redactor)
        return ViewerExport(
            memory=memory,
            queued_turns=tuple(queued),
            state=await self.states.load(scope),
            sessions=self.history.of_viewer(scope),
            stream=stream,
            quoted_in=tuple([episode.id async for episode, _ in quoting]),
            quoted_in_versions=tuple(version.number for version in versions),
            quoted_in_changes=tuple(change.id for change in changes),
        )


def viewer_of(scope: Scope) -> str:
    if not isinstance(scope, Scope) or scope.user_id is None:
        raise InvalidInput("a viewer's data needs a viewer scope (scope.user_id is required)")
    return scope.user_id


async def identity_quoting(
    identity: IdentityListing, character_id: str, redactor: Redactor
) -> tuple[list[IdentityVersion], list[PendingChange]]:
    """The character's identity versions and proposed changes that hold the viewer's
    words, each redacted."""
    versions = [
        fixed
        for version in await identity.list_versions(character_id)
        if (fixed := redact_version(version, redactor)) != version
    ]
    changes = [
        redacted
        for change in await identity.list_changes(character_id, status=None)
        if (redacted := redact_change(change, redactor)) != change
    ]
    return versions, changes


async def quoting_episodes(
    episodes: EpisodePages, character_id: str, redactor: Redactor
) -> AsyncIterator[tuple[Episode, Episode]]:
    """The character's own memories that hold the viewer's words, and each redacted (with
    the readings of its new words: the old ones hold the viewer's)."""
    async for episode in _character_episodes(episodes, Scope(character_id)):
        fixed = replace(
            episode,
            user_message=redactor.redact(episode.user_message),
            bot_message=redactor.redact(episode.bot_message),
            topics=redactor.redact_topics(episode.topics),
        )
        if fixed != episode:
            yield episode, with_readings(fixed)


async def _character_episodes(episodes: EpisodePages, scope: Scope) -> AsyncIterator[Episode]:
    where = EpisodeFilter(include_archived=True)
    total = await episodes.count_episodes(scope, where=where)
    for offset in range(0, total, PAGE):
        for episode in await episodes.list_episodes(scope, where=where, limit=PAGE, offset=offset):
            yield episode


def viewer_words(
    scope: Scope,
    kept: ScopeExport,
    queued: Iterable[TurnInput],
    stream: ViewerStreamData,
) -> ViewerWords:
    """The viewer's names and texts, from everything kept about them."""
    turns = list(queued)
    comments = [comment.entry for comment in stream.comments]
    names = {scope.user_id or ""}
    names |= {turn.user_name for turn in turns if turn.user_name}
    names |= {name.name for name in kept.display_names}
    names |= {entry.display_name for entry in comments}
    names |= {fact.display_name for fact in stream.learned}
    if stream.summary is not None:
        names.add(stream.summary.display_name)
    for episode in kept.episodes:
        name = episode.metadata.get("user_name")
        if isinstance(name, str):
            names.add(name)
    texts = [episode.user_message for episode in kept.episodes]
    texts += [fact.text for fact in kept.facts]
    texts += [turn.user_message for turn in turns]
    texts += [entry.text for entry in comments]
    texts += [fact.text for fact in stream.learned]
    return ViewerWords(frozenset(names), tuple(texts))

"""Forget a viewer everywhere, or export everything kept about them: one use case each.

::

    report = await omoide.viewer_data.forget_viewer(Scope("haru", "viewer-7"))
    export = await omoide.viewer_data.export_viewer(Scope("haru", "viewer-7"))

What a viewer leaves, and where (forget removes all of it; export shows all of it):

* memories: episodes, facts (superseded versions too), emotion records, and the names
  the viewer went by, in the memory store (tombstones keep ids, kinds, times and reasons,
  never content);
* turns accepted but not yet remembered, in the turn queue (parked ones too);
* the character's state for the viewer, and the chat sessions' short-term history;
* the stream log: their comments, the facts noted from them, their rolling summary and
  their work row;
* text derived from them in the character's own memories (diary entries) and in its
  identity history (versions and proposed changes that quote them): not deleted, since
  it is about everyone, but their words are taken out by :mod:`omoide.privacy.redaction`
  (and, keeping every profile valid, :mod:`omoide.privacy.identity_redaction`).

The turn queue's drain is held while the viewer's queued turns are deleted, so a batch
being stored at that moment is stored first and then forgotten with the rest, and none
is stored after. Last, every local SQLite file empties its write-ahead log (deletes are
secure: a deleted row's bytes are overwritten), so no file keeps the forgotten words, and
in-process caches keyed by text (the query embedding cache) are emptied.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import Protocol

from omoide.character.identity_store import IdentityStore
from omoide.domain import Episode, ForgetReport, Scope, ScopeExport, TurnInput, Vector
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput
from omoide.llm.base import ChatMessage
from omoide.memory.manager import MemoryManager
from omoide.privacy.identity_redaction import redact_change, redact_version
from omoide.privacy.redaction import Redactor, ViewerWords
from omoide.store.base import EpisodeFilter
from omoide.store.records.character_state import CharacterState
from omoide.store.records.identity import IdentityVersion, PendingChange
from omoide.store.records.stream import ViewerStreamData

PAGE = 200


class ViewerEpisodes(Protocol):
    """What redaction reads and rewrites (a memory store)."""

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int: ...

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]: ...

    async def rewrite_episode(self, scope: Scope, episode: Episode, *, vector: Vector) -> None:
        """Replace a stored episode's words (its messages and topics) with ``episode``'s,
        same id, and its vector with ``vector``; the other fields stay (redaction)."""
        ...


class TurnDrain(Protocol):
    def paused(self) -> AbstractAsyncContextManager[None]:
        """No queued batch is being stored while the block runs."""
        ...


class ViewerQueue(Protocol):
    async def viewer_turns(self, scope: Scope) -> list[TurnInput]: ...
    async def forget_viewer(self, scope: Scope) -> list[TurnInput]: ...


class ViewerStates(Protocol):
    async def load(self, scope: Scope) -> CharacterState | None: ...
    async def delete(self, scope: Scope) -> None: ...


class ViewerHistory(Protocol):
    def of_viewer(self, scope: Scope) -> dict[str, list[ChatMessage]]: ...
    def forget(self, scope: Scope) -> None: ...


class ViewerLog(Protocol):
    async def viewer_data(self, character_id: str, viewer_id: str) -> ViewerStreamData: ...
    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData: ...


class Clearable(Protocol):
    def clear(self) -> None:
        """Drop every entry (an in-process cache keyed by text)."""
        ...


class Scrubbable(Protocol):
    async def scrub(self) -> None:
        """Make sure deleted content is gone from the backing files."""
        ...


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
class ViewerForgetReport:
    """What forgetting a viewer removed, by kind, and how many derived texts were redacted."""

    memory: ForgetReport
    queued_turns: int
    stream_comments: int
    stream_facts: int
    stream_summaries: int
    redacted_memories: int
    redacted_identity: int = 0
    """Identity versions and proposed changes the viewer's words were taken out of."""


def _viewer_of(scope: Scope) -> str:
    if not isinstance(scope, Scope) or scope.user_id is None:
        raise InvalidInput("a viewer's data needs a viewer scope (scope.user_id is required)")
    return scope.user_id


class ViewerData:
    """The use case; its collaborators are built once, in :mod:`omoide.wiring`."""

    def __init__(
        self,
        *,
        memory: MemoryManager,
        store: ViewerEpisodes,
        embedder: Embedder,
        drain: TurnDrain,
        queue: ViewerQueue,
        states: ViewerStates,
        history: ViewerHistory,
        log: ViewerLog,
        identity: IdentityStore,
        files: Sequence[Scrubbable] = (),
        caches: Sequence[Clearable] = (),
    ) -> None:
        self._memory = memory
        self._store = store
        self._embedder = embedder
        self._drain = drain
        self._queue = queue
        self._states = states
        self._history = history
        self._log = log
        self._identity = identity
        self._files = tuple(files)
        self._caches = tuple(caches)

    async def export_viewer(self, scope: Scope) -> ViewerExport:
        """Everything :meth:`forget_viewer` would remove."""
        viewer = _viewer_of(scope)
        memory = await self._memory.export_viewer(scope)
        queued = await self._queue.viewer_turns(scope)
        stream = await self._log.viewer_data(scope.character_id, viewer)
        redactor = Redactor(_viewer_words(scope, memory, queued, stream))
        quoting = self._quoting(scope.character_id, redactor)
        versions, changes = await self._identity_quoting(scope.character_id, redactor)
        return ViewerExport(
            memory=memory,
            queued_turns=tuple(queued),
            state=await self._states.load(scope),
            sessions=self._history.of_viewer(scope),
            stream=stream,
            quoted_in=tuple([episode.id async for episode, _ in quoting]),
            quoted_in_versions=tuple(version.number for version in versions),
            quoted_in_changes=tuple(change.id for change in changes),
        )

    async def forget_viewer(
        self, scope: Scope, *, reason: str = "forgotten by request"
    ) -> ViewerForgetReport:
        """Remove everything of the viewer, redact their words elsewhere, then scrub files."""
        viewer = _viewer_of(scope)
        async with self._drain.paused():
            queued = await self._queue.forget_viewer(scope)
        kept = await self._memory.export_viewer(scope)
        memory = await self._memory.forget_viewer(scope, reason=reason)
        stream = await self._log.forget_viewer(scope.character_id, viewer)
        await self._states.delete(scope)
        self._history.forget(scope)
        words = _viewer_words(scope, kept, queued, stream)
        redactor = Redactor(words)
        redacted = await self._redact_character(scope.character_id, redactor)
        versions, changes = await self._identity_quoting(scope.character_id, redactor)
        if versions or changes:
            await self._identity.rewrite_identity(versions, changes)
        for cache in self._caches:
            cache.clear()
        for file in self._files:
            await file.scrub()
        return ViewerForgetReport(
            memory=memory,
            queued_turns=len(queued),
            stream_comments=len(stream.comments),
            stream_facts=len(stream.learned),
            stream_summaries=int(stream.summary is not None),
            redacted_memories=redacted,
            redacted_identity=len(versions) + len(changes),
        )

    async def _redact_character(self, character_id: str, redactor: Redactor) -> int:
        """Take the viewer's words out of the character's own memories; how many changed."""
        changed = 0
        async for _, fixed in self._quoting(character_id, redactor):
            vector = (await self._embedder.embed_documents([fixed.searchable_text]))[0]
            await self._store.rewrite_episode(fixed.scope, fixed, vector=vector)
            changed += 1
        return changed

    async def _identity_quoting(
        self, character_id: str, redactor: Redactor
    ) -> tuple[list[IdentityVersion], list[PendingChange]]:
        """The character's identity versions and proposed changes that hold the viewer's
        words, each redacted."""
        versions = [
            fixed
            for version in await self._identity.list_versions(character_id)
            if (fixed := redact_version(version, redactor)) != version
        ]
        changes = [
            redacted
            for change in await self._identity.list_changes(character_id, status=None)
            if (redacted := redact_change(change, redactor)) != change
        ]
        return versions, changes

    async def _quoting(
        self, character_id: str, redactor: Redactor
    ) -> AsyncIterator[tuple[Episode, Episode]]:
        """The character's own memories that hold the viewer's words, and each redacted."""
        async for episode in self._character_episodes(Scope(character_id)):
            fixed = replace(
                episode,
                user_message=redactor.redact(episode.user_message),
                bot_message=redactor.redact(episode.bot_message),
                topics=redactor.redact_topics(episode.topics),
            )
            if fixed != episode:
                yield episode, fixed

    async def _character_episodes(self, scope: Scope) -> AsyncIterator[Episode]:
        where = EpisodeFilter(include_archived=True)
        total = await self._store.count_episodes(scope, where=where)
        for offset in range(0, total, PAGE):
            for episode in await self._store.list_episodes(
                scope, where=where, limit=PAGE, offset=offset
            ):
                yield episode


def _viewer_words(
    scope: Scope,
    kept: ScopeExport,
    queued: Iterable[TurnInput],
    stream: ViewerStreamData,
) -> ViewerWords:
    """The viewer's names and texts, from everything that was just removed."""
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

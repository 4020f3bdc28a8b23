"""Forget a viewer everywhere, or export everything kept about them: one use case each.

::

    report = await omoide.viewer_data.forget_viewer(Scope("haru", "viewer-7"))
    export = await omoide.viewer_data.export_viewer(Scope("haru", "viewer-7"))

The export reads only, and is :class:`~omoide.privacy.viewer_export.ViewerExporter`'s (the
CLI's read path exports with it too, over the store files alone).

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

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from omoide.domain import Episode, ForgetReport, Scope, TurnInput, Vector
from omoide.embed.base import Embedder
from omoide.memory.manager import MemoryManager
from omoide.privacy.redaction import Redactor
from omoide.privacy.viewer_export import (
    EpisodePages,
    IdentityListing,
    QueuedTurns,
    Sessions,
    StateSource,
    StreamRows,
    ViewerExport,
    ViewerExporter,
    identity_quoting,
    quoting_episodes,
    viewer_of,
    viewer_words,
)
from omoide.store.records.identity import IdentityVersion, PendingChange
from omoide.store.records.stream import ViewerStreamData


class ViewerEpisodes(EpisodePages, Protocol):
    """What redaction reads and rewrites (a memory store)."""

    async def rewrite_episode(self, scope: Scope, episode: Episode, *, vector: Vector) -> None:
        """Replace a stored episode's words (its messages and topics) with ``episode``'s,
        same id, and its vector with ``vector``; the other fields stay (redaction)."""
        ...


class TurnDrain(Protocol):
    def paused(self) -> AbstractAsyncContextManager[None]:
        """No queued batch is being stored while the block runs."""
        ...


class ViewerQueue(QueuedTurns, Protocol):
    async def forget_viewer(self, scope: Scope) -> list[TurnInput]: ...


class ViewerStates(StateSource, Protocol):
    async def delete(self, scope: Scope) -> None: ...


class ViewerHistory(Sessions, Protocol):
    def forget(self, scope: Scope) -> None: ...


class ViewerLog(StreamRows, Protocol):
    async def forget_viewer(self, character_id: str, viewer_id: str) -> ViewerStreamData: ...


class IdentityTexts(IdentityListing, Protocol):
    """The character's identity history, as far as a viewer's words may be in it."""

    async def rewrite_identity(
        self, versions: Sequence[IdentityVersion], changes: Sequence[PendingChange]
    ) -> None:
        """Overwrite the texts (profile, diff, reason; diff, refusals) of stored versions and
        changes, matched by character and number or id, in one transaction (forgetting a
        viewer takes their words out of them; nothing else is ever rewritten)."""
        ...


class Clearable(Protocol):
    def clear(self) -> None:
        """Drop every entry (an in-process cache keyed by text)."""
        ...


class Scrubbable(Protocol):
    async def scrub(self) -> None:
        """Make sure deleted content is gone from the backing files."""
        ...


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
        identity: IdentityTexts,
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
        self._exporter = ViewerExporter(
            memory=memory, episodes=store, queue=queue, states=states, history=history,
            log=log, identity=identity,
        )  # fmt: skip

    async def export_viewer(self, scope: Scope) -> ViewerExport:
        """Everything :meth:`forget_viewer` would remove (:class:`ViewerExporter`)."""
        return await self._exporter.export_viewer(scope)

    async def forget_viewer(
        self, scope: Scope, *, reason: str = "forgotten by request"
    ) -> ViewerForgetReport:
        """Remove everything of the viewer, redact their words elsewhere, then scrub files."""
        viewer = viewer_of(scope)
        async with self._drain.paused():
            queued = await self._queue.forget_viewer(scope)
        kept = await self._memory.export_viewer(scope)
        memory = await self._memory.forget_viewer(scope, reason=reason)
        stream = await self._log.forget_viewer(scope.character_id, viewer)
        await self._states.delete(scope)
        self._history.forget(scope)
        redactor = Redactor(viewer_words(scope, kept, queued, stream))
        redacted = await self._redact_character(scope.character_id, redactor)
        versions, changes = await identity_quoting(self._identity, scope.character_id, redactor)
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
        async for _, fixed in quoting_episodes(self._store, character_id, redactor):
            vector = (await self._embedder.embed_documents([fixed.searchable_text]))[0]
            await self._store.rewrite_episode(fixed.scope, fixed, vector=vector)
            changed += 1
        return changed

"""MemoryManager: the library's front door to a character's memory of its viewers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from omoide.clock import Clock, moment_of
from omoide.domain import (
    DisplayName,
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    ForgetReport,
    Scope,
    ScopeExport,
    Tombstone,
    TurnInput,
    TurnState,
    ViewerSummary,
)
from omoide.memory.config import MemoryConfig
from omoide.memory.context import MemoryContext
from omoide.memory.decay import (
    DecayMaintenance,
    DecayPreview,
    DecayReport,
    RestoreReport,
    preview_decay,
    restore_archived,
    run_decay,
)
from omoide.memory.deletion import MemoryDeletion, delete_episode_and_facts, delete_fact_for_good
from omoide.memory.emotions import EmotionSummary, summarise_emotions
from omoide.memory.facts.corrections import FactCorrector
from omoide.memory.recall import Recaller, Recollection
from omoide.memory.remember import Rememberer
from omoide.memory.turns import StoredTurn
from omoide.memory.viewer_profile import ViewerProfile
from omoide.metadata import MetadataValue
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.text_caches import forget_cached_texts

HEALTH_PROBE_SCOPE = Scope("omoide-health", "probe")


class MemoryListing(Protocol):
    """What the manager lists of a viewer's memory (a memory store), in the orders its
    methods of the same names give."""

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]: ...

    async def count_episodes(self, scope: Scope, *, where: EpisodeFilter) -> int: ...

    async def list_emotions(
        self, scope: Scope, *, since: datetime, until: datetime
    ) -> list[EmotionRecord]: ...

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...


class ViewerAdmin(Protocol):
    """What the manager answers and does about whole viewers (a memory store); its methods
    of the same names say what each one answers."""

    async def list_viewers(
        self, character_id: str, *, search: str | None, limit: int, offset: int = 0
    ) -> list[ViewerSummary]: ...

    async def count_viewers(self, character_id: str, *, search: str | None) -> int: ...

    async def list_display_names(self, scope: Scope) -> list[DisplayName]: ...

    async def forget_viewer(self, scope: Scope, *, reason: str, at: datetime) -> ForgetReport:
        """Delete every memory of ``scope``, and the digests its deleted facts left; the
        tombstones keep ids, kinds, times and reasons."""
        ...

    async def export_scope(self, scope: Scope) -> ScopeExport: ...


@dataclass(frozen=True, slots=True)
class EpisodeListing:
    """A page of episodes and the number of episodes in all."""

    episodes: tuple[Episode, ...]
    total: int


class MemoryManager:
    """Remember exchanges, recall what matters, correct and forget on request.

    Every operation takes a :class:`Scope` (or a character id for character-wide ones).
    The store's roles come one by one (the same store object plays them all).
    """

    def __init__(
        self,
        *,
        listing: MemoryListing,
        deletion: MemoryDeletion,
        viewers: ViewerAdmin,
        maintenance: DecayMaintenance,
        rememberer: Rememberer,
        recaller: Recaller,
        corrections: FactCorrector,
        config: MemoryConfig,
        clock: Clock,
    ) -> None:
        self._listing = listing
        self._deletion = deletion
        self._viewers = viewers
        self._maintenance = maintenance
        self._rememberer = rememberer
        self._recaller = recaller
        self._corrections = corrections
        self._config = config
        self._clock = clock

    @property
    def clock(self) -> Clock:
        return self._clock

    def _now(self, now: datetime | None) -> datetime:
        return moment_of(now, self._clock)

    # --- the reply path ---------------------------------------------------------------
    async def retrieve_context(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime | None = None,
        token_budget: int | None = None,
    ) -> Recollection:
        """The memory section for a reply to ``query``; waits for no language model."""
        return await self._recaller.recall(scope, query, now=now, token_budget=token_budget)

    async def search(
        self, scope: Scope, query: str, *, now: datetime | None = None, limit: int | None = None
    ) -> MemoryContext:
        """Ranked memories with their score components; reinforces nothing (noted
        reinforcements are written first, so the recency shown is current).

        ``limit`` (default: the prompt's sizes) caps facts and episodes; candidates are
        bounded by the recall configuration's candidate counts.
        """
        await self.flush_reinforcements()
        return await self._recaller.search(scope, query, now=self._now(now), limit=limit)

    async def profile(
        self, scope: Scope, message: str | None = None, *, now: datetime | None = None
    ) -> ViewerProfile:
        """What the viewer has told about themselves, as the prompt carries it: chosen by
        weight alone, or steered by ``message`` as a reply to it would be."""
        return await self._recaller.profile(scope, message, now=self._now(now))

    # --- the write path ---------------------------------------------------------------
    async def store_interaction(
        self,
        scope: Scope,
        user_message: str,
        bot_message: str,
        state: TurnState | None = None,
        *,
        timestamp: datetime | None = None,
        metadata: Mapping[str, MetadataValue] | None = None,
        force_store: bool = False,
        importance: float | None = None,
        user_name: str | None = None,
    ) -> StoredTurn:
        """Remember one exchange given field by field (see :meth:`remember`)."""
        turn = TurnInput(
            scope=scope,
            user_message=user_message,
            bot_message=bot_message,
            state=state or TurnState(),
            timestamp=timestamp,
            metadata=dict(metadata or {}),
            force_store=force_store,
            importance=importance,
            user_name=user_name,
        )
        return await self.remember(turn)

    async def remember(self, turn: TurnInput) -> StoredTurn:
        """Remember one exchange now (the explicit and import path that the API, the CLI
        and MCP share; chat turns go through the durable queue instead)."""
        (stored,) = await self.store_interactions(turn.scope.character_id, [turn])
        return stored

    async def store_interactions(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> list[StoredTurn]:
        """Remember a batch of one character's exchanges in one transaction (and write the
        reinforcements the reply path noted; their failure does not stop the batch)."""
        await self._recaller.reinforcements.flush_quietly()
        return await self._rememberer.remember(character_id, turns)

    async def store_interaction_batches(
        self, character_id: str, batches: Sequence[Sequence[TurnInput]]
    ) -> list[list[StoredTurn]]:
        """Like :meth:`store_interactions` for each batch in turn (one transaction each),
        with the next batch scored and embedded while the current one is stored."""
        await self._recaller.reinforcements.flush_quietly()
        return await self._rememberer.remember_batches(character_id, batches)

    # --- facts ------------------------------------------------------------------------
    async def list_facts(self, scope: Scope, *, include_inactive: bool = False) -> list[Fact]:
        await self.flush_reinforcements()  # recall counts as of now
        return await self._listing.list_facts(
            scope, where=FactFilter(include_inactive=include_inactive)
        )

    async def add_fact(
        self,
        scope: Scope,
        text: str,
        category: FactCategory,
        *,
        confidence: float = 0.9,
        salience: float = 0.6,
        at: datetime | None = None,
    ) -> Fact:
        return await self._corrections.add_manual(
            scope,
            text=text,
            category=category,
            confidence=confidence,
            salience=salience,
            at=self._now(at),
        )

    async def correct_fact(
        self,
        scope: Scope,
        fact_id: str,
        *,
        text: str | None = None,
        category: FactCategory | None = None,
        confidence: float | None = None,
        salience: float | None = None,
        at: datetime | None = None,
    ) -> Fact:
        return await self._corrections.correct(
            scope,
            fact_id,
            text=text,
            category=category,
            confidence=confidence,
            salience=salience,
            at=self._now(at),
        )

    async def delete_fact(
        self, scope: Scope, fact_id: str, *, reason: str = "deleted by request"
    ) -> Tombstone:
        """Delete a fact for good (see :func:`~omoide.memory.deletion.delete_fact_for_good`)."""
        at = self._clock.now()
        tombstone = await delete_fact_for_good(self._deletion, scope, fact_id, reason=reason, at=at)
        forget_cached_texts()
        return tombstone

    # --- episodes, emotions, viewers ----------------------------------------------------
    async def delete_episode(
        self, scope: Scope, episode_id: str, *, reason: str = "deleted by request"
    ) -> Tombstone:
        """Delete an exchange and the facts learned from it alone (see
        :func:`~omoide.memory.deletion.delete_episode_and_facts`)."""
        at = self._clock.now()
        tombstone = await delete_episode_and_facts(
            self._deletion, scope, episode_id, reason=reason, at=at
        )
        forget_cached_texts()
        return tombstone

    async def emotion_summary(
        self, scope: Scope, *, days: int | None = None, now: datetime | None = None
    ) -> EmotionSummary:
        moment = self._now(now)
        span = days if days is not None else self._config.recall.emotion_days
        records = await self._listing.list_emotions(
            scope, since=moment - timedelta(days=span), until=moment
        )
        return summarise_emotions(records, now=moment, days=span)

    async def forget_viewer(
        self, scope: Scope, *, reason: str = "forgotten by request"
    ) -> ForgetReport:
        """Delete everything of ``scope``; every cache of remembered text is emptied too
        (:mod:`omoide.text_caches`)."""
        report = await self._viewers.forget_viewer(scope, reason=reason, at=self._clock.now())
        forget_cached_texts()
        return report

    async def export_viewer(self, scope: Scope) -> ScopeExport:
        await self.flush_reinforcements()
        return await self._viewers.export_scope(scope)

    # --- maintenance ------------------------------------------------------------------
    async def list_episodes(
        self, scope: Scope, *, include_archived: bool = False, limit: int, offset: int = 0
    ) -> EpisodeListing:
        """A page of the viewer's episodes, newest first, with recall counts as of now,
        and how many there are in all."""
        await self.flush_reinforcements()
        where = EpisodeFilter(include_archived=include_archived)
        episodes = await self._listing.list_episodes(scope, where=where, limit=limit, offset=offset)
        total = await self._listing.count_episodes(scope, where=where)
        return EpisodeListing(tuple(episodes), total)

    async def list_emotions(
        self, scope: Scope, *, since: datetime, until: datetime
    ) -> list[EmotionRecord]:
        """The viewer's emotion records between ``since`` and ``until``, oldest first."""
        return await self._listing.list_emotions(scope, since=since, until=until)

    async def list_viewers(
        self, character_id: str, *, search: str | None = None, limit: int, offset: int = 0
    ) -> list[ViewerSummary]:
        """Viewers the character remembers (any memory stored), most recently seen first,
        each with the name they went by last (``search``: part of a viewer id or of a name
        they went by, ignoring case by Unicode case folding)."""
        return await self._viewers.list_viewers(
            character_id, search=search, limit=limit, offset=offset
        )

    async def count_viewers(self, character_id: str, *, search: str | None = None) -> int:
        """How many viewers :meth:`list_viewers` lists over all its pages."""
        return await self._viewers.count_viewers(character_id, search=search)

    async def list_display_names(self, scope: Scope) -> list[DisplayName]:
        """The names the viewer went by, the latest first (none for a viewer never seen)."""
        return await self._viewers.list_display_names(scope)

    async def check_store(self) -> None:
        """Ask the store a cheap question; its error (BackendError) if it cannot answer."""
        await self._listing.count_episodes(HEALTH_PROBE_SCOPE, where=EpisodeFilter())

    async def run_decay(
        self,
        character_id: str,
        *,
        now: datetime | None = None,
        purge_archived_before: datetime | None = None,
    ) -> DecayReport:
        await self.flush_reinforcements()
        return await run_decay(
            self._maintenance,
            character_id,
            policy=self._config.decay,
            now=self._now(now),
            purge_archived_before=purge_archived_before,
        )

    async def preview_decay(
        self,
        character_id: str,
        *,
        now: datetime | None = None,
        purge_archived_before: datetime | None = None,
    ) -> DecayPreview:
        """What :meth:`run_decay` with the same arguments would archive and purge; changes
        nothing."""
        await self.flush_reinforcements()
        return await preview_decay(
            self._maintenance,
            character_id,
            policy=self._config.decay,
            now=self._now(now),
            purge_archived_before=purge_archived_before,
        )

    async def restore_archived(
        self,
        character_id: str,
        *,
        episode_ids: Sequence[str] | None = None,
        archived_since: datetime | None = None,
    ) -> RestoreReport:
        """Bring archived episodes back into retrieval: these ids, or all archived since a
        time (a decay run's ``now`` undoes that run)."""
        return await restore_archived(
            self._maintenance, character_id, episode_ids=episode_ids, archived_since=archived_since
        )

    async def flush_reinforcements(self) -> int:
        """Write the reinforcements :meth:`retrieve_context` noted (it does not wait for
        the write); how many recalls were written. Writes and reads that show recall
        counts do this themselves."""
        return await self._recaller.reinforcements.flush()

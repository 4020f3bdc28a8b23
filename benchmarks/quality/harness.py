"""One haystack in its own omoide store: ingested through the real write path, searched
through the real store and recall path.

The write path is omoide's :class:`~omoide.memory.remember.Rememberer` (rule importance,
rule fact extraction: what runs without a language model), fed in batches through
:meth:`~omoide.memory.manager.MemoryManager.store_interactions`, one transaction each.
Every unit is stored (``force_store=True``) with its unit id in the episode's metadata.

For each probe, :meth:`HaystackMemory.pool` runs the two store searches once, with the
filter and the candidate count the recall path uses (recorded no later than the
question), and keeps what relevance needs besides the scores: the embedder's calibrated
:class:`~omoide.memory.ranking.RelevanceScale` and the query's distinct keyword terms.
The systems rank that pool (see :mod:`benchmarks.quality.systems`).
:meth:`HaystackMemory.recaller_ranking` asks the real :class:`~omoide.memory.recall.Recaller`,
to check that the systems rank exactly as ``MemoryManager.search`` does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmarks.quality.dataset import Haystack, Probe, Unit
from omoide.clock import FixedClock
from omoide.domain import Episode, Scope, TurnInput
from omoide.embed.base import Embedder
from omoide.embed.centring import CentredQueries, ChatCentroid
from omoide.memory.config import MemoryConfig, RecallConfig
from omoide.memory.extraction.values import FactExtractor
from omoide.memory.facts.corrections import FactCorrector
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.importance import ImportanceScorer
from omoide.memory.manager import MemoryManager
from omoide.memory.ranking import RelevanceScale
from omoide.memory.recall import Recaller
from omoide.memory.relevance import RelevanceFloor
from omoide.memory.remember import Rememberer
from omoide.memory.tokens import TokenCounter
from omoide.metrics import Metrics
from omoide.store.base import EmbeddingInfo, EpisodeFilter, Hit
from omoide.store.keywords import analyze_query
from omoide.store.sqlite.store import open_sqlite_store
from omoide.wiring.storage import MemoryBackend

UNIT_KEY = "unit"
STORE_KEYWORDS = "store"
INGEST_BATCH = 64


@dataclass(frozen=True, slots=True)
class Calibration:
    """Per-model thresholds the write and recall paths need (computed once per model)."""

    duplicate_threshold: float
    floors: RelevanceFloor
    centroid: ChatCentroid | None = None
    """The embedder's chat centroid: omoide searches with centred queries, as the product
    does (:mod:`omoide.embed.centring`); the plain vector baseline does not."""


@dataclass(frozen=True, slots=True)
class Pool:
    """What the two store searches found for one probe, best first."""

    probe: Probe
    vector: tuple[Hit[Episode], ...]
    keyword: tuple[Hit[Episode], ...]
    scale: RelevanceScale
    """The embedder's calibrated scale (``RelevanceFloor.scale()``), as the Recaller uses."""
    query_terms: int
    """Distinct keyword terms of the question, as the Recaller counts them."""
    plain_vector: tuple[Hit[Episode], ...] = ()
    """The store's vector hits for the plain query vector (the ``vector`` baseline); the
    same as ``vector`` when the embedder has no chat centroid."""
    variants: Mapping[str, tuple[Hit[Episode], ...]] = field(default_factory=dict)
    """Keyword hits of the experimental searches (:mod:`benchmarks.quality.variants`)."""
    neighbours: Mapping[str, tuple[Episode, ...]] = field(default_factory=dict)
    """The timeline neighbours of every pooled episode, by episode id, as the recall path
    reads them (the store's ``episode_neighbours``)."""

    def episodes(self) -> dict[str, Episode]:
        """Every pooled episode (of every list) by episode id."""
        lists = [self.vector, self.keyword, *self.variants.values()]
        return {hit.item.id: hit.item for hits in lists for hit in hits}

    def keyword_hits(self, source: str) -> tuple[Hit[Episode], ...]:
        return self.keyword if source == STORE_KEYWORDS else self.variants[source]


@dataclass(frozen=True, slots=True)
class IngestStats:
    units: int
    seconds: float
    facts_changed: int
    extraction_failures: int


def unit_of(episode: Episode) -> str:
    return str(episode.metadata[UNIT_KEY])


def recall_filter(probe: Probe) -> EpisodeFilter:
    """The episode filter of ``Recaller.look_up`` at the question's time."""
    return EpisodeFilter(min_importance=RecallConfig().min_importance, until=probe.now)


def turn_input(scope: Scope, unit: Unit) -> TurnInput:
    return TurnInput(
        scope=scope,
        user_message=unit.text,
        bot_message=unit.reply,
        timestamp=unit.at,
        metadata={UNIT_KEY: unit.unit_id},
        force_store=True,
    )


class HaystackMemory:
    """One haystack's store and the memory pipeline over it."""

    def __init__(
        self,
        *,
        store: MemoryBackend,
        memory: MemoryManager,
        embedder: Embedder,
        scope: Scope,
        haystack: Haystack,
        parts: tuple[Embedder, TokenCounter, Calibration, FixedClock],
    ) -> None:
        self._store = store
        self._memory = memory
        self._embedder = embedder
        self.scope = scope
        self.haystack = haystack
        self._parts = parts

    @classmethod
    async def open(
        cls,
        path: Path,
        haystack: Haystack,
        *,
        character_id: str,
        embedder: Embedder,
        extractor: FactExtractor,
        counter: TokenCounter,
        calibration: Calibration,
        config: MemoryConfig | None = None,
    ) -> HaystackMemory:
        info = EmbeddingInfo(embedder.model_name, embedder.dimensions)
        store = await open_sqlite_store(path, embedding=info)
        clock = FixedClock(max(unit.at for unit in haystack.units))
        parts = (embedder, counter, calibration, clock)
        memory = _manager(store, extractor, config or MemoryConfig(), parts)
        scope = Scope(character_id, haystack.key)
        return cls(
            store=store,
            memory=memory,
            embedder=embedder,
            scope=scope,
            haystack=haystack,
            parts=parts,
        )

    async def ingest(self, batch_size: int = INGEST_BATCH) -> IngestStats:
        """Store every unit, in order, ``batch_size`` turns per transaction."""
        started = time.perf_counter()
        changed = failures = 0
        units = self.haystack.units
        for start in range(0, len(units), batch_size):
            turns = [turn_input(self.scope, unit) for unit in units[start : start + batch_size]]
            stored = await self._memory.store_interactions(self.scope.character_id, turns)
            changed += sum(len(turn.fact_changes) for turn in stored)
            failures += sum(1 for turn in stored if turn.extraction_failed)
        seconds = time.perf_counter() - started
        return IngestStats(len(units), seconds, changed, failures)

    async def pool(self, probe: Probe, *, limit: int) -> Pool:
        """Both store searches for ``probe``, filtered as the recall path filters them."""
        where = recall_filter(probe)
        plain = await self._embedder.embed_query(probe.question)
        calibration = self._parts[2]
        centroid = calibration.centroid
        vector = plain if centroid is None else centroid.centre(plain)
        by_vector = await self._store.search_episode_vectors(
            self.scope, vector, where=where, limit=limit
        )
        by_plain = by_vector
        if centroid is not None:
            by_plain = await self._store.search_episode_vectors(
                self.scope, plain, where=where, limit=limit
            )
        by_keyword = await self._store.search_episode_keywords(
            self.scope, probe.question, where=where, limit=limit
        )
        terms = len(set(analyze_query(probe.question)))
        scale = calibration.floors.scale()
        return Pool(
            probe, tuple(by_vector), tuple(by_keyword), scale, terms, plain_vector=tuple(by_plain)
        )

    async def with_neighbours(self, pool: Pool) -> Pool:
        """``pool`` with the timeline neighbours of all its episodes, read as recall does."""
        ids = list(pool.episodes())
        where = recall_filter(pool.probe)
        found = await self._store.episode_neighbours(self.scope, ids, where=where)
        return replace(pool, neighbours=found)

    async def episodes_by_unit(self) -> dict[str, Episode]:
        """Every stored episode of the haystack, by unit id."""
        episodes = await self._store.list_episodes(
            self.scope, where=EpisodeFilter(), limit=len(self.haystack.units) + 1
        )
        return {unit_of(episode): episode for episode in episodes}

    async def recaller_ranking(self, probe: Probe, config: MemoryConfig, limit: int) -> list[str]:
        """Unit ids in the order ``MemoryManager.search`` ranks them under ``config`` (its
        best ``limit``): ``Recaller.look_up(for_prompt=False)``."""
        embedder, counter, calibration, clock = self._parts
        recaller = _recaller(self._store, embedder, counter, config, clock, calibration)
        context, _ = await recaller.look_up(
            self.scope, probe.question, now=probe.now, for_prompt=False, limit=limit
        )
        return [unit_of(ranked.item) for ranked in context.episodes]

    async def close(self) -> None:
        try:
            await self._memory.flush_reinforcements()
        finally:
            await self._store.close()


def _manager(
    store: MemoryBackend,
    extractor: FactExtractor,
    config: MemoryConfig,
    parts: tuple[Embedder, TokenCounter, Calibration, FixedClock],
) -> MemoryManager:
    """omoide's memory pipeline over ``store``, wired as ``omoide.wiring.build`` wires it
    without a language model (rule importance, the given fact extractor)."""
    embedder, counter, calibration, clock = parts
    metrics = Metrics()
    facts = FactKeeper(
        store=store,
        embedder=embedder,
        duplicate_threshold=calibration.duplicate_threshold,
        metrics=metrics,
    )
    rememberer = Rememberer(
        store=store,
        embedder=embedder,
        scorer=ImportanceScorer(llm=None, metrics=metrics),
        extractor=extractor,
        facts=facts,
        config=config.write,
        clock=clock,
        metrics=metrics,
    )
    recaller = _recaller(store, embedder, counter, config, clock, calibration)
    return MemoryManager(
        listing=store,
        deletion=store,
        viewers=store,
        maintenance=store,
        rememberer=rememberer,
        recaller=recaller,
        corrections=FactCorrector(store=store, embedder=embedder),
        config=config,
        clock=clock,
    )


def _recaller(
    store: MemoryBackend,
    embedder: Embedder,
    counter: TokenCounter,
    config: MemoryConfig,
    clock: FixedClock,
    calibration: Calibration,
) -> Recaller:
    centroid = calibration.centroid
    return Recaller(
        store=store,
        embedder=embedder if centroid is None else CentredQueries(embedder, centroid),
        counter=counter,
        config=config,
        clock=clock,
        floors=calibration.floors,
    )

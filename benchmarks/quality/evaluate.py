"""Running every system over one dataset.

Phase 1, per embedder: each haystack is ingested into its own store through omoide's
write path, both store searches run once per probe (the :class:`Pool`), and the store is
deleted (embeddings stay cached on disk). Phase 2: the baselines, today's defaults and
the whole grid of :func:`~benchmarks.quality.systems.grid` rank every pool. Every
question keeps the half of the dataset it belongs to (:mod:`benchmarks.quality.split`);
choosing among the configurations happens later, on the dev half only
(:mod:`benchmarks.quality.summary`).

Two checks run along the way, on the first ``verify_probes`` pools of each embedder:
the real ``Recaller`` (what ``MemoryManager.search`` calls) must order the pool exactly
as :func:`~benchmarks.quality.systems.exact_order` does under today's defaults, and the
fast grid ranking must equal the exact one for every configuration.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.quality.dataset import Dataset, Haystack
from benchmarks.quality.embedding_cache import DiskCachedEmbedder
from benchmarks.quality.harness import Calibration, HaystackMemory, Pool
from benchmarks.quality.metrics import QuestionScore, score_ranking, to_groups
from benchmarks.quality.split import probe_splits
from benchmarks.quality.systems import (
    CANDIDATES,
    DEPTH,
    PoolRanker,
    SystemKind,
    SystemSpec,
    default_spec,
    exact_order,
    grid,
)
from omoide.memory.config import MemoryConfig
from omoide.memory.extraction.values import FactExtractor
from omoide.memory.tokens import TokenCounter

logger = logging.getLogger("benchmarks.quality")

EXCLUDED_CATEGORIES = frozenset({"adversarial"})


@dataclass(frozen=True, slots=True)
class Embedding:
    """A cached embedder and the thresholds calibrated for its model."""

    name: str
    embedder: DiskCachedEmbedder
    calibration: Calibration


@dataclass(frozen=True, slots=True)
class Tools:
    """What every haystack run shares."""

    work_dir: Path
    extractor: FactExtractor
    counter: TokenCounter
    verify_probes: int
    tune: bool = True
    """Rank the whole grid, not only the baselines and today's defaults."""


@dataclass
class EmbeddingRun:
    """Phase 1 under one embedder: the pools, and what ingesting and searching cost."""

    name: str
    primary: bool
    pools: list[tuple[Pool, Mapping[str, str]]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))


@dataclass
class DatasetRun:
    """Per-question scores of every system on one dataset."""

    dataset: Dataset
    character_id: str
    selection_metric: str
    embeddings: dict[str, EmbeddingRun] = field(default_factory=dict)
    rows: dict[str, list[QuestionScore]] = field(default_factory=lambda: defaultdict(list))
    session_rows: dict[str, list[QuestionScore]] = field(default_factory=lambda: defaultdict(list))
    splits: dict[str, str] = field(default_factory=dict)
    """Probe id -> ``dev`` or ``heldout`` (:mod:`benchmarks.quality.split`)."""
    skipped_probes: int = 0


def systems_for(embedding: str, *, primary: bool, tune: bool) -> list[SystemSpec]:
    """BM25 (once per dataset), vector search, today's defaults and the grid."""
    specs = [SystemSpec(SystemKind.VECTOR, embedder=embedding), default_spec(embedding)]
    if primary:
        specs.insert(0, SystemSpec(SystemKind.KEYWORD))
    if tune:
        specs += grid(embedding)
    return list({spec.name: spec for spec in specs}.values())


async def collect(
    run: DatasetRun, embedding: Embedding, haystacks: Sequence[Haystack], tools: Tools
) -> EmbeddingRun:
    """Phase 1: ingest and search every haystack under ``embedding``."""
    phase = EmbeddingRun(embedding.name, primary=not run.embeddings)
    run.embeddings[embedding.name] = phase
    await warm(run, phase, embedding, haystacks)
    for index, haystack in enumerate(haystacks):
        await collect_haystack(run, phase, haystack, embedding, tools)
        if (index + 1) % 25 == 0 or index + 1 == len(haystacks):
            logger.info(
                "%s/%s: %d/%d haystacks ingested and searched",
                run.dataset.name,
                embedding.name,
                index + 1,
                len(haystacks),
            )
    return phase


async def warm(
    run: DatasetRun, phase: EmbeddingRun, embedding: Embedding, haystacks: Sequence[Haystack]
) -> None:
    """Embed every unit up front, length-sorted, into the disk cache."""
    started = time.perf_counter()
    texts = [f"{unit.text}\n{unit.reply}".strip() for stack in haystacks for unit in stack.units]
    computed = await embedding.embedder.warm(texts)
    phase.timings["embed_seconds"] += time.perf_counter() - started
    phase.counts["embedded_texts"] += computed
    phase.counts["cached_texts"] += len(texts) - computed
    logger.info(
        "%s/%s: %d texts embedded, %d cached",
        run.dataset.name,
        embedding.name,
        computed,
        len(texts) - computed,
    )


def store_path(tools: Tools, run: DatasetRun, embedding: str, haystack: Haystack) -> Path:
    folder = tools.work_dir / "stores" / run.dataset.name / embedding
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{haystack.key}.sqlite3"


async def open_memory(
    path: Path, haystack: Haystack, character_id: str, embedding: Embedding, tools: Tools
) -> HaystackMemory:
    """A fresh store for ``haystack`` at ``path`` with the embedding's model and the tools."""
    return await HaystackMemory.open(
        path,
        haystack,
        character_id=character_id,
        embedder=embedding.embedder,
        extractor=tools.extractor,
        counter=tools.counter,
        calibration=embedding.calibration,
    )


def remove_store(path: Path) -> None:
    for file in path.parent.glob(f"{path.name}*"):
        file.unlink()


async def collect_haystack(
    run: DatasetRun, phase: EmbeddingRun, haystack: Haystack, embedding: Embedding, tools: Tools
) -> None:
    path = store_path(tools, run, embedding.name, haystack)
    remove_store(path)
    memory = await open_memory(path, haystack, run.character_id, embedding, tools)
    try:
        stats = await memory.ingest()
        phase.timings["ingest_seconds"] += stats.seconds
        phase.counts["ingested_units"] += stats.units
        phase.counts["fact_changes"] += stats.facts_changed
        phase.counts["extraction_failures"] += stats.extraction_failures
        await search_haystack(run, phase, memory, tools)
    finally:
        await memory.close()
        remove_store(path)


async def search_haystack(
    run: DatasetRun, phase: EmbeddingRun, memory: HaystackMemory, tools: Tools
) -> None:
    groups = {unit.unit_id: unit.group for unit in memory.haystack.units}
    for probe in memory.haystack.probes:
        if not probe.evidence and not probe.evidence_groups:
            run.skipped_probes += int(phase.primary)
            continue
        started = time.perf_counter()
        pool = await memory.with_neighbours(await memory.pool(probe, limit=CANDIDATES))
        phase.timings["search_seconds"] += time.perf_counter() - started
        phase.counts["searches"] += 1
        phase.pools.append((pool, groups))
        if phase.counts["recaller_checked"] < tools.verify_probes:
            expected = await memory.recaller_ranking(probe, MemoryConfig(), DEPTH)
            ours = exact_order(default_spec(phase.name), pool)
            phase.counts["recaller_agreed"] += int(ours == expected)
            phase.counts["recaller_checked"] += 1


def score_systems(
    run: DatasetRun, phase: EmbeddingRun, specs: Sequence[SystemSpec], verify: int
) -> None:
    """Phase 2: every system ranks every pool of ``phase``; the first ``verify`` pools
    also check the fast ranking against omoide's own ``rank``."""
    for position, (pool, groups) in enumerate(phase.pools):
        ranker = PoolRanker(pool)
        probe = pool.probe
        for spec in specs:
            ranking = ranker.order(spec)
            if position < verify and spec.kind is SystemKind.OMOIDE:
                phase.counts["fast_checked"] += 1
                phase.counts["fast_agreed"] += int(ranking == exact_order(spec, pool))
            if probe.evidence:
                scores = score_ranking(ranking, probe.evidence)
                run.rows[spec.name].append(QuestionScore(probe.probe_id, probe.category, scores))
            if probe.evidence_groups:
                grouped = score_ranking(to_groups(ranking, groups), probe.evidence_groups)
                run.session_rows[spec.name].append(
                    QuestionScore(probe.probe_id, probe.category, grouped)
                )


def score_embedding(run: DatasetRun, phase: EmbeddingRun, tools: Tools) -> None:
    specs = systems_for(phase.name, primary=phase.primary, tune=tools.tune)
    score_systems(run, phase, specs, tools.verify_probes)


async def run_dataset(
    dataset: Dataset,
    *,
    character_id: str,
    selection_metric: str,
    embeddings: Sequence[Embedding],
    limits: Mapping[str, int],
    tools: Tools,
) -> DatasetRun:
    """Every haystack under every embedding (one named in ``limits`` only on that many
    haystacks); the first embedding's store also serves BM25."""
    run = DatasetRun(dataset, character_id, selection_metric, splits=probe_splits(dataset))
    for embedding in embeddings:
        count = limits.get(embedding.name, len(dataset.haystacks))
        phase = await collect(run, embedding, dataset.haystacks[:count], tools)
        started = time.perf_counter()
        score_embedding(run, phase, tools)
        phase.timings["rank_seconds"] += time.perf_counter() - started
        phase.pools.clear()
    return run

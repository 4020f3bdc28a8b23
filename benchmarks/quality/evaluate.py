"""Running every system over one dataset.

Phase 1, per embedder: each haystack is ingested into its own store through omoide's
write path, both store searches run once per probe (the :class:`Pool`), and the store is
deleted (embeddings stay cached on disk). Phase 2: every system ranks every pool. The
omoide grid is staged: fusion methods x vector/keyword split first, then recency x
importance weights on the best split of each method (chosen by the dataset's selection
metric, adversarial questions excluded).

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
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmarks.quality.dataset import Dataset, Haystack
from benchmarks.quality.embedding_cache import DiskCachedEmbedder
from benchmarks.quality.harness import STORE_KEYWORDS, Calibration, HaystackMemory, Pool
from benchmarks.quality.metrics import QuestionScore, mean_scores, score_ranking, to_groups
from benchmarks.quality.systems import (
    CANDIDATES,
    FAMILIES,
    FUSION_METHODS,
    Family,
    PoolRanker,
    SystemKind,
    SystemSpec,
    default_config,
    exact_order,
    fusion_grid,
    omoide_spec,
    ranking_grid,
)
from benchmarks.quality.variants import VARIANT_NAMES, LocalBM25, as_hits, variant_searches
from omoide.memory.extraction import FactExtractor
from omoide.memory.ranking import FusionConfig, FusionMethod
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
    families: tuple[Family, ...] = FAMILIES
    """The omoide families to grid; variant families need ``variants``."""
    variants: bool = True


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
    chosen: dict[str, list[str]] = field(default_factory=dict)
    skipped_probes: int = 0


def baseline_systems(embedding: str, *, primary: bool, variants: bool) -> list[SystemSpec]:
    specs = [SystemSpec(SystemKind.VECTOR, embedder=embedding)]
    if primary:
        specs[:0] = [
            SystemSpec(SystemKind.KEYWORD, family=Family(keywords=keywords))
            for keywords in (STORE_KEYWORDS, *(VARIANT_NAMES if variants else ()))
        ]
    specs.append(omoide_spec(embedding, default_config()))
    return specs


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
        searches = variant_searches(haystack.units) if tools.variants else {}
        await search_haystack(run, phase, memory, tools, searches)
    finally:
        await memory.close()
        remove_store(path)


async def search_haystack(
    run: DatasetRun,
    phase: EmbeddingRun,
    memory: HaystackMemory,
    tools: Tools,
    searches: Mapping[str, LocalBM25],
) -> None:
    groups = {unit.unit_id: unit.group for unit in memory.haystack.units}
    episodes = await memory.episodes_by_unit()
    for probe in memory.haystack.probes:
        if not probe.evidence and not probe.evidence_groups:
            run.skipped_probes += int(phase.primary)
            continue
        started = time.perf_counter()
        pool = await memory.pool(probe, limit=CANDIDATES)
        phase.timings["search_seconds"] += time.perf_counter() - started
        variants = {
            name: as_hits(
                search.search(probe.question, until=probe.now, limit=CANDIDATES), episodes
            )
            for name, search in searches.items()
        }
        pool = await memory.with_neighbours(replace(pool, variants=variants))
        phase.counts["searches"] += 1
        phase.pools.append((pool, groups))
        if phase.counts["recaller_checked"] < tools.verify_probes:
            spec = omoide_spec(phase.name, default_config())
            expected = await memory.recaller_ranking(probe, default_config())
            ours = exact_order(spec, pool)
            phase.counts["recaller_agreed"] += int(ours == expected[: len(ours)])
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


def selection_score(run: DatasetRun, name: str) -> float:
    rows = [row for row in run.rows[name] if row.category not in EXCLUDED_CATEGORIES]
    return mean_scores(rows).get(run.selection_metric, 0.0)


def stage_one(embedding: str, family: Family) -> list[SystemSpec]:
    """The fusion grid of ``family`` (max scaling replaces the weighted sum only)."""
    return [
        omoide_spec(embedding, config, family)
        for config in fusion_grid()
        if not family.max_scaled or config.fusion.method is FusionMethod.WEIGHTED_SUM
    ]


def best_fusions(run: DatasetRun, embedding: str, family: Family) -> list[FusionConfig]:
    """The best vector/keyword split of each fusion method in stage 1."""
    chosen = []
    for method in FUSION_METHODS:
        candidates = [
            spec
            for spec in stage_one(embedding, family)
            if spec.config is not None and spec.config.fusion.method is method
        ]
        if candidates:
            best = max(candidates, key=lambda spec: selection_score(run, spec.name))
            assert best.config is not None
            chosen.append(best.config.fusion)
    return chosen


def score_embedding(run: DatasetRun, phase: EmbeddingRun, tools: Tools) -> None:
    """Baselines and stage 1 of every family, then stage 2 on each family's best fusions."""
    specs = baseline_systems(phase.name, primary=phase.primary, variants=tools.variants)
    for family in tools.families:
        specs += stage_one(phase.name, family)
    score_systems(run, phase, unique(specs), tools.verify_probes)
    stage_two: list[SystemSpec] = []
    for family in tools.families:
        stage_two += [
            omoide_spec(phase.name, config, family)
            for config in ranking_grid(best_fusions(run, phase.name, family))
            if not family.max_scaled or config.fusion.method is FusionMethod.WEIGHTED_SUM
        ]
    done = set(run.rows) | set(run.session_rows)
    fresh = [spec for spec in unique(stage_two) if spec.name not in done]
    score_systems(run, phase, fresh, tools.verify_probes)
    run.chosen[phase.name] = [spec.name for spec in unique(stage_two)]


def unique(specs: Sequence[SystemSpec]) -> list[SystemSpec]:
    return list({spec.name: spec for spec in specs}.values())


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
    run = DatasetRun(dataset, character_id, selection_metric)
    for embedding in embeddings:
        count = limits.get(embedding.name, len(dataset.haystacks))
        phase = await collect(run, embedding, dataset.haystacks[:count], tools)
        started = time.perf_counter()
        score_embedding(run, phase, tools)
        phase.timings["rank_seconds"] += time.perf_counter() - started
        phase.pools.clear()
    return run

"""``run_quality``: every dataset of a profile, every system, one report.

Profiles (a profile names what runs; the work is bounded by the embedding of texts, which
is cached on disk, so reruns are much faster than the first run):

* ``quick``: LoCoMo in full (USE and e5), LongMemEval on 40 questions (USE; e5 on the
  first 10), MemoryBank in English and Chinese (USE and e5);
* ``full``: the same, with all answerable LongMemEval dev questions under USE, e5 on
  the first 20 of them (e5 embeds ~10 long texts a second on this machine, so the whole
  haystack set, ~53,000 distinct user turns, would take about an hour and a half), and
  LoCoMo stored as exchanges (:mod:`benchmarks.quality.context`).
"""

from __future__ import annotations

import logging
import os
import pickle
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchmarks.quality import locomo, longmemeval, memorybank
from benchmarks.quality.context import context_dataset
from benchmarks.quality.dataset import REPOSITORY_ROOT, Dataset, data_root
from benchmarks.quality.embedding_cache import DiskCachedEmbedder
from benchmarks.quality.evaluate import DatasetRun, Embedding, Tools, run_dataset
from benchmarks.quality.harness import Calibration
from benchmarks.quality.ingest_cost import measure_ingest
from benchmarks.quality.report import write_report
from omoide.embed.base import Embedder
from omoide.embed.centring import CentredQueries, chat_centroid_for
from omoide.embed.threshold_cache import ThresholdCache, cached_duplicate_threshold
from omoide.errors import ConfigError
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.relevance import cached_relevance_floor
from omoide.memory.tokens import SentencePieceTokenCounter

logger = logging.getLogger("benchmarks.quality")
WORK_DIR = REPOSITORY_ROOT / "benchmarks" / "work" / "quality"


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    longmemeval_questions: int | None
    e5_longmemeval_questions: int
    embedders: tuple[str, ...] = ("use", "e5")
    verify_probes: int = 30
    locomo_context: bool = False
    tune: bool = True
    """Rank the whole configuration grid (:func:`benchmarks.quality.systems.grid`)."""
    memorybank_languages: tuple[str, ...] = memorybank.LANGUAGES

    def limits_for(self, dataset: str) -> dict[str, int]:
        if dataset == "longmemeval":
            return {name: self.e5_longmemeval_questions for name in self.embedders if "e5" in name}
        return {}


PROFILES = {
    "quick": Profile("quick", longmemeval_questions=40, e5_longmemeval_questions=10),
    "full": Profile(
        "full", longmemeval_questions=None, e5_longmemeval_questions=20, locomo_context=True
    ),
}


FUSED = "use+e5"
"""``use+e5`` (e5's weight 0.5) or ``use+e5:<e5's weight>``: :mod:`omoide.embed.fused`."""


def build_embedder(name: str, threads: int, work_dir: Path = WORK_DIR) -> Embedder:
    """The benchmark embedder ``name``; a fused one over the disk caches of its parts."""
    if name.startswith(FUSED):
        from omoide.embed.fused import FusedEmbedder

        weight = float(name.removeprefix(FUSED).removeprefix(":") or 0.5)
        use, e5 = (
            DiskCachedEmbedder(build_embedder(part, threads), work_dir / "embeddings")
            for part in ("use", "e5")
        )
        return FusedEmbedder([(use, 1.0 - weight), (e5, weight)])
    if name == "use":
        from omoide.embed.use import USEEmbedder

        return USEEmbedder(threads=threads, batch_size=64)
    if name == "e5":
        from omoide.embed.e5 import E5Embedder

        return E5Embedder(threads=threads, batch_size=64)
    raise ConfigError(f"unknown benchmark embedder {name!r}")


async def prepare_embedding(name: str, threads: int, work_dir: Path) -> Embedding:
    embedder = DiskCachedEmbedder(build_embedder(name, threads, work_dir), work_dir / "embeddings")
    duplicate = await cached_duplicate_threshold(
        embedder, ThresholdCache(work_dir / "calibration.json")
    )
    centroid = chat_centroid_for(embedder.inner)
    searching: Embedder = embedder if centroid is None else CentredQueries(embedder, centroid)
    queries = "plain" if centroid is None else f"centred:{centroid.digest}"
    floors = await cached_relevance_floor(searching, work_dir / "relevance.json", queries=queries)
    return Embedding(name, embedder, Calibration(duplicate.threshold, floors, centroid))


def load_datasets(profile: Profile, root: Path) -> list[tuple[Dataset, str, str]]:
    """(dataset, character id, selection metric) for every dataset of the profile."""
    conversations = locomo.load_locomo(root / "locomo" / "locomo10-dev.json")
    found: list[tuple[Dataset, str, str]] = [
        (conversations, locomo.CHARACTER_ID, "recall@10"),
        (
            longmemeval.load_longmemeval(
                root / "longmemeval" / "lme_s_dev.json.gz",
                limit=profile.longmemeval_questions,
                question_ids=longmemeval.read_split(root / "longmemeval" / "split_dev.txt"),
            ),
            longmemeval.CHARACTER_ID,
            "all@10",
        ),
    ]
    if profile.locomo_context:
        found.append((context_dataset(conversations), locomo.CHARACTER_ID, "recall@10"))
    for language in profile.memorybank_languages:
        dataset = memorybank.load_memorybank(root / "memorybank", language)
        found.append((dataset, memorybank.CHARACTER_ID, "hit@10"))
    return found


def tools_for(profile: Profile, work_dir: Path) -> Tools:
    return Tools(
        work_dir,
        RuleFactExtractor(),
        SentencePieceTokenCounter(),
        profile.verify_probes,
        tune=profile.tune,
    )


async def run_profile(
    profile: Profile, *, threads: int, work_dir: Path
) -> tuple[list[DatasetRun], list[dict[str, Any]]]:
    """Every dataset of ``profile``; also the write path's cost on each first haystack."""
    root = data_root()
    if not root.is_dir():
        raise ConfigError(f"benchmark data not found at {root} (set OMOIDE_BENCH_DATA)")
    embeddings = [await prepare_embedding(name, threads, work_dir) for name in profile.embedders]
    tools = tools_for(profile, work_dir)
    runs, costs = [], []
    try:
        for dataset, character_id, metric in load_datasets(profile, root):
            first = dataset.haystacks[0]
            costs.append(await measure_ingest(dataset.name, first, embeddings[0], tools))
            logger.info(
                "%s: %d haystacks, %d units, %d probes",
                dataset.name,
                len(dataset.haystacks),
                dataset.unit_count,
                dataset.probe_count,
            )
            limits = profile.limits_for(dataset.name.split("-")[0])
            chosen = [item for item in embeddings if limits.get(item.name, 1) > 0]
            run = await run_dataset(
                dataset,
                character_id=character_id,
                selection_metric=metric,
                embeddings=chosen,
                limits=limits,
                tools=tools,
            )
            runs.append(run)
    finally:
        for embedding in embeddings:
            embedding.embedder.close()
    return runs, costs


def without_text(run: DatasetRun) -> DatasetRun:
    """``run`` with every text of the dataset blanked: what is saved holds no data."""
    haystacks = tuple(
        replace(
            haystack,
            units=tuple(replace(unit, text="", reply="") for unit in haystack.units),
            probes=tuple(replace(probe, question="") for probe in haystack.probes),
        )
        for haystack in run.dataset.haystacks
    )
    return replace(run, dataset=replace(run.dataset, haystacks=haystacks))


def save_runs(
    path: Path,
    runs: Sequence[DatasetRun],
    costs: Sequence[dict[str, Any]],
    seconds: float,
    command: str,
) -> None:
    """Scores of a finished run (no dataset text), so the report can be rebuilt."""
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = ([without_text(run) for run in runs], list(costs), seconds, command)
    path.write_bytes(pickle.dumps(saved))


def rebuild_report(profile: str, results_dir: Path) -> dict[str, Any]:
    """Write the report again from the scores saved by the last run of ``profile``."""
    path = WORK_DIR / f"runs-{profile}.pickle"
    if not path.is_file():
        raise ConfigError(f"no saved run of profile {profile!r} at {path}")
    runs, costs, seconds, command = pickle.loads(path.read_bytes())
    return write_report(
        runs,
        profile=profile,
        results_dir=results_dir,
        seconds=seconds,
        command=command,
        ingest_costs=costs,
        note="report rebuilt from the saved scores of an earlier run (--report-only); date and "
        "commit are the rebuild's, and today's defaults are read from the current code",
    )


async def run_quality(
    profile: str,
    results_dir: Path,
    *,
    threads: int | None = None,
    command: str | None = None,
    embedders: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Run the quality benchmarks of ``profile`` (with ``embedders`` instead of its own,
    when given) and write ``quality-<profile>.json``, ``.md`` and plots into
    ``results_dir``; returns the JSON document."""
    chosen = PROFILES.get(profile)
    if chosen is None:
        raise ConfigError(f"unknown profile {profile!r}; use one of {sorted(PROFILES)}")
    if embedders:
        chosen = replace(chosen, embedders=embedders)
    started = time.perf_counter()
    workers = threads if threads is not None else min(2, os.cpu_count() or 1)
    runs, costs = await run_profile(chosen, threads=workers, work_dir=WORK_DIR)
    seconds = time.perf_counter() - started
    invocation = command or f"python -m benchmarks.quality --profile {profile}"
    save_runs(WORK_DIR / f"runs-{profile}.pickle", runs, costs, seconds, invocation)
    return write_report(
        runs,
        profile=profile,
        results_dir=results_dir,
        seconds=seconds,
        command=invocation,
        ingest_costs=costs,
    )

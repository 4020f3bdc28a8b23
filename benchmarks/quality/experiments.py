"""What-if rankings over cached search pools: ``python -m benchmarks.quality.experiments``.

The quality benchmark grids weights; this measures other retrieval choices a reply may
make without a language model (fusion details, how many candidates each search keeps,
keyword analysis) on the same questions, fast enough to iterate:

1. per dataset and embedder, each haystack is ingested through omoide's write path once
   and both store searches run once per question with :data:`WIDE` hits each, plus the
   keyword search without stemming and the one with pseudo-relevance feedback
   (:class:`~benchmarks.quality.variants.LocalBM25`);
   the pools are pickled under ``benchmarks/work/quality/pools`` (git-ignored, like the
   embeddings), keyed by the store's keyword analysis, so reruns skip this step;
2. every :class:`Variant` ranks every pool with omoide's own ``fuse_relevance`` and
   ``rank`` (through :func:`~benchmarks.quality.systems.omoide_ranking`, which repeats
   ``Recaller._rank``), and the report tables the datasets' metrics per variant and per
   question category (``all`` excludes LoCoMo's adversarial questions);
   the conversation-neighbour variants (:mod:`benchmarks.quality.neighbours`) also get
   each scope's timeline, built from the units' recording times;
3. with ``--contextual locomo,...``, a dataset is also ingested afresh with contextual
   document vectors (:mod:`benchmarks.quality.contextual`), pickled apart, and ranked by
   :func:`~benchmarks.quality.experiment_variants.contextual_variants` in its own section.

The report goes to ``benchmarks/results/quality-experiments.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import pickle
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import anyio

from benchmarks.quality import experiment_variants
from benchmarks.quality.contextual import cached_contextual_pools
from benchmarks.quality.dataset import REPOSITORY_ROOT, Dataset, data_root
from benchmarks.quality.evaluate import Embedding, Tools, open_memory, remove_store
from benchmarks.quality.experiment_variants import Variant
from benchmarks.quality.harness import Pool
from benchmarks.quality.markdown import table
from benchmarks.quality.metrics import QuestionScore, by_category, score_ranking
from benchmarks.quality.neighbours import Timelines, timelines
from benchmarks.quality.runner import PROFILES, WORK_DIR, load_datasets, prepare_embedding
from benchmarks.quality.runner import tools_for as profile_tools
from benchmarks.quality.variants import LocalBM25, as_hits
from omoide.store.keywords import analyze_document, analyze_query

logger = logging.getLogger("benchmarks.quality")

WIDE = 100
"""Hits kept per search list, so that variants may use fewer or more than the recall path."""
COLUMNS = ("recall@1", "recall@5", "recall@10", "hit@1", "hit@10", "all@10", "mrr")
CATEGORY_COLUMNS = ("recall@10", "hit@1", "mrr")
EXCLUDED = frozenset({"adversarial"})


POOL_VERSION = 4
"""Bumped when what a pool holds changes."""


def analyzer_version() -> str:
    """A short digest of the keyword analysis, so pools follow changes to it."""
    sample = "We adopted puppies; 我喜欢吃火锅 and she's painting games"
    tokens = [*analyze_document(sample), "|", *analyze_query(sample)]
    return hashlib.sha256(" ".join(tokens).encode()).hexdigest()[:8]


async def collect_pools(
    dataset: Dataset, character_id: str, embedding: Embedding, tools: Tools
) -> list[Pool]:
    """Ingest each haystack, search each question with :data:`WIDE` hits per list."""
    pools: list[Pool] = []
    folder = tools.work_dir / "stores" / f"experiments-{dataset.name}" / embedding.name
    folder.mkdir(parents=True, exist_ok=True)
    for haystack in dataset.haystacks:
        path = folder / f"{haystack.key}.sqlite3"
        remove_store(path)
        memory = await open_memory(path, haystack, character_id, embedding, tools)
        try:
            await memory.ingest()
            episodes = await memory.episodes_by_unit()
            unstemmed = LocalBM25(haystack.units, stem_words=False)
            stemmed = LocalBM25(haystack.units)
            for probe in haystack.probes:
                if not probe.evidence:
                    continue
                pool = await memory.pool(probe, limit=WIDE)
                question, now = probe.question, probe.now
                found = {
                    "unstemmed": unstemmed.search(question, until=now, limit=WIDE),
                    "expanded": stemmed.expanded_search(question, until=now, limit=WIDE),
                }
                variants = {name: as_hits(hits, episodes) for name, hits in found.items()}
                pools.append(await memory.with_neighbours(replace(pool, variants=variants)))
        finally:
            await memory.close()
            remove_store(path)
    return pools


async def cached_pools(
    dataset: Dataset, character_id: str, embedding: Embedding, tools: Tools, limit: int | None
) -> list[Pool]:
    folder = WORK_DIR / "pools"
    folder.mkdir(parents=True, exist_ok=True)
    count = "all" if limit is None else str(limit)
    version = f"{analyzer_version()}-v{POOL_VERSION}"
    path = folder / f"{dataset.name}-{embedding.name}-{count}-{version}.pickle"
    if path.is_file():
        pools: list[Pool] = pickle.loads(path.read_bytes())
        return pools
    chosen = replace(dataset, haystacks=dataset.haystacks[:limit])
    logger.info("%s/%s: collecting pools", dataset.name, embedding.name)
    pools = await collect_pools(chosen, character_id, embedding, tools)
    path.write_bytes(pickle.dumps(pools))
    return pools


def score_variant(variant: Variant, pools: Sequence[Pool]) -> dict[str, dict[str, float]]:
    rows = [
        QuestionScore(
            pool.probe.probe_id,
            pool.probe.category,
            score_ranking(variant.order(pool), pool.probe.evidence),
        )
        for pool in pools
    ]
    return by_category(rows, include=lambda category: category not in EXCLUDED)


def report_section(title: str, pools: Sequence[Pool], variants: Sequence[Variant]) -> list[str]:
    scored = {variant.name: score_variant(variant, pools) for variant in variants}
    rows = [
        [f"`{name}`", int(table_["all"]["n"]), *(table_["all"][c] for c in COLUMNS)]
        for name, table_ in scored.items()
    ]
    lines = [f"## {title}", "", *table(("variant", "n", *COLUMNS), rows)]
    categories = sorted({c for table_ in scored.values() for c in table_} - {"all"})
    if len(categories) > 1:
        for column in CATEGORY_COLUMNS:
            by_cat = [
                [f"`{name}`", *(table_.get(c, {}).get(column, 0.0) for c in categories)]
                for name, table_ in scored.items()
            ]
            lines += [f"{column} per category:", "", *table(("variant", *categories), by_cat)]
    for name, table_ in scored.items():
        logger.info("%s %s: %s", title, name, _brief(table_["all"]))
    return lines


async def contextual_section(
    dataset: Dataset,
    character_id: str,
    embedding: Embedding,
    tools: Tools,
    found: Timelines,
    limit: int | None,
) -> list[str]:
    """The :func:`~experiment_variants.contextual_variants` over pools of a fresh
    ingestion that carry contextual vector hits (:mod:`benchmarks.quality.contextual`)."""
    chosen = replace(dataset, haystacks=dataset.haystacks[:limit])
    pools = await cached_contextual_pools(
        chosen, character_id, embedding, tools, limit=WIDE, version=analyzer_version()
    )
    title = f"{dataset.name} / {embedding.name} contextual vectors ({len(pools)} questions)"
    return report_section(title, pools, experiment_variants.contextual_variants(found))


def _brief(scores: dict[str, float]) -> str:
    return " ".join(f"{c}={scores.get(c, 0.0):.3f}" for c in COLUMNS)


def parse_arguments(arguments: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.quality.experiments")
    parser.add_argument("--embedders", default="use,e5")
    parser.add_argument("--datasets", default="locomo,longmemeval,memorybank-en,memorybank-cn")
    parser.add_argument(
        "--longmemeval-questions", type=int, default=40, help="USE; e5 takes at most 20"
    )
    parser.add_argument("--variants", default="", help="comma-separated names (default all)")
    parser.add_argument(
        "--contextual",
        default="",
        help="datasets (comma-separated) to also rank with contextual document vectors",
    )
    parser.add_argument(
        "--contextual-embedders",
        default="use",
        help="embedders of the contextual sections (each embeds every unit anew)",
    )
    parser.add_argument(
        "--contextual-longmemeval-questions",
        type=int,
        default=40,
        help="LongMemEval questions of the contextual section (each needs its haystack embedded)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=REPOSITORY_ROOT / "benchmarks" / "results" / "quality-experiments.md",
    )
    options = parser.parse_args(arguments)
    options.given = list(sys.argv[1:] if arguments is None else arguments)
    return options


def question_limit(dataset: str, embedder: str, options: argparse.Namespace) -> int | None:
    if dataset != "longmemeval":
        return None
    wanted: int = options.longmemeval_questions
    return min(wanted, PROFILES["full"].e5_longmemeval_questions) if embedder == "e5" else wanted


def wants_contextual(dataset: str, embedder: str, options: argparse.Namespace) -> bool:
    datasets: str = options.contextual
    embedders: str = options.contextual_embedders
    return dataset in datasets.split(",") and embedder in embedders.split(",")


def contextual_limit(dataset: str, limit: int | None, options: argparse.Namespace) -> int | None:
    if dataset != "longmemeval":
        return limit
    wanted: int = options.contextual_longmemeval_questions
    return wanted if limit is None else min(limit, wanted)


async def run(options: argparse.Namespace) -> list[str]:
    profile = replace(PROFILES["full"], longmemeval_questions=None, locomo_context=False)
    tools = replace(profile_tools(profile, WORK_DIR), tune=False)
    wanted = options.datasets.split(",")
    command = "python -m benchmarks.quality.experiments " + " ".join(options.given)
    lines = [
        "# Retrieval experiments",
        "",
        f"- command: `{command.strip()}`",
        f"- keyword analysis: `{analyzer_version()}`",
        "",
        experiment_variants.LEGEND,
        "",
    ]
    datasets = [item for item in load_datasets(profile, data_root()) if item[0].name in wanted]
    found = timelines((dataset, character_id) for dataset, character_id, _ in datasets)
    variants = experiment_variants.chosen(options.variants, found)
    for name in options.embedders.split(","):
        embedding = await prepare_embedding(name, 2, WORK_DIR)
        try:
            for dataset, character_id, _ in datasets:
                limit = question_limit(dataset.name, name, options)
                pools = await cached_pools(dataset, character_id, embedding, tools, limit)
                title = f"{dataset.name} / {name} ({len(pools)} questions)"
                lines += report_section(title, pools, variants)
                if wants_contextual(dataset.name, name, options):
                    limit = contextual_limit(dataset.name, limit, options)
                    lines += await contextual_section(
                        dataset, character_id, embedding, tools, found, limit
                    )
        finally:
            embedding.embedder.close()
    return lines


def main(arguments: Sequence[str] | None = None) -> int:
    options = parse_arguments(arguments)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    lines = anyio.run(run, options)
    options.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

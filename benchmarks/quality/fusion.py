"""A learned fusion of the ranking signals, trained on permissive data only:
``python -m benchmarks.quality.fusion --longmemeval-use 120``.

Issue 13 allows a learned fusion of the ranking signals if it helps on data it was not
trained on, trained only on permissively licensed data. This experiment:

1. reads the pools of :mod:`benchmarks.quality.experiments` (cached under
   ``benchmarks/work/quality/pools``; collected there first if missing: LongMemEval's
   haystacks past the quality profiles' embed anew) and computes the features of every
   candidate the recall path ranks (:mod:`.fusion_features`);
2. trains a pointwise logistic model and a pairwise (RankNet-style) linear model
   (:mod:`.fusion_model`) on the **dev halves** of LongMemEval (MIT) and MemoryBank
   (MIT) only (``lme+mb``; ``lme``: LongMemEval alone), pooled over both embedders, and
   chooses each one's L2 penalty by 4-fold cross-validation over those questions (folds
   by question; metric (recall@10 + hit@1) / 2 averaged per dataset); the primary model
   is the better of the two ``lme+mb`` ones by that metric (:data:`PRIMARY`);
   ``no-text`` models leave out the features that analyse each candidate's text;
3. ranks once with each model: LoCoMo (CC BY-NC: never trained or tuned on) in full,
   and the held-out halves of LongMemEval and MemoryBank, next to today's ranking on the
   same pools (the answers to the best asking episodes joined after either, as the recall
   path does).

The report is appended to ``benchmarks/results/quality-experiments.md``; ``--weights``
writes the primary model as JSON (no data).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import anyio

from benchmarks.quality.dataset import REPOSITORY_ROOT, data_root
from benchmarks.quality.experiments import analyzer_version, cached_pools
from benchmarks.quality.fusion_features import (
    FEATURES,
    pool_features,
)
from benchmarks.quality.fusion_training import (
    COLUMNS,
    EVERY_FEATURE,
    FITTERS,
    PENALTIES,
    PRIMARY,
    TRAINING,
    WITHOUT_TEXT,
    Choice,
    Question,
    choose,
    keyword_order,
    learned_order,
    scored,
    selection_metric,
    today_order,
    training_sets,
    vector_order,
)
from benchmarks.quality.harness import Pool
from benchmarks.quality.markdown import table
from benchmarks.quality.runner import PROFILES, WORK_DIR, load_datasets, prepare_embedding
from benchmarks.quality.runner import tools_for as profile_tools
from benchmarks.quality.split import DEV, HELDOUT, probe_splits
from omoide.memory.config import MemoryConfig

logger = logging.getLogger("benchmarks.quality")

EMBEDDERS = ("use", "e5")
EVALUATED = ("locomo", *TRAINING)
LONGMEMEVAL_QUESTIONS = {"use": 40, "e5": 10}
"""LongMemEval questions per embedder: those the quick quality profile embeds (cached)."""


async def load_pools(
    dataset_names: Sequence[str], longmemeval: dict[str, int]
) -> dict[tuple[str, str], list[Pool]]:
    """(dataset, embedder) -> pools, from the experiments' cache (collected if missing)."""
    profile = replace(PROFILES["full"], longmemeval_questions=None, locomo_context=False)
    tools = replace(profile_tools(profile, WORK_DIR), tune=False)
    chosen = [item for item in load_datasets(profile, data_root()) if item[0].name in dataset_names]
    found: dict[tuple[str, str], list[Pool]] = {}
    for name in EMBEDDERS:
        embedding = await prepare_embedding(name, 2, WORK_DIR)
        try:
            for dataset, character_id, _ in chosen:
                limit = longmemeval[name] if dataset.name == "longmemeval" else None
                pools = await cached_pools(dataset, character_id, embedding, tools, limit)
                found[(dataset.name, name)] = pools
        finally:
            embedding.embedder.close()
    return found


def questions_of(pools: dict[tuple[str, str], list[Pool]]) -> list[Question]:
    """Every pool's features, with the half (dev or held-out) of its question."""
    profile = replace(PROFILES["full"], longmemeval_questions=None, locomo_context=False)
    halves = {
        dataset.name: probe_splits(dataset) for dataset, _, _ in load_datasets(profile, data_root())
    }
    config = MemoryConfig()
    return [
        Question(
            dataset,
            embedder,
            halves[dataset][pool.probe.probe_id],
            pool_features(pool, config),
            pool,
        )
        for (dataset, embedder), found in pools.items()
        for pool in found
    ]


def systems(choices: Sequence[Choice]) -> dict[str, Callable[[Question], list[str]]]:
    found: dict[str, Callable[[Question], list[str]]] = {
        "bm25": keyword_order,
        "vector": vector_order,
        "today": today_order,
    }
    for choice in choices:
        found[choice.name] = partial(learned_order, model=choice.model, columns=choice.columns)
    return found


def evaluation_rows(questions: Sequence[Question], choices: Sequence[Choice]) -> list[list[object]]:
    """One row per (dataset, embedder, half, system): LoCoMo over all its conversations
    and per half, the others on their held-out half (never trained on)."""
    rows: list[list[object]] = []
    for dataset in EVALUATED:
        halves = ("all", DEV, HELDOUT) if dataset == "locomo" else (HELDOUT,)
        for embedder in EMBEDDERS:
            for half in halves:
                chosen = [
                    q
                    for q in questions
                    if q.dataset == dataset and q.embedder == embedder and half in ("all", q.half)
                ]
                if not chosen:
                    continue
                for name, order in systems(choices).items():
                    table_ = scored(chosen, order)["all"]
                    rows.append(
                        [
                            dataset,
                            embedder,
                            half,
                            f"`{name}`",
                            int(table_["n"]),
                            *(table_[c] for c in COLUMNS),
                        ]
                    )
    return rows


def locomo_categories(questions: Sequence[Question], choices: Sequence[Choice]) -> list[str]:
    lines: list[str] = []
    for embedder in EMBEDDERS:
        chosen = [q for q in questions if q.dataset == "locomo" and q.embedder == embedder]
        tables = {name: scored(chosen, order) for name, order in systems(choices).items()}
        categories = sorted({c for t in tables.values() for c in t} - {"all"})
        rows = [
            [f"`{name}`", *(t.get(c, {}).get("recall@10", 0.0) for c in categories)]
            for name, t in tables.items()
        ]
        lines += [
            f"LoCoMo / {embedder}, recall@10 per category:",
            "",
            *table(("system", *categories), rows),
            "",
        ]
    return lines


def weight_rows(choices: Sequence[Choice]) -> list[list[object]]:
    """Each model's weight per standardised feature (comparable across features)."""
    rows: list[list[object]] = []
    for choice in choices:
        weights = dict(zip(choice.model.names, choice.model.weights, strict=True))
        rows.append([f"`{choice.name}`", *(weights.get(name, "") for name in FEATURES)])
    return rows


def primary_choice(choices: Sequence[Choice]) -> Choice:
    """The model of :data:`PRIMARY` with the best cross-validated metric."""
    return max(
        (choice for choice in choices if choice.name in PRIMARY),
        key=lambda choice: choice.validated,
    )


def report(questions: Sequence[Question], choices: Sequence[Choice], command: str) -> list[str]:
    counts = {name: len(found) for name, found in training_sets(questions).items()}
    curve_rows = [
        [f"`{choice.name}`", *(value for _, value in choice.curve), choice.penalty]
        for choice in choices
    ]
    return [
        "",
        "## Learned fusion (issue 13, section 3): trained on LongMemEval and MemoryBank only",
        "",
        f"- command: `{command}`",
        f"- keyword analysis: `{analyzer_version()}`",
        f"- training questions (dev halves, both embedders' pools): {counts}",
        "",
        (
            "Features per candidate (`benchmarks/quality/fusion_features.py`): "
            + ", ".join(f"`{name}`" for name in FEATURES)
            + ". `pointwise`: logistic regression, `pairwise`: RankNet-style linear model; "
            "L2 penalty by 4-fold cross-validation over the training questions (metric: "
            "(recall@10 + hit@1) / 2). LoCoMo was never trained or tuned on."
        ),
        "",
        f"Primary model (chosen by cross-validation among {sorted(PRIMARY)}, before any "
        f"LoCoMo result): `{primary_choice(choices).name}`. Today's ranking scores "
        f"{selection_metric(training_sets(questions)['lme+mb'], today_order):.3f} on the "
        "lme+mb training questions under the same metric (no folds: nothing is fitted).",
        "",
        "Cross-validated metric per L2 penalty:",
        "",
        *table(("model", *(f"l2={p:g}" for p in PENALTIES), "chosen"), curve_rows),
        "",
        "Test: LoCoMo (all 10 conversations of the dev file, both halves), LongMemEval and "
        "MemoryBank held-out halves:",
        "",
        *table(
            ("dataset", "embedder", "half", "system", "n", *COLUMNS),
            evaluation_rows(questions, choices),
        ),
        "",
        *locomo_categories(questions, choices),
        "Weights on standardised features:",
        "",
        *table(("model", *FEATURES), weight_rows(choices)),
        "",
    ]


def model_document(choice: Choice) -> str:
    """The chosen model as ``omoide.memory.learned_ranking`` reads it (no data)."""
    raw = choice.model.raw_weights()
    document = {
        "model": choice.name,
        "trained_on": "dev halves of LongMemEval (MIT) and MemoryBank en/cn (MIT), "
        "pools of USE and e5; never LoCoMo",
        "l2": choice.penalty,
        "cross_validated": round(choice.validated, 4),
        "command": "python -m benchmarks.quality.fusion --weights "
        "src/omoide/memory/learned_ranking.json",
        "intercept": raw.pop("intercept"),
        "weights": raw,
    }
    return json.dumps(document, indent=2) + "\n"


def parse_arguments(arguments: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.quality.fusion")
    parser.add_argument("--longmemeval-use", type=int, default=LONGMEMEVAL_QUESTIONS["use"])
    parser.add_argument("--longmemeval-e5", type=int, default=LONGMEMEVAL_QUESTIONS["e5"])
    parser.add_argument(
        "--output",
        type=Path,
        default=REPOSITORY_ROOT / "benchmarks" / "results" / "quality-experiments.md",
    )
    parser.add_argument("--weights", type=Path, default=None, help="write the models as JSON")
    return parser.parse_args(arguments)


def main(arguments: Sequence[str] | None = None) -> int:
    options = parse_arguments(arguments)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    limits = {"use": options.longmemeval_use, "e5": options.longmemeval_e5}
    pools = anyio.run(load_pools, EVALUATED, limits)
    questions = questions_of(pools)
    choices = [
        choose(f"{fitter} {name}{suffix}", FITTERS[fitter], found, columns)
        for suffix, columns in (("", EVERY_FEATURE), (" no-text", WITHOUT_TEXT))
        for name, found in training_sets(questions).items()
        for fitter in FITTERS
    ]
    given = sys.argv[1:] if arguments is None else list(arguments)
    command = "python -m benchmarks.quality.fusion " + " ".join(given)
    lines = report(questions, choices, command.strip())
    with options.output.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    if options.weights is not None:
        primary = primary_choice(choices)
        options.weights.write_text(model_document(primary), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

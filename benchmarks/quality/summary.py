"""From per-question scores to what the report says: tables, targets and the decision.

Every dataset is split into a dev and a held-out half before anything is scored
(:mod:`benchmarks.quality.split`). The recommended configuration (and embedder) is chosen
on the dev half only, from LoCoMo (recall@10) and LongMemEval (turn-level all@10):
MemoryBank's evidence is a lexical proxy that favours keyword search. Every target is
then reported on both halves, the held-out one being the honest number.

Comparisons are always made on the same questions: where a system ran on fewer of a
dataset's questions (e5 on a LongMemEval sample), every system is also tabled on that
subset. Adversarial LoCoMo questions are tabled but left out of ``all``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.quality.evaluate import EXCLUDED_CATEGORIES, DatasetRun
from benchmarks.quality.metrics import QuestionScore, by_category
from benchmarks.quality.split import DEV, SPLITS, dataset_kind
from benchmarks.quality.systems import default_name

DECISION_DATASETS = ("locomo", "longmemeval")
LOCOMO_RECALL_RATIO_TARGET = 1.3
LOCOMO_HIT_TARGET = 0.45
LONGMEMEVAL_ALL_TARGET = 0.85
HEADLINE_METRICS: Mapping[str, tuple[str, ...]] = {
    "locomo": ("recall@10", "hit@1"),
    "longmemeval": ("all@10", "hit@10"),
    "memorybank": ("hit@10", "recall@10"),
}
"""What the dev/held-out tables show per dataset kind (LoCoMo also its ratio to BM25)."""
OTHER_METRICS = ("recall@10", "hit@1", "hit@10")


def included(category: str) -> bool:
    return category not in EXCLUDED_CATEGORIES


def restrict(rows: Sequence[QuestionScore], probe_ids: frozenset[str]) -> list[QuestionScore]:
    return [row for row in rows if row.probe_id in probe_ids]


def probe_set(rows: Sequence[QuestionScore]) -> frozenset[str]:
    return frozenset(row.probe_id for row in rows)


def overall(rows: Sequence[QuestionScore]) -> dict[str, float]:
    return by_category(rows, include=included)["all"]


def in_split(run: DatasetRun, rows: Sequence[QuestionScore], split: str) -> list[QuestionScore]:
    return [row for row in rows if run.splits.get(row.probe_id) == split]


@dataclass(frozen=True, slots=True)
class Scored:
    """One system's mean selection metric on one dataset, and on which questions."""

    name: str
    score: float
    questions: int


def omoide_names(run: DatasetRun, embedder: str) -> list[str]:
    return [name for name in run.rows if name.startswith(f"omoide:{embedder} ")]


def score_of(
    run: DatasetRun, name: str, split: str = DEV, probe_ids: frozenset[str] | None = None
) -> Scored:
    rows = in_split(run, run.rows[name], split)
    if probe_ids is not None:
        rows = restrict(rows, probe_ids)
    means = overall(rows)
    return Scored(name, means.get(run.selection_metric, 0.0), int(means.get("n", 0)))


def choose_config(runs: Mapping[str, DatasetRun], embedder: str) -> dict[str, Any]:
    """The configuration with the best mean dev selection metric over the decision
    datasets (ties: today's default, then the name); held-out scores shown beside."""
    present = [runs[name] for name in DECISION_DATASETS if name in runs]
    labels = [set(omoide_names(run, embedder)) for run in present]
    shared = sorted(set.intersection(*labels)) if labels else []
    ranked = []
    for name in shared:
        dev = {run.dataset.name: score_of(run, name).score for run in present}
        ranked.append((sum(dev.values()) / len(dev), name == default_name(embedder), name, dev))
    ranked.sort(reverse=True)

    def entry(mean: float, name: str, dev: dict[str, float]) -> dict[str, Any]:
        heldout = {run.dataset.name: score_of(run, name, "heldout").score for run in present}
        held_mean = sum(heldout.values()) / len(heldout) if heldout else 0.0
        return {
            "system": name,
            "mean": mean,
            "scores": dev,
            "heldout": heldout,
            "heldout_mean": held_mean,
        }

    top = [entry(mean, name, dev) for mean, _, name, dev in ranked[:10]]
    default = next((item for item in ranked if item[2] == default_name(embedder)), None)
    return {
        "chosen": top[0]["system"] if top else None,
        "candidates": len(ranked),
        "top": top,
        "default": None if default is None else entry(default[0], default[2], default[3]),
    }


def common_dev_probes(
    runs: Mapping[str, DatasetRun], embedders: Sequence[str]
) -> dict[str, frozenset[str]]:
    """Per decision dataset, the dev questions every embedder's systems answered."""
    common: dict[str, frozenset[str]] = {}
    for dataset in DECISION_DATASETS:
        run = runs.get(dataset)
        if run is None:
            continue
        sets = [
            probe_set(in_split(run, run.rows[default_name(name)], DEV))
            for name in embedders
            if default_name(name) in run.rows
        ]
        if len(sets) == len(embedders) and sets:
            common[dataset] = frozenset.intersection(*sets)
    return common


def choose_embedder(
    runs: Mapping[str, DatasetRun], embedders: Sequence[str], configs: Mapping[str, Any]
) -> dict[str, Any]:
    """The embedder whose dev-chosen configuration scores higher on the dev questions
    every embedder answered, averaged per question (so a small sample of one dataset, e5
    on a few LongMemEval questions, cannot outweigh a thousand questions of another)."""
    common = common_dev_probes(runs, embedders)
    table: dict[str, dict[str, float]] = {}
    means: dict[str, float] = {}
    for name in embedders:
        chosen = configs[name]["chosen"] or default_name(name)
        scored = {
            dataset: score_of(runs[dataset], chosen, DEV, probes)
            for dataset, probes in common.items()
        }
        table[name] = {dataset: item.score for dataset, item in scored.items()}
        weight = sum(item.questions for item in scored.values())
        total = sum(item.score * item.questions for item in scored.values())
        means[name] = total / weight if weight else 0.0
    chosen_embedder = max(embedders, key=lambda name: means[name])
    return {
        "chosen": chosen_embedder,
        "mean_dev_score": means,
        "per_dataset": table,
        "questions": {dataset: len(probes) for dataset, probes in common.items()},
    }


def split_means(run: DatasetRun, name: str, split: str) -> dict[str, float]:
    """The headline metrics of ``name`` on one half (and LoCoMo's ratio to BM25 there)."""
    kind = dataset_kind(run.dataset.name)
    means = overall(in_split(run, run.rows[name], split))
    shown = {"n": means.get("n", 0.0)}
    shown.update(
        {metric: means.get(metric, 0.0) for metric in HEADLINE_METRICS.get(kind, OTHER_METRICS)}
    )
    if kind == "locomo" and "bm25" in run.rows:
        bm25 = overall(in_split(run, run.rows["bm25"], split)).get("recall@10", 0.0)
        shown["recall@10 / bm25"] = shown["recall@10"] / bm25 if bm25 else 0.0
    return shown


def locomo_targets(run: DatasetRun, system: str, split: str) -> list[dict[str, Any]]:
    means = split_means(run, system, split)
    return [
        target(
            "LoCoMo recall@10 vs BM25 (x)",
            system,
            split,
            means["recall@10 / bm25"],
            LOCOMO_RECALL_RATIO_TARGET,
        ),
        target("LoCoMo hit@1", system, split, means["hit@1"], LOCOMO_HIT_TARGET),
    ]


def longmemeval_targets(run: DatasetRun, system: str, split: str) -> list[dict[str, Any]]:
    rows = in_split(run, run.rows[system], split)
    sessions = in_split(run, run.session_rows[system], split)
    strict = overall(rows).get("all@10", 0.0)
    without = len(sessions) - len(rows)
    official = (strict * len(rows) + without) / len(sessions) if sessions else 0.0
    name = "LongMemEval turn recall_all@10"
    return [
        target(
            f"{name} (questions with evidence turns)", system, split, strict, LONGMEMEVAL_ALL_TARGET
        ),
        target(f"{name} (official averaging)", system, split, official, LONGMEMEVAL_ALL_TARGET),
    ]


def target(name: str, system: str, split: str, value: float, goal: float) -> dict[str, Any]:
    return {
        "target": name,
        "system": system,
        "split": split,
        "value": value,
        "goal": goal,
        "met": value >= goal,
        "gap": max(0.0, goal - value),
    }


def targets(runs: Mapping[str, DatasetRun], systems: Sequence[str]) -> list[dict[str, Any]]:
    """Each target for each named system present in the dataset, on both halves."""
    found: list[dict[str, Any]] = []
    for system in dict.fromkeys(systems):
        for split in SPLITS:
            if "locomo" in runs and system in runs["locomo"].rows:
                found += locomo_targets(runs["locomo"], system, split)
            if "longmemeval" in runs and system in runs["longmemeval"].rows:
                found += longmemeval_targets(runs["longmemeval"], system, split)
    return found

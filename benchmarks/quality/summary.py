"""From per-question scores to what the report says: tables, targets and the decision.

Comparisons are always made on the same questions: where a system ran on fewer of a
dataset's questions (e5 on a LongMemEval sample), every system is also tabled on that
subset. Adversarial LoCoMo questions are tabled but left out of ``all``.

The decision uses LoCoMo (recall@10) and LongMemEval (turn-level all@10) only:
MemoryBank's evidence is a lexical proxy that favours keyword search.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.quality.evaluate import EXCLUDED_CATEGORIES, DatasetRun
from benchmarks.quality.metrics import QuestionScore, by_category
from benchmarks.quality.systems import config_label, default_config

DECISION_DATASETS = ("locomo", "longmemeval")
LOCOMO_RECALL_RATIO_TARGET = 1.55
LOCOMO_HIT_TARGET = 0.60
LONGMEMEVAL_ALL_TARGET = 0.90


def included(category: str) -> bool:
    return category not in EXCLUDED_CATEGORIES


def restrict(rows: Sequence[QuestionScore], probe_ids: frozenset[str]) -> list[QuestionScore]:
    return [row for row in rows if row.probe_id in probe_ids]


def probe_set(rows: Sequence[QuestionScore]) -> frozenset[str]:
    return frozenset(row.probe_id for row in rows)


def overall(rows: Sequence[QuestionScore]) -> dict[str, float]:
    return by_category(rows, include=included)["all"]


@dataclass(frozen=True, slots=True)
class Scored:
    """One system's mean selection metric on one dataset, and on which questions."""

    name: str
    score: float
    questions: int


def embedder_of(name: str) -> str | None:
    head = name.split(" ", 1)[0]
    return head.split(":", 1)[1] if ":" in head else None


def omoide_names(run: DatasetRun, embedder: str, suffix: str = "") -> list[str]:
    """omoide systems under ``embedder`` of one family (``suffix`` as in ``Family``; the
    empty suffix is what omoide can be configured to do today)."""
    return [name for name in run.rows if name.startswith(f"omoide:{embedder}{suffix} ")]


def default_name(embedder: str) -> str:
    return f"omoide:{embedder} {config_label(default_config())}"


def best_name(
    run: DatasetRun, embedder: str, probe_ids: frozenset[str] | None = None, suffix: str = ""
) -> Scored:
    """The omoide configuration with the highest selection metric under ``embedder``."""
    scored = [score_of(run, name, probe_ids) for name in omoide_names(run, embedder, suffix)]
    return max(scored, key=lambda item: (item.score, item.name == default_name(embedder)))


def score_of(run: DatasetRun, name: str, probe_ids: frozenset[str] | None = None) -> Scored:
    rows = run.rows[name] if probe_ids is None else restrict(run.rows[name], probe_ids)
    means = overall(rows)
    return Scored(name, means.get(run.selection_metric, 0.0), int(means.get("n", 0)))


def common_probes(
    runs: Mapping[str, DatasetRun], embedders: Sequence[str]
) -> dict[str, frozenset[str]]:
    """Per decision dataset, the questions every embedder's systems answered."""
    common: dict[str, frozenset[str]] = {}
    for dataset in DECISION_DATASETS:
        run = runs.get(dataset)
        if run is None:
            continue
        sets = [
            probe_set(run.rows[default_name(name)])
            for name in embedders
            if default_name(name) in run.rows
        ]
        if len(sets) == len(embedders) and sets:
            common[dataset] = frozenset.intersection(*sets)
    return common


def choose_embedder(runs: Mapping[str, DatasetRun], embedders: Sequence[str]) -> dict[str, Any]:
    """The embedder whose best omoide configurations score higher, compared on the
    questions both answered in each decision dataset and averaged per question (so a
    small sample of one dataset, e5 on a few LongMemEval questions, cannot outweigh
    a thousand questions of another)."""
    common = common_probes(runs, embedders)
    table: dict[str, dict[str, float]] = {}
    means: dict[str, float] = {}
    for name in embedders:
        best = {
            dataset: best_name(runs[dataset], name, probes) for dataset, probes in common.items()
        }
        table[name] = {dataset: scored.score for dataset, scored in best.items()}
        weight = sum(scored.questions for scored in best.values())
        total = sum(scored.score * scored.questions for scored in best.values())
        means[name] = total / weight if weight else 0.0
    chosen = max(embedders, key=lambda name: means[name])
    return {
        "chosen": chosen,
        "mean_best_score": means,
        "per_dataset": table,
        "questions": {dataset: len(probes) for dataset, probes in common.items()},
    }


def choose_config(runs: Mapping[str, DatasetRun], embedder: str) -> dict[str, Any]:
    """The configuration scored on every decision dataset with the best mean selection
    metric (ties: today's default, then the name)."""
    present = [runs[dataset] for dataset in DECISION_DATASETS if dataset in runs]
    labels = [set(omoide_names(run, embedder)) for run in present]
    shared = sorted(set.intersection(*labels)) if labels else []
    ranked = []
    for name in shared:
        scores = {run.dataset.name: score_of(run, name).score for run in present}
        ranked.append(
            (sum(scores.values()) / len(scores), name == default_name(embedder), name, scores)
        )
    ranked.sort(reverse=True)
    top = [
        {"system": name, "mean": mean, "scores": scores} for mean, _, name, scores in ranked[:10]
    ]
    default = next((entry for entry in ranked if entry[2] == default_name(embedder)), None)
    return {
        "chosen": top[0]["system"] if top else None,
        "top": top,
        "default": None
        if default is None
        else {"system": default[2], "mean": default[0], "scores": default[3]},
    }


def locomo_targets(run: DatasetRun, system: str) -> list[dict[str, Any]]:
    ours, bm25 = overall(run.rows[system]), overall(run.rows["bm25"])
    ratio = ours["recall@10"] / bm25["recall@10"] if bm25.get("recall@10") else 0.0
    return [
        target("LoCoMo recall@10 vs BM25 (x)", system, ratio, LOCOMO_RECALL_RATIO_TARGET),
        target("LoCoMo hit@1", system, ours["hit@1"], LOCOMO_HIT_TARGET),
    ]


def longmemeval_targets(run: DatasetRun, system: str) -> list[dict[str, Any]]:
    rows, sessions = run.rows[system], run.session_rows[system]
    strict = overall(rows)["all@10"]
    without = len(sessions) - len(rows)
    official = (strict * len(rows) + without) / len(sessions) if sessions else 0.0
    return [
        target(
            "LongMemEval turn recall_all@10 (questions with evidence turns)",
            system,
            strict,
            LONGMEMEVAL_ALL_TARGET,
        ),
        target(
            "LongMemEval turn recall_all@10 (official averaging)",
            system,
            official,
            LONGMEMEVAL_ALL_TARGET,
        ),
    ]


def target(name: str, system: str, value: float, goal: float) -> dict[str, Any]:
    return {
        "target": name,
        "system": system,
        "value": value,
        "goal": goal,
        "met": value >= goal,
        "gap": max(0.0, goal - value),
    }


def targets(runs: Mapping[str, DatasetRun], systems: Sequence[str]) -> list[dict[str, Any]]:
    """Each target for each named system present in the dataset."""
    found: list[dict[str, Any]] = []
    for system in dict.fromkeys(systems):
        if "locomo" in runs and system in runs["locomo"].rows:
            found += locomo_targets(runs["locomo"], system)
        if "longmemeval" in runs and system in runs["longmemeval"].rows:
            found += longmemeval_targets(runs["longmemeval"], system)
    return found

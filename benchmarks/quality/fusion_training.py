"""Training and scoring of the learned fusion models (:mod:`benchmarks.quality.fusion`).

Each :class:`Question` is one pool with its features; a model orders its candidates by
its probability, then the answers to the best asking episodes join as the recall path
joins them. The L2 penalty is chosen by cross-validation over the training questions
(folds by question id, so both embedders' pools of a question fall together).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from benchmarks.quality.fusion_features import FEATURES, TEXT_FEATURES, PoolFeatures
from benchmarks.quality.fusion_model import LinearModel, fit_pairwise, fit_pointwise
from benchmarks.quality.harness import Pool, unit_of
from benchmarks.quality.metrics import QuestionScore, by_category, score_ranking
from benchmarks.quality.split import DEV
from benchmarks.quality.systems import with_timeline_neighbours
from omoide.memory.config import MemoryConfig

logger = logging.getLogger("benchmarks.quality")

TRAINING = ("longmemeval", "memorybank-en", "memorybank-cn")
EXCLUDED = frozenset({"adversarial"})

PENALTIES = (1e-4, 1e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1.0)
FOLDS = 4
PRIMARY = frozenset({"pointwise lme+mb", "pairwise lme+mb"})
"""The models the primary one is chosen among (by cross-validation): every feature,
trained on both datasets, as the experiment was planned before any LoCoMo result."""
DEPTH = 50
COLUMNS = ("recall@1", "recall@5", "recall@10", "hit@1", "hit@10", "all@10", "mrr")
EXCLUDED = frozenset({"adversarial"})
Columns = tuple[int, ...]
EVERY_FEATURE: Columns = tuple(range(len(FEATURES)))
WITHOUT_TEXT: Columns = tuple(
    column for column, name in enumerate(FEATURES) if name not in TEXT_FEATURES
)
"""The features that need no candidate text analysed (measured after the first LoCoMo
evaluation, for the reply path's cost: not chosen on LoCoMo)."""
Fitter = Callable[[Sequence[np.ndarray], Sequence[np.ndarray], tuple[str, ...], float], LinearModel]
FITTERS: dict[str, Fitter] = {"pointwise": fit_pointwise, "pairwise": fit_pairwise}


@dataclass(frozen=True, slots=True)
class Question:
    """One question's features and the pool they came from."""

    dataset: str
    embedder: str
    half: str
    features: PoolFeatures
    pool: Pool


def sigmoid(values: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-values)))


def learned_order(question: Question, model: LinearModel, columns: Columns) -> list[str]:
    """Unit ids best first by the model's score (ties: today's order), then the answers
    to the best asking episodes joined at half their anchor's score, as recall does."""
    found = question.features
    if len(found.episodes) == 0:
        return []
    totals = sigmoid(model.score(found.matrix[:, list(columns)]))
    order = sorted(range(len(totals)), key=lambda index: (-round(float(totals[index]), 9), index))
    ranked = [(found.episodes[index], float(totals[index])) for index in order]
    return with_timeline_neighbours(ranked, question.pool, MemoryConfig())[:DEPTH]


def today_order(question: Question) -> list[str]:
    ranked = [(entry.item, entry.total) for entry in question.features.ranked]
    return with_timeline_neighbours(ranked, question.pool, MemoryConfig())[:DEPTH]


def keyword_order(question: Question) -> list[str]:
    return [unit_of(hit.item) for hit in question.pool.keyword[:DEPTH]]


def vector_order(question: Question) -> list[str]:
    return [unit_of(hit.item) for hit in question.pool.vector[:DEPTH]]


def scored(
    questions: Sequence[Question], order: Callable[[Question], list[str]]
) -> dict[str, dict[str, float]]:
    rows = [
        QuestionScore(
            q.features.probe_id, q.features.category, score_ranking(order(q), q.features.evidence)
        )
        for q in questions
    ]
    return by_category(rows, include=lambda category: category not in EXCLUDED)


def selection_metric(
    questions: Sequence[Question], order: Callable[[Question], list[str]]
) -> float:
    """(recall@10 + hit@1) / 2 (the two LoCoMo targets' metrics), averaged per dataset
    and then over datasets, so MemoryBank's many questions do not drown LongMemEval's."""
    values = []
    for dataset in sorted({question.dataset for question in questions}):
        chosen = [question for question in questions if question.dataset == dataset]
        table_ = scored(chosen, order)["all"]
        values.append((table_["recall@10"] + table_["hit@1"]) / 2)
    return float(np.mean(values))


def fit(
    fitter: Fitter, questions: Sequence[Question], penalty: float, columns: Columns
) -> LinearModel:
    usable = [q for q in questions if q.features.labels.any() and len(q.features.labels) > 1]
    names = tuple(FEATURES[column] for column in columns)
    return fitter(
        [q.features.matrix[:, list(columns)] for q in usable],
        [q.features.labels for q in usable],
        names,
        penalty,
    )


def fold_of(question: Question) -> int:
    """A question's fold: by its id, so both embedders' pools of it fall together."""
    digest = hashlib.sha256(question.features.probe_id.encode("utf-8")).digest()
    return digest[1] % FOLDS


def cross_validated(
    fitter: Fitter, questions: Sequence[Question], penalty: float, columns: Columns
) -> float:
    """The selection metric averaged over :data:`FOLDS` folds, each fitted on the others."""
    values = []
    for fold in range(FOLDS):
        inside = [q for q in questions if fold_of(q) != fold]
        outside = [q for q in questions if fold_of(q) == fold]
        model = fit(fitter, inside, penalty, columns)
        values.append(
            selection_metric(outside, partial(learned_order, model=model, columns=columns))
        )
    return float(np.mean(values))


@dataclass(frozen=True, slots=True)
class Choice:
    """One trained model: how it was fitted, its penalty and cross-validated metric."""

    name: str
    model: LinearModel
    columns: Columns
    penalty: float
    validated: float
    curve: tuple[tuple[float, float], ...]


def choose(name: str, fitter: Fitter, questions: Sequence[Question], columns: Columns) -> Choice:
    """The penalty with the best cross-validated metric, refitted on all ``questions``."""
    curve = tuple(
        (penalty, cross_validated(fitter, questions, penalty, columns)) for penalty in PENALTIES
    )
    for penalty, value in curve:
        logger.info("%s l2=%g: cross-validated %.4f", name, penalty, value)
    penalty, value = max(curve, key=lambda pair: (pair[1], pair[0]))
    return Choice(name, fit(fitter, questions, penalty, columns), columns, penalty, value, curve)


def training_sets(questions: Sequence[Question]) -> dict[str, list[Question]]:
    """The dev halves of the permissively licensed datasets: with and without MemoryBank
    (whose evidence is a lexical proxy)."""
    dev = [q for q in questions if q.dataset in TRAINING and q.half == DEV]
    return {
        "lme+mb": dev,
        "lme": [q for q in dev if q.dataset == "longmemeval"],
    }

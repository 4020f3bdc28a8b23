"""Small linear ranking models over :mod:`benchmarks.quality.fusion_features`, in numpy.

* :func:`fit_pointwise`: logistic regression on (candidate, is evidence), each question
  weighing 1 in total (its candidates share it), with an L2 penalty;
* :func:`fit_pairwise`: a RankNet-style linear model, logistic loss on the score
  difference of every (evidence, other) pair of a question, each question weighing 1;
  no intercept (a shift does not change an order); its scores are then mapped to
  probabilities by Platt scaling, so both models' totals are probabilities.

Both fit by Newton's method on standardised features (a dozen columns: exact and fast).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

NEWTON_STEPS = 30
TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class LinearModel:
    """``score = intercept + weights . (x - mean) / scale``."""

    names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    intercept: float

    def score(self, matrix: np.ndarray) -> np.ndarray:
        return np.asarray(self.intercept + ((matrix - self.mean) / self.scale) @ self.weights)

    def raw_weights(self) -> dict[str, float]:
        """Weights per feature on the features' own scales (plus ``intercept``)."""
        raw = self.weights / self.scale
        shift = float(self.intercept - raw @ self.mean)
        return {"intercept": shift, **{n: float(w) for n, w in zip(self.names, raw, strict=True)}}


def standardiser(matrices: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    stacked = np.vstack(matrices)
    mean = stacked.mean(axis=0)
    scale = stacked.std(axis=0)
    return mean, np.where(scale > 1e-12, scale, 1.0)


def _newton(
    design: np.ndarray, targets: np.ndarray, weights: np.ndarray, penalty: np.ndarray
) -> np.ndarray:
    """Weighted L2-penalised logistic regression: the coefficients minimising
    ``sum w * logloss + 0.5 * sum penalty * beta^2``."""
    beta = np.zeros(design.shape[1])
    for _ in range(NEWTON_STEPS):
        logits = design @ beta
        probabilities = 1.0 / (1.0 + np.exp(-logits))
        gradient = design.T @ (weights * (probabilities - targets)) + penalty * beta
        curvature = weights * probabilities * (1.0 - probabilities)
        hessian = (design * curvature[:, None]).T @ design + np.diag(penalty + 1e-12)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.abs(step).max()) < TOLERANCE:
            break
    return beta


def fit_pointwise(
    matrices: Sequence[np.ndarray],
    labels: Sequence[np.ndarray],
    names: tuple[str, ...],
    l2: float,
) -> LinearModel:
    mean, scale = standardiser(matrices)
    design = np.vstack([(m - mean) / scale for m in matrices])
    design = np.hstack([np.ones((design.shape[0], 1)), design])
    targets = np.concatenate(labels)
    weights = np.concatenate([np.full(len(m), 1.0 / max(1, len(m))) for m in matrices])
    weights /= len(matrices)
    penalty = np.full(design.shape[1], l2)
    penalty[0] = 0.0
    beta = _newton(design, targets, weights, penalty)
    return LinearModel(names, mean, scale, beta[1:], float(beta[0]))


def fit_pairwise(
    matrices: Sequence[np.ndarray],
    labels: Sequence[np.ndarray],
    names: tuple[str, ...],
    l2: float,
) -> LinearModel:
    mean, scale = standardiser(matrices)
    differences, weights = [], []
    for matrix, label in zip(matrices, labels, strict=True):
        standard = (matrix - mean) / scale
        good, other = standard[label > 0], standard[label <= 0]
        if len(good) == 0 or len(other) == 0:
            continue
        pairs = (good[:, None, :] - other[None, :, :]).reshape(-1, matrix.shape[1])
        differences.append(pairs)
        weights.append(np.full(len(pairs), 1.0 / len(pairs)))
    design = np.vstack(differences)
    # each pair twice, once each way, so the fit is symmetric and the targets balanced
    design = np.vstack([design, -design])
    targets = np.concatenate([np.ones(len(design) // 2), np.zeros(len(design) // 2)])
    pair_weights = np.concatenate(weights)
    pair_weights = np.concatenate([pair_weights, pair_weights]) / (2 * len(differences))
    beta = _newton(design, targets, pair_weights, np.full(design.shape[1], l2))
    return _calibrated(LinearModel(names, mean, scale, beta, 0.0), matrices, labels)


def _calibrated(
    model: LinearModel, matrices: Sequence[np.ndarray], labels: Sequence[np.ndarray]
) -> LinearModel:
    """``model`` with its scores mapped to probabilities (Platt scaling: one slope and one
    intercept fitted as the pointwise model is weighted); the order does not change."""
    scores = np.concatenate([model.score(matrix) for matrix in matrices])
    design = np.column_stack([np.ones(len(scores)), scores])
    weights = np.concatenate([np.full(len(m), 1.0 / max(1, len(m))) for m in matrices])
    slope_and_shift = _newton(design, np.concatenate(labels), weights / len(matrices), np.zeros(2))
    shift, slope = float(slope_and_shift[0]), max(1e-6, float(slope_and_shift[1]))
    return LinearModel(model.names, model.mean, model.scale, model.weights * slope, shift)

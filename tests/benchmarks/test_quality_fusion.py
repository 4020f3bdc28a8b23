"""The learned fusion experiment's models (``benchmarks.quality.fusion_model``) and
features (``benchmarks.quality.fusion_features``), on synthetic data."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.quality.fusion_features import FEATURES, TEXT_FEATURES, question_names
from benchmarks.quality.fusion_model import fit_pairwise, fit_pointwise

NAMES = ("signal", "noise")


def synthetic_questions(count: int, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Questions of 20 candidates; the evidence (2 each) has a higher first column."""
    generator = np.random.default_rng(seed)
    matrices, labels = [], []
    for _ in range(count):
        label = np.zeros(20)
        label[:2] = 1.0
        matrix = generator.normal(size=(20, 2))
        matrix[:, 0] += 3.0 * label
        matrices.append(matrix)
        labels.append(label)
    return matrices, labels


@pytest.mark.parametrize("fitter", [fit_pointwise, fit_pairwise])
def test_a_model_learns_which_feature_tells_the_evidence(fitter: object) -> None:
    matrices, labels = synthetic_questions(60, seed=1)
    model = fitter(matrices, labels, NAMES, 0.01)  # type: ignore[operator]
    assert model.weights[0] > 5 * abs(model.weights[1])
    test_matrices, test_labels = synthetic_questions(30, seed=2)
    firsts = [
        labels_[int(np.argmax(model.score(m)))]
        for m, labels_ in zip(test_matrices, test_labels, strict=True)
    ]
    assert np.mean(firsts) > 0.8


@pytest.mark.parametrize("fitter", [fit_pointwise, fit_pairwise])
def test_scores_are_calibrated_probabilities(fitter: object) -> None:
    matrices, labels = synthetic_questions(80, seed=3)
    model = fitter(matrices, labels, NAMES, 0.01)  # type: ignore[operator]
    scores = np.concatenate([model.score(matrix) for matrix in matrices])
    probabilities = 1.0 / (1.0 + np.exp(-scores))
    assert abs(probabilities.mean() - 0.1) < 0.03  # 2 of 20 candidates are evidence


def test_a_larger_penalty_shrinks_the_weights() -> None:
    matrices, labels = synthetic_questions(40, seed=4)
    loose = fit_pointwise(matrices, labels, NAMES, 0.001)
    tight = fit_pointwise(matrices, labels, NAMES, 10.0)
    assert np.abs(tight.weights).sum() < np.abs(loose.weights).sum()


def test_raw_weights_give_the_same_scores_on_the_features_own_scales() -> None:
    matrices, labels = synthetic_questions(20, seed=5)
    model = fit_pointwise(matrices, labels, NAMES, 0.1)
    raw = model.raw_weights()
    matrix = matrices[0]
    by_hand = raw["intercept"] + matrix @ np.array([raw[name] for name in NAMES])
    assert np.allclose(by_hand, model.score(matrix))


def test_question_names_skip_the_first_word_and_i() -> None:
    assert question_names("When did Caroline meet Mel and I in Boston?") == {
        "caroline",
        "mel",
        "boston",
    }
    assert question_names("") == frozenset()


def test_the_text_features_are_features() -> None:
    assert set(FEATURES) >= TEXT_FEATURES

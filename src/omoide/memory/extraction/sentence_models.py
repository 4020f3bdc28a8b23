"""Small linear models over the embedder's own sentence vectors, shipped as JSON files.

A sentence every exchange gets embedded anyway says more than its words: whether it tells
something about the speaker (:mod:`.disclosure`), whether a friend would still know it in
a month (:mod:`.lasting`). Each such reading is a logistic model over one embedder's unit
vectors (one weight per dimension and a bias), trained for that embedder on sentences
written for it (``benchmarks/disclosure``, ``benchmarks/lasting``: no benchmark data) and
shipped in a package of model files, one per embedder. An embedder with no file has no
model, and what reads with it falls back to the rules.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources

import numpy as np

from omoide.domain import Matrix
from omoide.errors import ConfigError


@dataclass(frozen=True, slots=True)
class SentenceModel:
    """A logistic model over one embedder's unit vectors: ``logit = weights . v + bias``."""

    embedder: str
    """The embedder's model name without its version (``use:multilingual-v3``)."""
    weights: np.ndarray
    bias: float
    threshold: float
    """The logit from which a sentence counts as the model's class."""

    def logits(self, vectors: Matrix) -> np.ndarray:
        """One logit per row of ``vectors``."""
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[1] != self.weights.shape[0]:
            raise ConfigError(
                f"the sentence model for {self.embedder} reads {self.weights.shape[0]} "
                f"dimensions, got vectors of shape {matrix.shape}"
            )
        return np.asarray(matrix @ self.weights + self.bias, dtype=np.float64)

    def above_threshold(self, vectors: Matrix) -> list[bool]:
        """Whether each row is of the model's class (logit at least the threshold)."""
        return [bool(logit >= self.threshold) for logit in self.logits(vectors)]

    def probabilities(self, vectors: Matrix) -> list[float]:
        """The model's probability of its class for each row, in [0, 1]."""
        logits = np.clip(self.logits(vectors), -30.0, 30.0)
        return [float(p) for p in 1.0 / (1.0 + np.exp(-logits))]


def model_key(model_name: str) -> str:
    """An embedder's model name without its package version: ``use:multilingual-v3@0.2.1``
    and ``use:multilingual-v3`` share a model."""
    return model_name.partition("@")[0]


def model_file_name(model_name: str) -> str:
    """The file the shipped model for ``model_name`` lives in."""
    key = model_key(model_name)
    return "".join(character if character.isalnum() else "-" for character in key) + ".json"


def model_from_document(document: dict[str, object]) -> SentenceModel:
    """A model from its JSON document (as :func:`model_document` writes it)."""
    try:
        weights = np.asarray(document["weights"], dtype=np.float32)
        bias = float(document["bias"])  # type: ignore[arg-type]
        threshold = float(document["threshold"])  # type: ignore[arg-type]
        embedder = str(document["embedder"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"a sentence model file is malformed: {exc}") from exc
    if weights.ndim != 1 or not all(math.isfinite(v) for v in (bias, threshold)):
        raise ConfigError(f"the sentence model for {embedder} is malformed")
    return SentenceModel(embedder=embedder, weights=weights, bias=bias, threshold=threshold)


def model_document(model: SentenceModel, **about: object) -> dict[str, object]:
    """The JSON document of ``model`` (``about``: how it was trained, for people)."""
    return {
        "embedder": model.embedder,
        "bias": model.bias,
        "threshold": model.threshold,
        **about,
        "weights": [round(float(weight), 6) for weight in model.weights],
    }


def load_model(package: str, model_name: str) -> SentenceModel | None:
    """The model shipped in ``package`` for the embedder ``model_name``; ``None`` when none
    was trained for it."""
    resource = resources.files(package).joinpath(model_file_name(model_name))
    if not resource.is_file():
        return None
    document = json.loads(resource.read_text(encoding="utf-8"))
    model = model_from_document(document)
    if model.embedder != model_key(model_name):
        raise ConfigError(
            f"the model file {package}/{model_file_name(model_name)} was trained for "
            f"{model.embedder}, not {model_key(model_name)}"
        )
    return model

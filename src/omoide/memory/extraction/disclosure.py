"""Disclosures no rule can read: a small linear model over the embedder's own vectors.

The rules (:mod:`~omoide.memory.extraction.rules`, :mod:`~omoide.memory.extraction.mentions`)
read the shapes and words of a statement; a viewer tells most things in shapes and words no
list holds ("registered for the NCLEX today", "从小就是湖人球迷", "3년째 야간 편의점 알바 중").
What such a sentence *is* — a thing about the speaker's life a friend would remember, not a
reaction or a remark — is plain in the multilingual embedding every exchange gets anyway.
A logistic model over that vector (one weight per dimension and a bias, trained on
sentences written for it in Korean, Japanese, Chinese and English, no benchmark data:
``benchmarks/disclosure``) says how likely a sentence is to be such a disclosure.

A sentence the rules found nothing in becomes a fact here when

* it is a statement about the viewer (the same reading as facts told in passing:
  :func:`~omoide.memory.extraction.mentions.tells_of_the_viewer`), not a question, not
  too long;
* the model's logit is at least the model's ``threshold`` (chosen on the training data's
  leave-one-language-out predictions for a false-positive rate on small talk of about
  5 %, never on evaluation data).

Its text is the sentence in the viewer's words, its slot ``told_said:<the sentence>``, its
group "going on lately"; its confidence and salience are below facts told in passing
(:data:`SAID_CONFIDENCE`): the model knows *that* something was told, not what kind of
thing. A model is trained for one embedder: with another embedder (or none shipped for
it) there is no model and the rules alone read facts.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources

import numpy as np

from omoide.domain import Matrix, TrustState
from omoide.errors import ConfigError
from omoide.memory.extraction.clauses import split_sentences
from omoide.memory.extraction.mentions import tells_of_the_viewer, told_slot
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts.text import KINDS, object_key, viewer_text

SAID_KIND = "told_said"
SAID_CONFIDENCE = 0.55
MODELS_PACKAGE = "omoide.memory.extraction.disclosure_models"


@dataclass(frozen=True, slots=True)
class DisclosureModel:
    """A logistic model over one embedder's unit vectors: ``logit = weights . v + bias``."""

    embedder: str
    """The embedder's model name without its version (``use:multilingual-v3``)."""
    weights: np.ndarray
    bias: float
    threshold: float
    """The logit from which a sentence counts as a disclosure."""

    def logits(self, vectors: Matrix) -> np.ndarray:
        """One logit per row of ``vectors``."""
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[1] != self.weights.shape[0]:
            raise ConfigError(
                f"the disclosure model for {self.embedder} reads {self.weights.shape[0]} "
                f"dimensions, got vectors of shape {matrix.shape}"
            )
        return np.asarray(matrix @ self.weights + self.bias, dtype=np.float64)

    def discloses(self, vectors: Matrix) -> list[bool]:
        """Whether each row is a disclosure (logit at least the threshold)."""
        return [bool(logit >= self.threshold) for logit in self.logits(vectors)]


def model_key(model_name: str) -> str:
    """An embedder's model name without its package version: ``use:multilingual-v3@0.2.1``
    and ``use:multilingual-v3`` share a model."""
    return model_name.partition("@")[0]


def _file_name(key: str) -> str:
    return "".join(character if character.isalnum() else "-" for character in key) + ".json"


def model_from_document(document: dict[str, object]) -> DisclosureModel:
    """A model from its JSON document (as :func:`model_document` writes it)."""
    try:
        weights = np.asarray(document["weights"], dtype=np.float32)
        bias = float(document["bias"])  # type: ignore[arg-type]
        threshold = float(document["threshold"])  # type: ignore[arg-type]
        embedder = str(document["embedder"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"a disclosure model file is malformed: {exc}") from exc
    if weights.ndim != 1 or not all(math.isfinite(v) for v in (bias, threshold)):
        raise ConfigError(f"the disclosure model for {embedder} is malformed")
    return DisclosureModel(embedder=embedder, weights=weights, bias=bias, threshold=threshold)


def model_document(model: DisclosureModel, **about: object) -> dict[str, object]:
    """The JSON document of ``model`` (``about``: how it was trained, for people)."""
    return {
        "embedder": model.embedder,
        "bias": model.bias,
        "threshold": model.threshold,
        **about,
        "weights": [round(float(weight), 6) for weight in model.weights],
    }


def model_file_name(model_name: str) -> str:
    """The file the shipped model for ``model_name`` lives in (in :data:`MODELS_PACKAGE`)."""
    return _file_name(model_key(model_name))


def load_disclosure_model(model_name: str) -> DisclosureModel | None:
    """The shipped model for the embedder ``model_name``, ``None`` when none was trained."""
    resource = resources.files(MODELS_PACKAGE).joinpath(model_file_name(model_name))
    if not resource.is_file():
        return None
    document = json.loads(resource.read_text(encoding="utf-8"))
    model = model_from_document(document)
    if model.embedder != model_key(model_name):
        raise ConfigError(
            f"the disclosure model file for {model_name} was trained for {model.embedder}"
        )
    return model


def told_sentences(message: str) -> list[str]:
    """The sentences of ``message`` that may tell something about the viewer, in the form
    a fact would keep them (:func:`~omoide.memory.facts.text.viewer_text`)."""
    found = []
    for sentence in split_sentences(message):
        text = tells_of_the_viewer(sentence)
        kept = None if text is None else viewer_text(text)
        if kept and object_key(kept):
            found.append(kept)
    return list(dict.fromkeys(found))


def said_candidate(text: str) -> FactCandidate:
    """The fact a sentence the model read as a disclosure becomes."""
    kind = KINDS[SAID_KIND]
    return FactCandidate(
        text=text,
        category=kind.category,
        confidence=SAID_CONFIDENCE,
        salience=kind.salience,
        trust=TrustState.STATED,
        slot=told_slot(SAID_KIND, text),
        terms=(),
    )

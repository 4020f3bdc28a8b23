"""Train the disclosure model shipped in ``omoide/memory/extraction/disclosure_models``.

Data: the ``*.jsonl`` files beside this file, sentences written for this model (no
benchmark data) in Korean, Japanese, Chinese and English, one ``{"lang", "label", "text"}``
object per line: ``data.jsonl`` 110 disclosures and 110 small-talk lines per language;
``data2.jsonl`` harder small talk (passing first-person remarks: what one ate, the weather
where one is, being tired today) and subtler disclosures. Each text is embedded by the
named embedder exactly as the write path embeds a sentence (``viewer_text``,
``embed_documents``), and a class-balanced, L2-regularised logistic regression is
fitted by full-batch gradient descent (deterministic: no random state).

The threshold is chosen on leave-one-language-out predictions (trained on three
languages, predicting the fourth): the lowest logit whose false-positive rate on small
talk is at most :data:`TARGET_FALSE_POSITIVES`. Evaluation on the companion suite (the
cases' target sentences against the filler pools) is reported, never used to choose.

    python -m benchmarks.disclosure --embedder use [--embedder e5]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from omoide.memory.extraction.sentence_models import SentenceModel, model_key
from omoide.memory.facts.text import viewer_text

DATA = tuple(sorted(Path(__file__).resolve().parent.glob("*.jsonl")))
LANGUAGES = ("ko", "ja", "zh", "en")
L2 = 1.0
STEPS = 600
LEARNING_RATE = 0.5
TARGET_FALSE_POSITIVES = 0.05

Array = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Example:
    language: str
    positive: bool
    """Of the model's class (a disclosure; for the lasting model, a lasting thing)."""
    text: str


def read_examples(paths: Sequence[Path] = DATA, positive: str = "disclosure") -> list[Example]:
    """The examples of ``paths``; those labelled ``positive`` are the model's class."""
    examples = []
    lines = [line for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        if line.strip():
            raw = json.loads(line)
            examples.append(
                Example(raw["lang"], raw["label"] == positive, viewer_text(raw["text"]))
            )
    return examples


def data_digest(paths: Sequence[Path] = DATA) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def fit(vectors: Array, labels: Array) -> tuple[Array, float]:
    """Weights and bias of a class-balanced logistic regression with an L2 penalty."""
    weights = np.zeros(vectors.shape[1])
    bias = 0.0
    positive = labels.mean()
    sample_weight = np.where(labels == 1, 0.5 / positive, 0.5 / (1 - positive))
    for _ in range(STEPS):
        predicted = 1 / (1 + np.exp(-(vectors @ weights + bias)))
        gradient = (predicted - labels) * sample_weight
        weights -= LEARNING_RATE * (vectors.T @ gradient / len(labels) + L2 * weights / len(labels))
        bias -= LEARNING_RATE * float(gradient.mean())
    return weights, bias


def area_under_curve(scores: Array, labels: Array) -> float:
    order = np.argsort(scores, kind="stable")
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    positives = labels.sum()
    negatives = len(labels) - positives
    return float(
        (ranks[labels == 1].sum() - positives * (positives + 1) / 2) / (positives * negatives)
    )


@dataclass(frozen=True, slots=True)
class HeldOutLanguage:
    language: str
    area_under_curve: float
    accuracy_at_zero: float


def leave_one_language_out(
    vectors: Array, labels: Array, languages: Sequence[str]
) -> tuple[Array, list[HeldOutLanguage]]:
    """Logits of every example from a model trained without its language, and per-language
    quality of those predictions."""
    logits = np.zeros(len(labels))
    marks = np.asarray(languages)
    rows = []
    for language in LANGUAGES:
        held = marks == language
        weights, bias = fit(vectors[~held], labels[~held])
        logits[held] = vectors[held] @ weights + bias
        accuracy = float(((logits[held] >= 0) == (labels[held] == 1)).mean())
        rows.append(
            HeldOutLanguage(language, area_under_curve(logits[held], labels[held]), accuracy)
        )
    return logits, rows


def choose_threshold(logits: Array, labels: Array) -> float:
    """The lowest logit at which at most :data:`TARGET_FALSE_POSITIVES` of small talk is read
    as a disclosure (rounded up to a hundredth)."""
    negatives = np.sort(logits[labels == 0])
    allowed = int(np.floor(TARGET_FALSE_POSITIVES * len(negatives)))
    edge = negatives[len(negatives) - allowed - 1] if allowed < len(negatives) else negatives[0]
    return float(np.ceil(edge * 100) / 100 + 0.01)


def train(
    vectors: Array, examples: Sequence[Example], model_name: str, paths: Sequence[Path] = DATA
) -> tuple[SentenceModel, dict[str, object]]:
    """The model for ``model_name`` (trained on ``paths``' examples) and what to say about
    how it was made."""
    labels = np.asarray([1.0 if example.positive else 0.0 for example in examples])
    languages = [example.language for example in examples]
    logits, held_out = leave_one_language_out(vectors, labels, languages)
    threshold = choose_threshold(logits, labels)
    weights, bias = fit(vectors, labels)
    model = SentenceModel(
        embedder=model_key(model_name),
        weights=weights.astype(np.float32),
        bias=float(bias),
        threshold=threshold,
    )
    above = logits >= threshold
    about: dict[str, object] = {
        "trained_on": ", ".join(f"benchmarks/{path.parent.name}/{path.name}" for path in paths),
        "data_sha256": data_digest(paths),
        "examples": len(examples),
        "model_name": model_name,
        "leave_one_language_out": {
            row.language: {
                "auc": round(row.area_under_curve, 4),
                "accuracy_at_zero": round(row.accuracy_at_zero, 4),
                "disclosures_at_threshold": round(
                    float(above[(labels == 1) & (np.asarray(languages) == row.language)].mean()), 4
                ),
                "small_talk_at_threshold": round(
                    float(above[(labels == 0) & (np.asarray(languages) == row.language)].mean()), 4
                ),
            }
            for row in held_out
        },
    }
    return model, about


def held_out_table(about: dict[str, object], columns: tuple[str, str, str]) -> list[str]:
    """The leave-one-language-out table of ``about`` (as :func:`train` says it), its
    accuracy, class and other-class columns named by ``columns``."""
    held_out = about["leave_one_language_out"]
    assert isinstance(held_out, dict)
    accuracy, positives, negatives = columns
    lines = [
        f"| language | AUC | {accuracy} | {positives} | {negatives} |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for language, row in held_out.items():
        lines.append(
            f"| {language} | {row['auc']:.3f} | {row['accuracy_at_zero']:.1%} "
            f"| {row['disclosures_at_threshold']:.1%} | {row['small_talk_at_threshold']:.1%} |"
        )
    return lines

"""Would a friend still know it in a month? The salience of a fact told in the viewer's words.

The rules and the disclosure model find *that* a viewer told something about themselves;
they give every such fact about the same salience, so "missed my bus this morning" and "my
daughter's first recital is on Feb 15" compete as equals for the few lines of the profile.
What separates them — a lasting part of someone's life (who they are, their people and
pets, a plan with a date, a limit, an ongoing situation) from a passing remark about today
— is plain in the sentence's embedding, which every fact gets anyway. A logistic model over
that vector (:class:`~omoide.memory.extraction.sentence_models.SentenceModel`, trained on
sentences written for it in Korean, Japanese, Chinese and English, no benchmark data:
``benchmarks/lasting``) gives the probability ``p`` that a fact lasts, and the candidate's
salience is scaled by ``1 + SPREAD * (2p - 1)``: a lasting fact gains up to ``SPREAD``
of its salience, a passing one loses as much; an uncertain one keeps it.

Rule and model facts only: a language model judges a fact's importance itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from omoide.domain import Vector
from omoide.memory.extraction.sentence_models import SentenceModel, load_model
from omoide.memory.extraction.values import FactCandidate

MODELS_PACKAGE = "omoide.memory.extraction.lasting_models"
SPREAD = 0.5
"""How far the model moves a salience, as a share of it, either way."""


def load_lasting_model(model_name: str) -> SentenceModel | None:
    """The shipped model for the embedder ``model_name``, ``None`` when none was trained."""
    return load_model(MODELS_PACKAGE, model_name)


def lasting_salience(salience: float, probability: float) -> float:
    """``salience`` scaled by how likely the fact is to last, within [0, 1]."""
    factor = 1.0 + SPREAD * (2.0 * probability - 1.0)
    return min(1.0, max(0.0, salience * factor))


def rated_candidates(
    model: SentenceModel,
    candidates: Sequence[FactCandidate],
    vectors: Mapping[str, Vector],
) -> tuple[FactCandidate, ...]:
    """``candidates`` with their salience rated by ``model`` from their text's vector; a
    candidate whose text has no vector keeps its salience."""
    known = [candidate for candidate in candidates if candidate.text in vectors]
    if not known:
        return tuple(candidates)
    matrix = np.stack([np.asarray(vectors[candidate.text]) for candidate in known])
    probability = dict(
        zip((candidate.text for candidate in known), model.probabilities(matrix), strict=True)
    )
    return tuple(
        candidate
        if candidate.text not in probability
        else replace(
            candidate, salience=lasting_salience(candidate.salience, probability[candidate.text])
        )
        for candidate in candidates
    )

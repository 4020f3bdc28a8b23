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

from omoide.domain import TrustState
from omoide.memory.extraction.clauses import split_sentences
from omoide.memory.extraction.mentions import tells_of_the_viewer, told_slot
from omoide.memory.extraction.sentence_models import SentenceModel, load_model
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts.text import KINDS, object_key, viewer_text

SAID_KIND = "told_said"
SAID_CONFIDENCE = 0.55
MODELS_PACKAGE = "omoide.memory.extraction.disclosure_models"


def load_disclosure_model(model_name: str) -> SentenceModel | None:
    """The shipped disclosure model for the embedder ``model_name``, ``None`` when none
    was trained for it."""
    return load_model(MODELS_PACKAGE, model_name)


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

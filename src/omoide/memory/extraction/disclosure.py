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
  :func:`~omoide.memory.extraction.speaker.tells_of_the_viewer`), not a question, not
  too long; a long sentence the model does not read as one is read in parts (two clauses
  each, :class:`Reading`), and its part read most surely becomes the fact;
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

from dataclasses import dataclass

from omoide.domain import TrustState
from omoide.memory.extraction.clauses import Sentence, split_sentences
from omoide.memory.extraction.mentions import told_slot
from omoide.memory.extraction.sentence_models import SentenceModel, load_model
from omoide.memory.extraction.speaker import tells_of_the_viewer, told_fragment, told_windows
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts.text import KINDS, object_key, viewer_text

SAID_KIND = "told_said"
SAID_CONFIDENCE = 0.55
MODELS_PACKAGE = "omoide.memory.extraction.disclosure_models"


def load_disclosure_model(model_name: str) -> SentenceModel | None:
    """The shipped disclosure model for the embedder ``model_name``, ``None`` when none
    was trained for it."""
    return load_model(MODELS_PACKAGE, model_name)


@dataclass(frozen=True, slots=True)
class Reading:
    """A sentence that may tell something about the viewer, in the viewer's words, and
    when it is a long one its parts: two clauses side by side each."""

    whole: str
    parts: tuple[str, ...] = ()


PART_CLAUSES = 3
"""A told sentence of at least this many clauses is also read in parts: chat runs several
things into one sentence ("야근각이었고 집 오니까 게코 단테가 허물 껴있어서 온욕시키느라"),
and one told thing among them weighs less in the whole sentence's vector than alone."""
PART_MIN_CHARS = 40


def told_readings(message: str) -> list[Reading]:
    """The sentences of ``message`` that may tell something about the viewer
    (:func:`~omoide.memory.extraction.speaker.tells_of_the_viewer`), in the form a fact
    would keep them (:func:`~omoide.memory.facts.text.viewer_text`), with their parts; and
    each run of short pieces with no word of the speaker, joined ("Dana's pregnant. due in
    March": :func:`~omoide.memory.extraction.speaker.told_fragment`)."""
    found: dict[str, Reading] = {}
    run: list[str] = []
    for sentence in split_sentences(message):
        fragment = told_fragment(sentence)
        if fragment is not None:
            run.append(fragment)
            continue
        _keep_run(found, run)
        run = []
        for window in told_windows(sentence):
            text = tells_of_the_viewer(window)
            kept = None if text is None else viewer_text(text)
            if text is not None and kept and object_key(kept):
                found.setdefault(kept, Reading(kept, _parts(window, text, kept)))
    _keep_run(found, run)
    return list(found.values())


def _keep_run(found: dict[str, Reading], run: list[str]) -> None:
    """A run of pieces of news with no word of the speaker, joined, when it is long enough."""
    if len(run) >= MIN_RUN:
        joined = viewer_text(". ".join(run))
        if joined and object_key(joined):
            found.setdefault(joined, Reading(joined))


MIN_RUN = 2
"""Short statements with no word of the speaker are read only as a run of at least this
many (:func:`~omoide.memory.extraction.speaker.told_fragment`): one alone ("the boss has
three phases") is a remark."""


def told_sentences(message: str) -> list[str]:
    """The whole sentences of :func:`told_readings`."""
    return [reading.whole for reading in told_readings(message)]


def _parts(sentence: Sentence, text: str, kept: str) -> tuple[str, ...]:
    """Two clauses side by side, for each pair of ``text`` (a told sentence's text) when it
    is long; none for a short one."""
    offset = sentence.text.find(text)
    starts = [clause.start for clause in sentence.clauses if clause.start >= max(offset, 0)]
    if len(starts) < PART_CLAUSES or len(kept) < PART_MIN_CHARS:
        return ()
    bounds = [*starts, len(sentence.text)]
    parts = (viewer_text(sentence.text[bounds[i] : bounds[i + 2]]) for i in range(len(starts) - 1))
    return tuple(dict.fromkeys(part for part in parts if part and object_key(part)))


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

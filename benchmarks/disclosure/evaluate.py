"""The disclosure model on the companion suite (evaluation only, never used to train or to
choose): how many of the cases' target sentences it reads as disclosures, and how many
filler lines (ordinary talk) it wrongly does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from benchmarks.companion.checks import contains
from benchmarks.companion.dataset import LANGUAGES, load_all_cases, load_filler
from benchmarks.disclosure.train import held_out_table
from omoide.embed.base import Embedder
from omoide.memory.extraction.disclosure import told_sentences
from omoide.memory.extraction.sentence_models import SentenceModel


@dataclass(frozen=True, slots=True)
class Detection:
    what: str
    count: int
    """Texts in the group."""
    gated: int
    """Texts with a sentence the model reads (a statement about the viewer)."""
    detected: int
    """Texts with a sentence read as a disclosure."""


async def _detect(
    embedder: Embedder, model: SentenceModel, what: str, texts: Sequence[str]
) -> Detection:
    sentences = [told_sentences(text) for text in texts]
    unique = list(dict.fromkeys(sentence for found in sentences for sentence in found))
    verdict: dict[str, bool] = {}
    if unique:
        matrix = await embedder.embed_documents(unique)
        verdict = dict(zip(unique, model.above_threshold(matrix), strict=True))
    return Detection(
        what=what,
        count=len(texts),
        gated=sum(1 for found in sentences if found),
        detected=sum(1 for found in sentences if any(verdict[s] for s in found)),
    )


def _holds_key(text: str, keys: Sequence[str]) -> bool:
    return any(key.lower() in text.lower() for key in keys)


def own_sentences(split: str) -> tuple[list[str], list[str]]:
    """The viewers' own current turns of the suite's ``split`` (isolation cases left out):
    those holding their case's key (the targets), and the others."""
    cases = [case for case in load_all_cases() if case.kind != "isolation"]
    targets: list[str] = []
    others: list[str] = []
    for case in cases:
        for turn in case.turns:
            if case.split == split and not turn.replaced:
                holds = any(contains(turn.user, key) for key in case.expect_any)
                (targets if holds else others).append(turn.user)
    return targets, others


async def companion_evaluation(embedder: Embedder, model: SentenceModel) -> list[Detection]:
    rows = []
    for split in ("dev", "heldout"):
        targets, _others = own_sentences(split)
        rows.append(await _detect(embedder, model, f"target sentences ({split})", targets))
    for language in LANGUAGES:
        lines = [line.user for line in load_filler(language)]
        rows.append(await _detect(embedder, model, f"filler lines ({language})", lines))
    return rows


def render_report(
    name: str, model: SentenceModel, about: dict[str, object], rows: Sequence[Detection]
) -> str:
    lines = [
        f"# Disclosure model: `{name}`",
        "",
        f"- Command: `python -m benchmarks.disclosure --embedder {name}`",
        f"- Embedder: `{about['model_name']}`; {about['examples']} training sentences "
        f"(`{about['trained_on']}`, sha256 {str(about['data_sha256'])[:12]}…)",
        f"- Threshold (logit): {model.threshold:.2f}, chosen for at most 5 % of small talk "
        "on leave-one-language-out predictions; weights: "
        f"{model.weights.shape[0]} + bias",
        "",
        "## Leave one language out (trained on three languages, predicting the fourth)",
        "",
        *held_out_table(
            about,
            ("accuracy at logit 0", "disclosures at threshold", "small talk at threshold"),
        ),
    ]
    lines += [
        "",
        "## On the companion suite (evaluation only)",
        "",
        "Target sentences: the viewer turns holding a case's key; filler: the ordinary talk",
        "pools every case is mixed with. *Read* = a sentence passes the statement-about-the-",
        "viewer gate the model sits behind; *disclosure* = read and above the threshold.",
        "",
        "| texts | n | read | disclosure |",
        "| --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row.what} | {row.count} | {row.gated / row.count:.1%} "
            f"| {row.detected / row.count:.1%} |"
        )
    lines.append("")
    return "\n".join(lines) + "\n" if np.isfinite(model.threshold) else "\n".join(lines)

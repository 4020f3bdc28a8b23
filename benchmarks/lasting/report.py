"""The lasting model on the companion suite (evaluation only) and its report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from benchmarks.companion.dataset import LANGUAGES, load_filler
from benchmarks.disclosure.evaluate import own_sentences
from benchmarks.disclosure.train import held_out_table
from omoide.embed.base import Embedder
from omoide.memory.extraction.disclosure import told_sentences
from omoide.memory.extraction.sentence_models import SentenceModel


@dataclass(frozen=True, slots=True)
class Probabilities:
    what: str
    values: tuple[float, ...]

    def share_above(self, edge: float) -> float:
        return sum(1 for value in self.values if value >= edge) / max(1, len(self.values))


async def _probabilities(
    embedder: Embedder, model: SentenceModel, what: str, texts: Sequence[str]
) -> Probabilities:
    sentences = list(dict.fromkeys(s for text in texts for s in told_sentences(text)))
    if not sentences:
        return Probabilities(what, ())
    matrix = await embedder.embed_documents(sentences)
    return Probabilities(what, tuple(model.probabilities(matrix)))


async def companion_rows(embedder: Embedder, model: SentenceModel) -> list[Probabilities]:
    """The probability of lasting for the viewers' own sentences holding a case's key
    (the targets), their other own sentences, and the filler pools' lines."""
    rows = []
    for split in ("dev", "heldout"):
        targets, others = own_sentences(split)
        rows.append(await _probabilities(embedder, model, f"target sentences ({split})", targets))
        rows.append(await _probabilities(embedder, model, f"other own sentences ({split})", others))
    for language in LANGUAGES:
        lines = [line.user for line in load_filler(language)]
        rows.append(await _probabilities(embedder, model, f"filler lines ({language})", lines))
    return rows


def render_report(
    name: str, model: SentenceModel, about: dict[str, object], rows: Sequence[Probabilities]
) -> str:
    lines = [
        f"# Lasting model: `{name}`",
        "",
        f"- Command: `python -m benchmarks.lasting --embedder {name}`",
        f"- Embedder: `{about['model_name']}`; {about['examples']} training sentences "
        f"(`{about['trained_on']}`, sha256 {str(about['data_sha256'])[:12]}…); weights: "
        f"{model.weights.shape[0]} + bias",
        "- Used as a probability (salience x (1 + 0.5 (2p - 1))), not with its threshold.",
        "",
        "## Leave one language out (trained on the other languages, predicting this one)",
        "",
        *held_out_table(
            about, ("accuracy at p 0.5", "lasting at threshold", "passing at threshold")
        ),
    ]
    lines += [
        "",
        "## On the companion suite (evaluation only)",
        "",
        "Sentences that pass the statement-about-the-viewer gate: the viewers' own sentences",
        "holding a case's key (targets), their other own sentences (the dozen other things",
        "they told, and chat), and the filler pools' ordinary talk.",
        "",
        "| sentences | n | median p | p ≥ 0.5 |",
        "| --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        median = float(np.median(row.values)) if row.values else float("nan")
        lines.append(
            f"| {row.what} | {len(row.values)} | {median:.2f} | {row.share_above(0.5):.1%} |"
        )
    lines.append("")
    return "\n".join(lines)

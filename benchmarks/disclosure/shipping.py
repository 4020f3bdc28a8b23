"""Training a sentence model for each embedder named, shipping it in the package and
reporting it: what ``python -m benchmarks.disclosure`` and ``python -m benchmarks.lasting``
share (each names its data, its class, its package folder and its report)."""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Literal, TypeVar

import numpy as np

from benchmarks.disclosure.train import read_examples, train
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.memory.extraction.sentence_models import (
    SentenceModel,
    model_document,
    model_file_name,
)
from omoide.wiring import build_embedder

EXTRACTION = Path(__file__).resolve().parents[2] / "src" / "omoide" / "memory" / "extraction"
RESULTS = Path(__file__).resolve().parents[1] / "results"

Evaluation = TypeVar("Evaluation")


@dataclass(frozen=True, slots=True)
class ModelJob(Generic[Evaluation]):
    """One sentence model to train: ``name`` (``disclosure``: the package folder is
    ``disclosure_models``, the report ``disclosure-<embedder>.md``), its data, the label
    of its class, how it is evaluated on the companion suite and how reported."""

    name: str
    data: Sequence[Path]
    positive: str
    evaluate: Callable[[Embedder, SentenceModel], Awaitable[Evaluation]]
    render: Callable[[str, SentenceModel, dict[str, object], Evaluation], str]


async def train_and_ship(
    job: ModelJob[Evaluation], embedder_name: Literal["use", "e5"], results: Path
) -> None:
    """Train ``job``'s model for the embedder, write it into the package and report it."""
    with tempfile.TemporaryDirectory(prefix=f"omoide-{job.name}-") as directory:
        settings = Settings(
            data_dir=Path(directory), embedder=embedder_name, embedder_worker=False, llm="none"
        )
        embedder = await build_embedder(settings)
        try:
            examples = read_examples(job.data, positive=job.positive)
            vectors = np.asarray(
                await embedder.embed_documents([example.text for example in examples]),
                dtype=np.float64,
            )
            model, about = train(vectors, examples, embedder.model_name, job.data)
            evaluation = await job.evaluate(embedder, model)
        finally:
            await embedder.aclose()
    document = model_document(model, **about)
    target = EXTRACTION / f"{job.name}_models" / model_file_name(model.embedder)
    target.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
    report = results / f"{job.name}-{embedder_name}.md"
    report.write_text(job.render(embedder_name, model, about, evaluation), encoding="utf-8")
    print(f"{embedder_name}: model {target}, report {report}")


def main(job: ModelJob[Evaluation], description: str | None) -> None:
    """The command line of ``job``: ``--embedder use|e5`` (repeatable), ``--results-dir``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--embedder", action="append", choices=("use", "e5"))
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    arguments = parser.parse_args()
    for name in arguments.embedder or ["use"]:
        asyncio.run(train_and_ship(job, "e5" if name == "e5" else "use", arguments.results_dir))

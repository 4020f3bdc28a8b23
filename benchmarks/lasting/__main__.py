"""``python -m benchmarks.lasting``: train the lasting model for each embedder named, write
it into the package (``omoide/memory/extraction/lasting_models``) and report it.

Data: ``data.jsonl`` beside this file, first-person sentences written for this model (no
benchmark data) in Korean, Japanese, Chinese, English and mixed: ``lasting`` what a friend
would still know in a month, ``passing`` what they would not (today's minor happenings,
momentary states), written to look alike. Training is the disclosure model's
(:mod:`benchmarks.disclosure.train`: a class-balanced L2 logistic regression, leave one
language out for the report). The companion suite is read for the report only: the
probability the model gives the cases' target sentences and the other sentences the
viewers told about themselves, never used to train or to choose.

    python -m benchmarks.lasting --embedder use [--embedder e5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Literal

import numpy as np

from benchmarks.disclosure.train import read_examples, train
from benchmarks.lasting.report import companion_rows, render_report
from omoide.config import Settings
from omoide.memory.extraction.sentence_models import model_document, model_file_name
from omoide.wiring import build_embedder

DATA = (Path(__file__).resolve().parent / "data.jsonl",)
PACKAGE_MODELS = (
    Path(__file__).resolve().parents[2] / "src" / "omoide" / "memory" / "extraction"
) / "lasting_models"
RESULTS = Path(__file__).resolve().parents[1] / "results"


async def run(embedder_name: Literal["use", "e5"], results: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="omoide-lasting-") as directory:
        settings = Settings(
            data_dir=Path(directory), embedder=embedder_name, embedder_worker=False, llm="none"
        )
        embedder = await build_embedder(settings)
        try:
            examples = read_examples(DATA, positive="lasting")
            vectors = np.asarray(
                await embedder.embed_documents([example.text for example in examples]),
                dtype=np.float64,
            )
            model, about = train(vectors, examples, embedder.model_name, DATA)
            rows = await companion_rows(embedder, model)
        finally:
            await embedder.aclose()
    document = model_document(model, **about)
    target = PACKAGE_MODELS / model_file_name(model.embedder)
    target.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
    report = results / f"lasting-{embedder_name}.md"
    report.write_text(render_report(embedder_name, model, about, rows), encoding="utf-8")
    print(f"{embedder_name}: model {target}, report {report}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedder", action="append", choices=("use", "e5"))
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    arguments = parser.parse_args()
    for name in arguments.embedder or ["use"]:
        asyncio.run(run("e5" if name == "e5" else "use", arguments.results_dir))


if __name__ == "__main__":
    main()

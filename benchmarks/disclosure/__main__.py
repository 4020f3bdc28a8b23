"""``python -m benchmarks.disclosure``: train the disclosure model for each embedder named,
write it into the package, and report it with its evaluation on the companion suite."""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Literal

import numpy as np

from benchmarks.disclosure.evaluate import companion_evaluation, render_report
from benchmarks.disclosure.train import read_examples, train
from omoide.config import Settings
from omoide.memory.extraction.sentence_models import model_document, model_file_name
from omoide.wiring import build_embedder

PACKAGE_MODELS = (
    Path(__file__).resolve().parents[2] / "src" / "omoide" / "memory" / "extraction"
) / "disclosure_models"
RESULTS = Path(__file__).resolve().parents[1] / "results"


async def run(embedder_name: Literal["use", "e5"], results: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="omoide-disclosure-") as directory:
        settings = Settings(
            data_dir=Path(directory), embedder=embedder_name, embedder_worker=False, llm="none"
        )
        embedder = await build_embedder(settings)
        try:
            examples = read_examples()
            vectors = np.asarray(
                await embedder.embed_documents([example.text for example in examples]),
                dtype=np.float64,
            )
            model, about = train(vectors, examples, embedder.model_name)
            evaluation = await companion_evaluation(embedder, model)
        finally:
            await embedder.aclose()
    document = model_document(model, **about)
    target = PACKAGE_MODELS / model_file_name(model.embedder)
    target.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
    report = results / f"disclosure-{embedder_name}.md"
    report.write_text(render_report(embedder_name, model, about, evaluation), encoding="utf-8")
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

"""``python -m benchmarks.centroid``: compute the chat centroid of each embedder named and
write it into the package (``omoide/embed/chat_centroids``).

The centroid is the mean vector of the small-talk messages of the disclosure model's
data (``benchmarks/disclosure/data*.jsonl``: written for it in Korean, Japanese, Chinese,
English and mixed; no benchmark data), embedded as stored messages are (documents: for
e5 the stored side's mean ranks far better than the queries', measured on the companion
suite). Queries are centred on it at search time (:mod:`omoide.embed.centring`).

    python -m benchmarks.centroid --embedder use [--embedder e5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Literal

import numpy as np

from benchmarks.disclosure.train import DATA, data_digest, read_examples
from omoide.config import Settings
from omoide.embed.centring import CENTROIDS_PACKAGE, centroid_document, centroid_file_name
from omoide.wiring import build_embedder

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / Path(*CENTROIDS_PACKAGE.split("."))
SMALL_TALK = "smalltalk"


async def compute(embedder_name: Literal["use", "e5"]) -> Path:
    """The centroid of ``embedder_name``, written into the package; its path."""
    texts = [
        example.text for example in read_examples(DATA, positive=SMALL_TALK) if example.positive
    ]
    with tempfile.TemporaryDirectory(prefix="omoide-centroid-") as directory:
        settings = Settings(
            data_dir=Path(directory), embedder=embedder_name, embedder_worker=False, llm="none"
        )
        embedder = await build_embedder(settings)
        try:
            vectors = np.asarray(await embedder.embed_documents(texts))
            model_name = embedder.model_name
        finally:
            await embedder.aclose()
    mean = vectors.astype(np.float64).mean(axis=0)
    key = model_name.partition("@")[0]
    document = centroid_document(
        key,
        mean,
        computed_from=[path.relative_to(ROOT).as_posix() for path in DATA],
        label=SMALL_TALK,
        messages=len(texts),
        data_sha256=data_digest(DATA),
        model_name=model_name,
        norm=round(float(np.linalg.norm(mean)), 4),
    )
    target = PACKAGE / centroid_file_name(model_name)
    target.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedder", action="append", choices=("use", "e5"))
    for name in parser.parse_args().embedder or ["use"]:
        print(f"{name}: {asyncio.run(compute('e5' if name == 'e5' else 'use'))}")


if __name__ == "__main__":
    main()

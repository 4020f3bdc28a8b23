"""``python -m benchmarks.centroid.ranks``: where the key exchange ranks by meaning alone,
with plain and with centred queries (:mod:`omoide.embed.centring`), per split.

For every companion case but the isolation ones, the viewer's stored exchanges (their own
turns and the filler, as the suite stores them: the viewer's message and the reply) are
embedded as documents and ranked by their product with the probe's query vector; the best
ranked exchange whose viewer message holds an expected key is the case's rank. This is the
analysis the centring was chosen on (the dev half); ``--cases-dir`` runs other case files.

    python -m benchmarks.centroid.ranks [--embedder use|e5] [--cases-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from benchmarks.companion.dataset import CASES_DIR, load_all_cases, load_pools, timeline
from benchmarks.companion.runner import judge_text
from omoide.config import EmbedderName, Settings
from omoide.embed.centring import chat_centroid_for
from omoide.wiring import build_embedder

TOPS = (1, 5, 10)


async def ranks(embedder_name: EmbedderName, cases_dir: Path) -> dict[str, Counter[str]]:
    """Per (split, queries) the number of cases whose key ranks within each of TOPS."""
    cases = [case for case in load_all_cases(directory=cases_dir) if case.kind != "isolation"]
    pools = load_pools(cases)
    counts: dict[str, Counter[str]] = {}
    with tempfile.TemporaryDirectory(prefix="omoide-ranks-") as directory:
        settings = Settings(
            data_dir=Path(directory), embedder=embedder_name, embedder_worker=False, llm="none"
        )
        embedder = await build_embedder(settings)
        try:
            centroid = chat_centroid_for(embedder)
            assert centroid is not None, f"no chat centroid ships for {embedder.model_name}"
            for case in cases:
                turns = [
                    stored.turn for stored in timeline(case, pools) if stored.scope == case.scope
                ]
                keyed = [
                    index
                    for index, turn in enumerate(turns)
                    if judge_text(turn.user, case.expect_any)
                ]
                if not keyed:
                    continue
                texts = [f"{turn.user}\n{turn.bot}".strip() for turn in turns]
                documents = np.asarray(await embedder.embed_documents(texts))
                query = np.asarray(await embedder.embed_query(case.probe.text))
                for queries, vector in (
                    ("plain", query),
                    ("centred", centroid.centre(query)),
                ):
                    scores = documents @ vector
                    rank = 1 + int((scores > max(scores[index] for index in keyed)).sum())
                    tally = counts.setdefault(f"{case.split} {queries}", Counter())
                    tally["cases"] += 1
                    tally.update(f"top{top}" for top in TOPS if rank <= top)
        finally:
            await embedder.aclose()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedder", choices=("use", "e5", "use+e5"), default="use")
    parser.add_argument("--cases-dir", type=Path, default=CASES_DIR)
    arguments = parser.parse_args()
    embedder: EmbedderName = arguments.embedder
    for name, tally in sorted(asyncio.run(ranks(embedder, arguments.cases_dir)).items()):
        shares = " ".join(f"top{top} {tally[f'top{top}'] / tally['cases']:.3f}" for top in TOPS)
        print(f"{arguments.embedder} {name}: {tally['cases']} cases, {shares}")


if __name__ == "__main__":
    main()

"""Contextual document vectors: each episode embedded with the episode recorded before it.

The store embeds an episode's own text. Here each unit is also embedded as "previous
unit's text + its own text" (the previous unit by recorded time in the same scope, when
recorded within :data:`CONTEXT_GAP` of it, so a new session starts afresh), while the
keyword index stays as today. The contextual vectors are searched by cosine similarity,
as the store's vector search scores, over the units recorded no later than the question,
and their hits are kept in each pool's ``variants`` under :data:`CONTEXTUAL`, next to
the store's two searches of the same ingestion (so episode ids agree).

Unlike :mod:`benchmarks.quality.context` (whose episodes carry the previous turn in both
indexes, as stored text), only the vectors change: the product would embed
"previous episode + episode" at write time (one more read, about twice the tokens per
embedding) and nothing more at query time.
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import numpy as np

from benchmarks.quality.dataset import Dataset, Haystack, Unit
from benchmarks.quality.evaluate import Embedding, Tools, open_memory, remove_store
from benchmarks.quality.harness import HaystackMemory, Pool
from benchmarks.quality.runner import WORK_DIR
from benchmarks.quality.variants import as_hits
from omoide.domain import Episode, Matrix, Vector
from omoide.store.base import Hit

logger = logging.getLogger("benchmarks.quality")

CONTEXTUAL = "contextual"
"""The key of the contextual vector hits in a pool's ``variants``."""
STORE_VECTORS = "store"
"""The store's own vector search (``Pool.vector``)."""
CONTEXT_GAP = timedelta(hours=1)


def vector_hits(pool: Pool, source: str) -> tuple[Hit[Episode], ...]:
    """The store's vector hits (``source`` :data:`STORE_VECTORS`) or a variant search's."""
    return pool.vector if source == STORE_VECTORS else pool.variants[source]


def document_text(unit: Unit) -> str:
    """The text the store embeds for a unit (``Episode.searchable_text``)."""
    return f"{unit.text}\n{unit.reply}".strip()


def contextual_texts(units: Sequence[Unit], *, max_gap: timedelta = CONTEXT_GAP) -> dict[str, str]:
    """Unit id -> the previous unit's text and its own, one per line (its own text alone
    for the first unit, or when the previous one is more than ``max_gap`` older)."""
    ordered = sorted(enumerate(units), key=lambda pair: (pair[1].at, pair[0]))
    texts: dict[str, str] = {}
    previous: Unit | None = None
    for _, unit in ordered:
        own = document_text(unit)
        if previous is not None and unit.at - previous.at <= max_gap:
            texts[unit.unit_id] = f"{document_text(previous)}\n{own}"
        else:
            texts[unit.unit_id] = own
        previous = unit
    return texts


@dataclass(frozen=True, slots=True)
class CosineIndex:
    """Brute-force cosine search over one haystack's unit vectors."""

    unit_ids: tuple[str, ...]
    moments: tuple[datetime, ...]
    vectors: Matrix
    """One row per unit, unit length."""

    @classmethod
    def of(cls, units: Sequence[Unit], vectors: Matrix) -> CosineIndex:
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit_vectors = (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        return cls(
            tuple(unit.unit_id for unit in units), tuple(unit.at for unit in units), unit_vectors
        )

    def search(self, query: Vector, *, until: datetime, limit: int) -> list[tuple[str, float]]:
        """(unit id, cosine similarity) of the best units recorded no later than ``until``."""
        norm = float(np.linalg.norm(query)) or 1.0
        similarities = self.vectors @ (query / norm)
        kept = [index for index, moment in enumerate(self.moments) if moment <= until]
        kept.sort(key=lambda index: (-float(similarities[index]), self.unit_ids[index]))
        return [(self.unit_ids[index], float(similarities[index])) for index in kept[:limit]]


async def haystack_pools(
    memory: HaystackMemory, haystack: Haystack, embedding: Embedding, *, limit: int
) -> list[Pool]:
    """The store's two searches and the contextual vector search for each probe."""
    await memory.ingest()
    episodes = await memory.episodes_by_unit()
    texts = contextual_texts(haystack.units)
    vectors = await embedding.embedder.embed_documents(
        [texts[unit.unit_id] for unit in haystack.units]
    )
    index = CosineIndex.of(haystack.units, vectors)
    pools = []
    for probe in haystack.probes:
        if not probe.evidence:
            continue
        pool = await memory.pool(probe, limit=limit)
        query = await embedding.embedder.embed_query(probe.question)
        found = index.search(query, until=probe.now, limit=limit)
        pools.append(replace(pool, variants={CONTEXTUAL: as_hits(found, episodes)}))
    return pools


async def collect_contextual_pools(
    dataset: Dataset, character_id: str, embedding: Embedding, tools: Tools, *, limit: int
) -> list[Pool]:
    pools: list[Pool] = []
    folder = tools.work_dir / "stores" / f"contextual-{dataset.name}" / embedding.name
    folder.mkdir(parents=True, exist_ok=True)
    for haystack in dataset.haystacks:
        path = folder / f"{haystack.key}.sqlite3"
        remove_store(path)
        memory = await open_memory(path, haystack, character_id, embedding, tools)
        try:
            pools += await haystack_pools(memory, haystack, embedding, limit=limit)
        finally:
            await memory.close()
            remove_store(path)
    return pools


async def cached_contextual_pools(
    dataset: Dataset,
    character_id: str,
    embedding: Embedding,
    tools: Tools,
    *,
    limit: int,
    version: str,
) -> list[Pool]:
    """:func:`collect_contextual_pools`, pickled under ``benchmarks/work/quality/pools``."""
    folder = WORK_DIR / "pools"
    folder.mkdir(parents=True, exist_ok=True)
    path = (
        folder
        / f"{dataset.name}-{embedding.name}-{dataset.probe_count}-{version}-{CONTEXTUAL}.pickle"
    )
    if path.is_file():
        pools: list[Pool] = pickle.loads(path.read_bytes())
        return pools
    logger.info("%s/%s: collecting contextual pools", dataset.name, embedding.name)
    pools = await collect_contextual_pools(dataset, character_id, embedding, tools, limit=limit)
    path.write_bytes(pickle.dumps(pools))
    return pools

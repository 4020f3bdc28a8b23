"""What the write path costs per turn, with and without fact extraction.

The same haystack is ingested twice into fresh stores: once as configured (rule
importance and rule fact extraction, what runs without a language model), once with
fact extraction off (``WriteConfig.fact_extraction_threshold = 1.0``: only turns of
importance 1.0 would be read for facts). Embeddings come from the disk cache, so both
runs time the store writes and the per-turn work only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchmarks.quality.dataset import Haystack
from benchmarks.quality.evaluate import Embedding, Tools, remove_store
from benchmarks.quality.harness import HaystackMemory, IngestStats
from omoide.memory.config import MemoryConfig, WriteConfig

NO_EXTRACTION = MemoryConfig(write=WriteConfig(fact_extraction_threshold=1.0))


async def timed_ingest(
    haystack: Haystack, embedding: Embedding, tools: Tools, config: MemoryConfig, tag: str
) -> IngestStats:
    folder = tools.work_dir / "stores" / "ingest-cost"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{tag}.sqlite3"
    remove_store(path)
    memory = await HaystackMemory.open(
        path,
        haystack,
        character_id="ingest-cost",
        embedder=embedding.embedder,
        extractor=tools.extractor,
        counter=tools.counter,
        calibration=embedding.calibration,
        config=config,
    )
    try:
        return await memory.ingest()
    finally:
        await memory.close()
        remove_store(path)


async def measure_ingest(
    name: str, haystack: Haystack, embedding: Embedding, tools: Tools
) -> dict[str, Any]:
    """ms per unit with and without fact extraction, for one haystack."""
    await embedding.embedder.warm([f"{unit.text}\n{unit.reply}".strip() for unit in haystack.units])
    with_facts = await timed_ingest(haystack, embedding, tools, MemoryConfig(), f"{name}-facts")
    without = await timed_ingest(
        replace(haystack), embedding, tools, NO_EXTRACTION, f"{name}-nofacts"
    )
    units = max(1, with_facts.units)
    return {
        "dataset": name,
        "units": with_facts.units,
        "ms_per_unit_with_facts": 1000 * with_facts.seconds / units,
        "ms_per_unit_without_facts": 1000 * without.seconds / units,
        "fact_changes": with_facts.facts_changed,
        "fact_changes_without": without.facts_changed,
    }

"""The seed's design as a baseline: Qdrant local mode, one embedding and one upsert per turn.

Per size: the collection is bulk-loaded with the same synthetic corpus as our stores
(pool vectors, perturbed; batches of 1,000 points; cached between runs) — this load is
*not* the seed's path and is reported apart. Then, on that collection:

* per-call ingest as the seed does it (embed one text, upsert one point), for a bounded
  time; the time to ingest the whole size is extrapolated from that rate, and the points
  added are deleted again;
* the seed's search (embed the query, ``query_points`` filtered on user id, importance
  and decay, top 5) for a bounded number of queries and time;
* cold and warm opens in a fresh process.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import shutil
import sqlite3
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from qdrant_client import QdrantClient
from qdrant_client.models import PointIdsList, PointStruct

from benchmarks.speed.corpus import CorpusSpec, EmbeddedPool, viewer_scope
from benchmarks.speed.seed_design import COLLECTION, create_seed_collection, seed_filter
from benchmarks.speed.stats import LatencySummary, Stopwatch, per_second, summarise_latencies
from benchmarks.speed.store_open import OpenMeasurement, directory_bytes, measure_open
from benchmarks.speed.synthetic import ChatGenerator, SyntheticTurn, perturbed_unit_vectors
from omoide.embed.base import Embedder
from omoide.memory.importance import score_by_rules

logger = logging.getLogger(__name__)

BULK_BATCH = 1_000
BULK_METHOD = "batches-unsynced"
"""Part of the cache key of a bulk-loaded collection: change it when the load changes."""
WARMUP_QUERIES = 2


@dataclass(frozen=True, slots=True)
class QdrantSize:
    episodes: int
    bulk_load_seconds: float
    bulk_load_reused: bool
    per_call_turns: int
    per_call_seconds: float
    per_call_turns_per_second: float
    extrapolated_ingest_seconds: float
    query_with_embedding: LatencySummary
    query_search_only: LatencySummary
    queries_stopped_by_time: bool
    disk_bytes: int
    opens: tuple[OpenMeasurement, ...]


@dataclass(frozen=True, slots=True)
class QdrantResult:
    client_version: str
    sizes: tuple[QdrantSize, ...]


def seed_payload(turn: SyntheticTurn, *, user_id: str, importance: float) -> dict[str, object]:
    """The seed's ``EpisodeMemory.to_payload``."""
    return {
        "id": uuid.uuid4().hex,
        "user_id": user_id,
        "user_message": turn.user_message,
        "bot_message": turn.bot_message,
        "emotion": turn.emotion,
        "emotion_intensity": turn.emotion_intensity,
        "topics": list(turn.topics),
        "importance": importance,
        "timestamp": turn.recorded_at.timestamp(),
        "decay_factor": 1.0,
    }


def seed_text(turn: SyntheticTurn) -> str:
    """The seed's ``to_searchable_text``: both messages joined by a space."""
    return f"{turn.user_message} {turn.bot_message}"


@dataclass(frozen=True, slots=True)
class QdrantBounds:
    """How long the slow baseline may run at each size."""

    ingest_seconds: float
    queries: int
    query_seconds: float


async def measure_qdrant(
    *,
    sizes: Sequence[int],
    spec_for: Callable[[int], CorpusSpec],
    pool: EmbeddedPool,
    embedder: Embedder,
    work_dir: Path,
    bounds: QdrantBounds,
    cwd: Path,
) -> QdrantResult:
    measured = []
    for size in sizes:
        directory = work_dir / "qdrant" / f"episodes-{size}"
        measured.append(await _measure_size(spec_for(size), pool, embedder, directory, bounds, cwd))
    version = importlib.metadata.version("qdrant-client")
    return QdrantResult(client_version=version, sizes=tuple(measured))


async def _measure_size(
    spec: CorpusSpec,
    pool: EmbeddedPool,
    embedder: Embedder,
    directory: Path,
    bounds: QdrantBounds,
    cwd: Path,
) -> QdrantSize:
    size = spec.episodes
    logger.info("qdrant baseline: preparing %d points", size)
    load_seconds, reused = _bulk_load(spec, pool, directory, embedder.model_name)
    generator = ChatGenerator(seed=spec.seed + 7, viewers=spec.viewers, timeline=spec.timeline)
    client = QdrantClient(path=str(directory))
    try:
        logger.info("qdrant baseline: per-call ingest at %d points", size)
        turns, seconds = await _per_call_ingest(client, embedder, generator, bounds.ingest_seconds)
        logger.info("qdrant baseline: queries at %d points", size)
        with_embedding, search_only, stopped = await _queries(
            client, embedder, generator, bounds.queries, bounds.query_seconds
        )
    finally:
        client.close()
    disk = directory_bytes(directory)
    dimensions = str(embedder.dimensions)
    viewer = viewer_id_for_probes()
    arguments = ["open-qdrant", "--path", str(directory), "--dimensions", dimensions,
                 "--viewer", viewer]  # fmt: skip
    opens = await measure_open("qdrant", arguments, episodes=size, store_bytes=disk, cwd=cwd)
    rate = per_second(turns, seconds)
    return QdrantSize(
        episodes=size,
        bulk_load_seconds=load_seconds,
        bulk_load_reused=reused,
        per_call_turns=turns,
        per_call_seconds=seconds,
        per_call_turns_per_second=rate,
        extrapolated_ingest_seconds=size / rate if rate else float("inf"),
        query_with_embedding=with_embedding,
        query_search_only=search_only,
        queries_stopped_by_time=stopped,
        disk_bytes=disk,
        opens=tuple(opens),
    )


def viewer_id_for_probes() -> str:
    """The viewer whose memories the open probes search."""
    return viewer_scope(1).user_id or ""


def _bulk_load(
    spec: CorpusSpec, pool: EmbeddedPool, directory: Path, model_name: str
) -> tuple[float, bool]:
    manifest = directory / "manifest.json"
    key = f"{spec.store_key(model_name)}-{BULK_METHOD}"
    if manifest.exists():
        saved = json.loads(manifest.read_text(encoding="utf-8"))
        if saved.get("key") == key:
            return float(saved["load_seconds"]), True
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    watch = Stopwatch()
    client = QdrantClient(path=str(directory))
    try:
        create_seed_collection(client, pool.vectors.shape[1])
        if not _without_fsync(client):
            logger.warning("qdrant bulk load: local storage not found, loading with fsync")
        _load_points(client, spec, pool)
    finally:
        client.close()
    seconds = watch.elapsed()
    manifest.write_text(json.dumps({"key": key, "load_seconds": seconds}), encoding="utf-8")
    return seconds, False


def _without_fsync(client: QdrantClient) -> bool:
    """Local mode commits (and syncs) its SQLite file once per point; for the bulk load only,
    journal in memory without syncing. This reaches into qdrant-client's local-mode objects;
    when they are not where expected, nothing changes (the load is just slower)."""
    local = getattr(client, "_client", None)
    collections = getattr(local, "collections", None)
    collection = collections.get(COLLECTION) if isinstance(collections, dict) else None
    connection = getattr(getattr(collection, "storage", None), "storage", None)
    if not isinstance(connection, sqlite3.Connection):
        return False
    connection.execute("PRAGMA journal_mode = MEMORY")
    connection.execute("PRAGMA synchronous = OFF")
    return True


def _load_points(client: QdrantClient, spec: CorpusSpec, pool: EmbeddedPool) -> None:
    storable = pool.storable_indices()
    rng = np.random.default_rng(spec.seed)
    for first in range(0, spec.episodes, BULK_BATCH):
        count = min(BULK_BATCH, spec.episodes - first)
        picks = storable[rng.integers(0, storable.size, size=count)]
        vectors = perturbed_unit_vectors(
            pool.vectors, picks, noise=spec.noise, seed=spec.seed + first
        )
        points = [
            PointStruct(
                id=str(uuid.uuid4()),
                vector=vectors[row].tolist(),
                payload=seed_payload(
                    pool.turns[int(pick)],
                    user_id=ChatGenerator.viewer_id((first + row) % spec.viewers),
                    importance=pool.importances[int(pick)],
                ),
            )
            for row, pick in enumerate(picks)
        ]
        client.upsert(collection_name=COLLECTION, points=points)


async def _per_call_ingest(
    client: QdrantClient, embedder: Embedder, generator: ChatGenerator, seconds: float
) -> tuple[int, float]:
    """Turns handled the seed's way until ``seconds`` pass; the added points are removed."""
    added: list[str] = []
    turns = 0
    watch = Stopwatch()
    while watch.elapsed() < seconds:
        turn = generator.turn(generator.random_viewer())
        turns += 1
        rules = score_by_rules(
            turn.user_message, turn.bot_message, emotion_intensity=turn.emotion_intensity
        )
        if not rules.worth_storing:
            continue
        vector = await embedder.embed_query(seed_text(turn))
        point_id = str(uuid.uuid4())
        viewer = ChatGenerator.viewer_id(turn.viewer_index)
        payload = seed_payload(turn, user_id=viewer, importance=rules.score)
        client.upsert(
            collection_name=COLLECTION,
            points=[PointStruct(id=point_id, vector=vector.tolist(), payload=payload)],
        )
        added.append(point_id)
    elapsed = watch.elapsed()
    if added:
        client.delete(collection_name=COLLECTION, points_selector=PointIdsList(points=list(added)))
    return turns, elapsed


async def _queries(
    client: QdrantClient,
    embedder: Embedder,
    generator: ChatGenerator,
    count: int,
    seconds: float,
) -> tuple[LatencySummary, LatencySummary, bool]:
    with_embedding: list[float] = []
    search_only: list[float] = []
    watch = Stopwatch()
    for index in range(count + WARMUP_QUERIES):
        if watch.elapsed() > seconds and len(search_only) >= 1:
            break
        viewer = generator.random_viewer()
        text = generator.query(viewer)
        started = Stopwatch()
        vector = await embedder.embed_query(text)
        searching = Stopwatch()
        client.query_points(
            COLLECTION,
            query=vector.tolist(),
            query_filter=seed_filter(ChatGenerator.viewer_id(viewer)),
            limit=5,
            with_payload=True,
        )
        if index >= WARMUP_QUERIES:
            search_only.append(searching.elapsed())
            with_embedding.append(started.elapsed())
    stopped = len(search_only) < count
    return summarise_latencies(with_embedding), summarise_latencies(search_only), stopped

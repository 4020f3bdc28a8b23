"""Large benchmark stores, built fast from a pool of really embedded texts.

A store of N episodes over V viewers is built like this (the method is in the report):

1. A pool of distinct synthetic exchanges (ko/ja/zh/en) and of distinct facts is embedded
   with the real embedder; the vectors are cached under ``benchmarks/work/pools``.
2. Episode k belongs to viewer k mod V (so every viewer has N/V episodes), copies the
   text of a random storable pool exchange, is recorded at a random moment of the
   timeline, and gets the pool vector moved by small Gaussian noise and renormalised
   (cosine about 0.98 to the original): the vector search does the same work as on
   real embeddings.
3. Episodes and their emotion records are written through the store's ``write_turns`` in
   large batches (one transaction each); each viewer also gets a few facts via
   ``add_facts``. Importance is the rule score of the pool text.

A finished store gets a ``manifest.json``; a later run with the same spec reuses it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from benchmarks.speed.stats import Stopwatch, per_second
from benchmarks.speed.synthetic import (
    ChatGenerator,
    SyntheticFact,
    SyntheticTurn,
    Timeline,
    distinct_facts,
    distinct_turns,
    perturbed_unit_vectors,
)
from omoide.config import Settings
from omoide.domain import EmotionRecord, Episode, Fact, Matrix, Scope, new_id
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput
from omoide.memory.episode_readings import READINGS_FORMAT, with_readings
from omoide.memory.importance import score_by_rules
from omoide.store.base import EmbeddingInfo, FactWrite, TurnWrite
from omoide.store.sqlite.store import SqliteMemoryStore, open_sqlite_store

logger = logging.getLogger(__name__)

CHARACTER_ID = "haru"
DEFAULT_TIMELINE = Timeline(datetime(2024, 1, 1, tzinfo=UTC), timedelta(days=180))
MANIFEST = "manifest.json"
CODE_SWITCH_SHARE = 0.1


@dataclass(frozen=True, slots=True)
class CorpusSpec:
    """What a benchmark store holds."""

    episodes: int
    viewers: int = 1000
    facts_per_viewer: int = 20
    pool_size: int = 20_000
    facts_per_language: int = 150
    noise: float = 0.2
    seed: int = 20240101
    batch_size: int = 5_000
    timeline: Timeline = field(default=DEFAULT_TIMELINE)

    def __post_init__(self) -> None:
        for name in ("episodes", "viewers", "pool_size", "batch_size"):
            if getattr(self, name) < 1:
                raise InvalidInput(f"{name} must be at least 1")

    def generator(self) -> ChatGenerator:
        return ChatGenerator(seed=self.seed, viewers=self.viewers, timeline=self.timeline)

    def pool_key(self, model_name: str) -> str:
        parts = (model_name, self.pool_size, self.facts_per_language, self.seed, self.viewers)
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]

    def store_key(self, model_name: str) -> str:
        """Names what the store holds: a store whose episodes keep readings of another
        format (or none) is rebuilt, as the service would have written them."""
        parts = (self.pool_key(model_name), self, READINGS_FORMAT)
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class EmbeddedPool:
    """Distinct exchanges and facts with their real embeddings."""

    turns: tuple[SyntheticTurn, ...]
    importances: tuple[float, ...]
    vectors: Matrix
    facts: tuple[SyntheticFact, ...]
    fact_vectors: Matrix
    embed_seconds: float
    reused: bool

    @property
    def texts_per_second(self) -> float:
        return per_second(len(self.turns) + len(self.facts), self.embed_seconds)

    def storable_indices(self, store_threshold: float = 0.3) -> np.ndarray:
        return np.array(
            [row for row, score in enumerate(self.importances) if score >= store_threshold],
            dtype=np.int64,
        )


@dataclass(frozen=True, slots=True)
class BuiltStore:
    """A benchmark store on disk and how long it took to build."""

    directory: Path
    spec: CorpusSpec
    reused: bool
    built_at: str
    write_seconds: float
    episodes_per_second: float
    fact_seconds: float
    file_bytes: int

    @property
    def database_path(self) -> Path:
        return store_path(self.directory)


def store_directory(work_dir: Path, episodes: int) -> Path:
    """Where the benchmark store of ``episodes`` episodes lives under ``work_dir``."""
    return work_dir / "stores" / f"episodes-{episodes}"


def store_path(directory: Path) -> Path:
    """Where omoide keeps its store in a data directory."""
    return Settings(data_dir=directory).database_path


def file_bytes(database: Path) -> int:
    """The store's size on disk, write-ahead log included."""
    siblings = [database, Path(f"{database}-wal"), Path(f"{database}-shm")]
    return sum(path.stat().st_size for path in siblings if path.exists())


async def embedded_pool(embedder: Embedder, spec: CorpusSpec, work_dir: Path) -> EmbeddedPool:
    """The spec's pool, embedded now or loaded from the cache of an earlier run."""
    generator = spec.generator()
    turns = distinct_turns(generator, spec.pool_size)
    facts = distinct_facts(generator, spec.facts_per_language)
    importances = tuple(
        score_by_rules(t.user_message, t.bot_message, emotion_intensity=t.emotion_intensity).score
        for t in turns
    )
    cache = work_dir / "pools" / f"pool-{spec.pool_key(embedder.model_name)}.npz"
    if cache.exists():
        with np.load(cache) as saved:
            seconds = float(saved["embed_seconds"])
            vectors, fact_vectors = saved["vectors"], saved["fact_vectors"]
        return EmbeddedPool(
            tuple(turns), importances, vectors, tuple(facts), fact_vectors, seconds, reused=True
        )
    watch = Stopwatch()
    vectors = await embedder.embed_documents([turn.searchable_text for turn in turns])
    fact_vectors = await embedder.embed_documents([fact.text for fact in facts])
    seconds = watch.elapsed()
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, vectors=vectors, fact_vectors=fact_vectors, embed_seconds=seconds)
    return EmbeddedPool(
        tuple(turns), importances, vectors, tuple(facts), fact_vectors, seconds, reused=False
    )


async def build_corpus_store(
    spec: CorpusSpec,
    pool: EmbeddedPool,
    directory: Path,
    *,
    embedding: EmbeddingInfo,
    rebuild: bool = False,
) -> BuiltStore:
    """Build the store for ``spec`` in ``directory``, or reuse the one built there before."""
    key = spec.store_key(embedding.model_name)
    reused = None if rebuild else _reusable(directory, key)
    if reused is not None:
        return reused
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    store = await open_sqlite_store(store_path(directory), embedding=embedding)
    try:
        watch = Stopwatch()
        await _write_episodes(store, spec, pool)
        write_seconds = watch.elapsed()
        fact_watch = Stopwatch()
        await _write_facts(store, spec, pool)
        fact_seconds = fact_watch.elapsed()
    finally:
        await store.close()
    built = BuiltStore(
        directory=directory,
        spec=spec,
        reused=False,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        write_seconds=write_seconds,
        episodes_per_second=per_second(spec.episodes, write_seconds),
        fact_seconds=fact_seconds,
        file_bytes=file_bytes(store_path(directory)),
    )
    _write_manifest(built, key)
    return built


def _reusable(directory: Path, key: str) -> BuiltStore | None:
    manifest = directory / MANIFEST
    if not manifest.exists() or not store_path(directory).exists():
        return None
    saved = json.loads(manifest.read_text(encoding="utf-8"))
    if saved.get("key") != key:
        return None
    return BuiltStore(
        directory=directory,
        spec=_spec_from_json(saved["spec"]),
        reused=True,
        built_at=str(saved["built_at"]),
        write_seconds=float(saved["write_seconds"]),
        episodes_per_second=float(saved["episodes_per_second"]),
        fact_seconds=float(saved["fact_seconds"]),
        file_bytes=file_bytes(store_path(directory)),
    )


def _spec_from_json(saved: dict[str, object]) -> CorpusSpec:
    timeline = saved["timeline"]
    assert isinstance(timeline, dict)
    start = datetime.fromisoformat(str(timeline["start"]))
    span = timedelta(seconds=float(timeline["span_seconds"]))
    fields = {name: value for name, value in saved.items() if name != "timeline"}
    return CorpusSpec(**fields, timeline=Timeline(start, span))  # type: ignore[arg-type]


def _write_manifest(built: BuiltStore, key: str) -> None:
    spec = asdict(built.spec)
    spec["timeline"] = {
        "start": built.spec.timeline.start.isoformat(),
        "span_seconds": built.spec.timeline.span.total_seconds(),
    }
    manifest = {
        "key": key,
        "spec": spec,
        "built_at": built.built_at,
        "write_seconds": built.write_seconds,
        "episodes_per_second": built.episodes_per_second,
        "fact_seconds": built.fact_seconds,
        "load_average_after_build": os.getloadavg(),
    }
    (built.directory / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def viewer_scope(viewer_index: int) -> Scope:
    return Scope(CHARACTER_ID, ChatGenerator.viewer_id(viewer_index))


async def _write_episodes(store: SqliteMemoryStore, spec: CorpusSpec, pool: EmbeddedPool) -> None:
    rows_by_language = _storable_rows_by_language(pool)
    generator = spec.generator()
    rng = np.random.default_rng(spec.seed)
    span_seconds = spec.timeline.span.total_seconds()
    for first in range(0, spec.episodes, spec.batch_size):
        count = min(spec.batch_size, spec.episodes - first)
        languages = [generator.language_of((first + row) % spec.viewers) for row in range(count)]
        picks = _picks(rows_by_language, languages, rng)
        vectors = perturbed_unit_vectors(
            pool.vectors, picks, noise=spec.noise, seed=spec.seed + first
        )
        offsets = rng.random(count) * span_seconds
        writes = [
            _turn_write(first + row, pool, int(picks[row]), vectors[row], spec, float(offsets[row]))
            for row in range(count)
        ]
        await store.write_turns(CHARACTER_ID, writes)
        logger.info("wrote %d of %d episodes", first + count, spec.episodes)


def _storable_rows_by_language(pool: EmbeddedPool) -> dict[str, np.ndarray]:
    storable = pool.storable_indices()
    if storable.size == 0:
        raise InvalidInput("the pool has no exchange worth storing")
    grouped: dict[str, list[int]] = {}
    for row in storable:
        grouped.setdefault(pool.turns[int(row)].language, []).append(int(row))
    return {language: np.array(rows, dtype=np.int64) for language, rows in grouped.items()}


def _picks(
    rows_by_language: dict[str, np.ndarray], languages: list[str], rng: np.random.Generator
) -> np.ndarray:
    """A pool row per episode: in the viewer's language, or another one in a share of turns."""
    codes = sorted(rows_by_language)
    picks = np.empty(len(languages), dtype=np.int64)
    switches = rng.random(len(languages)) < CODE_SWITCH_SHARE
    for position, language in enumerate(languages):
        if switches[position] or language not in rows_by_language:
            language = codes[int(rng.integers(len(codes)))]
        rows = rows_by_language[language]
        picks[position] = rows[int(rng.integers(rows.size))]
    return picks


def _turn_write(
    number: int, pool: EmbeddedPool, pick: int, vector: Matrix, spec: CorpusSpec, offset: float
) -> TurnWrite:
    turn = pool.turns[pick]
    scope = viewer_scope(number % spec.viewers)
    recorded_at = spec.timeline.start + timedelta(seconds=round(offset, 6))
    episode = Episode(
        id=new_id(),
        scope=scope,
        user_message=turn.user_message,
        bot_message=turn.bot_message,
        recorded_at=recorded_at,
        importance=pool.importances[pick],
        emotion=turn.emotion,
        emotion_intensity=turn.emotion_intensity,
        topics=turn.topics,
    )
    episode = with_readings(episode)  # as the write path stores it (planned_episode)
    emotion = EmotionRecord(
        id=new_id(),
        scope=scope,
        emotion=turn.emotion,
        intensity=turn.emotion_intensity,
        recorded_at=recorded_at,
        trigger_topics=turn.topics,
        episode_id=episode.id,
    )
    return TurnWrite(scope=scope, episode=episode, vector=vector, emotion=emotion)


async def _write_facts(store: SqliteMemoryStore, spec: CorpusSpec, pool: EmbeddedPool) -> None:
    if spec.facts_per_viewer == 0 or not pool.facts:
        return
    generator = spec.generator()
    by_language: dict[str, list[int]] = {}
    for row, fact in enumerate(pool.facts):
        by_language.setdefault(fact.language, []).append(row)
    rng = np.random.default_rng(spec.seed + 1)
    for viewer_index in range(spec.viewers):
        rows = by_language.get(generator.language_of(viewer_index), [])
        if not rows:
            continue
        picks = np.array(rows)[rng.integers(0, len(rows), size=spec.facts_per_viewer)]
        vectors = perturbed_unit_vectors(
            pool.fact_vectors, picks, noise=spec.noise, seed=spec.seed + viewer_index
        )
        at = spec.timeline.start + spec.timeline.span * float(rng.random())
        scope = viewer_scope(viewer_index)
        writes = [
            FactWrite(_fact(scope, pool.facts[int(pick)], at), vectors[row])
            for row, pick in enumerate(picks)
        ]
        await store.write_fact_changes(scope.character_id, writes)


def _fact(scope: Scope, fact: SyntheticFact, at: datetime) -> Fact:
    return Fact(
        id=new_id(),
        scope=scope,
        text=fact.text,
        category=fact.category,
        confidence=0.8,
        salience=0.5,
        recorded_at=at,
        valid_from=at,
    )

"""Re-embedding a store with another model (the ``omoide reembed`` command).

The new model's vectors go into the next generation of vector tables, built beside the
current ones in batches, one transaction per batch. When every episode and fact has a new
vector, one transaction switches the recorded model, drops the old tables and removes
vectors of records deleted meanwhile. Until then the store keeps working with the old
model; an interrupted re-embed resumes where it stopped when run again with the same
model. Run it with the service stopped: a store opened before the switch keeps the old
model and fails (``BackendError``) once its tables are gone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from omoide.domain import Episode
from omoide.errors import BackendError, InvalidInput
from omoide.store.base import EmbeddingInfo
from omoide.store.rows import EPISODE_COLUMNS
from omoide.store.sqlite import vectors
from omoide.store.sqlite.codec import episode_from_row
from omoide.store.sqlite.connection import Database, fetch_all, fetch_one
from omoide.store.sqlite.migrations import open_memory_database
from omoide.store.sqlite.vectors import VectorSpace

if TYPE_CHECKING:
    import apsw

    from omoide.domain import Matrix

EpisodeText = Callable[[Episode], str]
Pending = list[tuple[int, str]]
RecordTable = Literal["episodes", "facts"]
Progress = Callable[[int, int], None]
"""Told ``(done, total)`` after every batch: records embedded so far, and all to embed."""


def _no_progress(done: int, total: int) -> None:
    del done, total


class Embedder(Protocol):
    """What re-embedding needs of an embedder (``omoide.embed`` implements it)."""

    @property
    def model_name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    async def embed_documents(self, texts: Sequence[str]) -> Matrix: ...


@dataclass(frozen=True, slots=True)
class ReembedReport:
    previous: EmbeddingInfo | None
    current: EmbeddingInfo
    episodes: int
    facts: int


def _searchable_text(episode: Episode) -> str:
    return episode.searchable_text


async def reembed_store(
    path: Path,
    embedder: Embedder,
    *,
    batch_size: int = 64,
    episode_text: EpisodeText = _searchable_text,
    progress: Progress = _no_progress,
) -> ReembedReport:
    """Re-embed every episode and fact of the store at ``path`` with ``embedder``.

    ``episode_text`` must be the text the memory layer embeds for an episode; ``progress``
    hears how far it got after every batch.
    """
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise InvalidInput(f"batch_size must be a positive integer (got {batch_size!r})")
    target = vectors.check_embedding_info(
        EmbeddingInfo(model_name=embedder.model_name, dimensions=embedder.dimensions)
    )
    database = await open_memory_database(Path(path))
    try:
        previous, space = await database.write(lambda c: _prepare(c, target, database.path))
        counts = [0, 0]
        tally = _Tally(await database.read(partial(_count_pending, space=space)), progress)
        while True:
            counts[0] += await _fill(
                database, space, embedder, batch_size, episode_text, "episodes", tally
            )
            counts[1] += await _fill(
                database, space, embedder, batch_size, episode_text, "facts", tally
            )
            if await database.write(lambda c: _switch(c, space)):
                break
    finally:
        await database.close()
    return ReembedReport(previous, target, counts[0], counts[1])


def _prepare(
    connection: apsw.Connection, target: EmbeddingInfo, path: Path
) -> tuple[EmbeddingInfo | None, VectorSpace]:
    """Create (or resume) the next generation of vector tables for ``target``."""
    current = vectors.current_space(connection)
    if current is None:
        return None, vectors.bind_embedding(connection, target, path)
    model_id = vectors.ensure_model_id(connection, target)
    pending_generation = vectors.read_meta(connection, "reembed_generation")
    pending_model = vectors.read_meta(connection, "reembed_model_id")
    if pending_generation is not None and pending_model == str(model_id):
        generation = int(pending_generation)
    else:
        if pending_generation is not None:  # an unfinished re-embed to another model
            vectors.drop_vector_tables(connection, int(pending_generation))
        generation = current.generation + 1
    space = VectorSpace(model_id, target.model_name, target.dimensions, generation)
    vectors.create_vector_tables(connection, space)
    vectors.write_meta(connection, "reembed_generation", str(generation))
    vectors.write_meta(connection, "reembed_model_id", str(model_id))
    return current.embedding, space


class _Tally:
    """Records embedded so far against the total, told to a :data:`Progress`."""

    def __init__(self, total: int, progress: Progress) -> None:
        self.done = 0
        self.total = total
        self.progress = progress
        progress(0, total)

    def advance(self, count: int) -> None:
        self.done += count
        self.total = max(self.total, self.done)  # records written meanwhile
        self.progress(self.done, self.total)


def _count_pending(connection: apsw.Connection, *, space: VectorSpace) -> int:
    """Episodes and facts without a vector in ``space`` yet."""
    total = 0
    for table, vector_table in (("episodes", space.episode_table), ("facts", space.fact_table)):
        row = fetch_one(
            connection,
            f"SELECT count(*) FROM {table} r WHERE NOT EXISTS "
            f"(SELECT 1 FROM {vector_table} v WHERE v.rowid = r.internal_id)",
            (),
        )
        total += int(row[0]) if row is not None else 0
    return total


async def _fill(
    database: Database,
    space: VectorSpace,
    embedder: Embedder,
    batch_size: int,
    episode_text: EpisodeText,
    table: RecordTable,
    tally: _Tally,
) -> int:
    """Embed, batch by batch, every record of ``table`` without a vector in ``space``."""
    pending = (
        partial(_pending_episodes, episode_text=episode_text)
        if table == "episodes"
        else _pending_facts
    )
    store = _store_episode_vectors if table == "episodes" else _store_fact_vectors
    done = 0
    after = 0
    while True:
        batch = await database.read(partial(pending, space=space, after=after, limit=batch_size))
        if not batch:
            return done
        matrix = await embedder.embed_documents([text for _, text in batch])
        ids = [internal_id for internal_id, _ in batch]
        rows = _check_matrix(matrix, len(batch), space)
        done += await database.write(partial(store, space=space, ids=ids, rows=rows))
        tally.advance(len(batch))
        after = ids[-1]


def _check_matrix(matrix: Matrix, count: int, space: VectorSpace) -> list[bytes]:
    import numpy as np

    array = np.asarray(matrix, dtype=np.float32)
    if array.shape != (count, space.dimensions):
        raise BackendError(
            f"embedding model {space.model_name!r} returned an array of shape {array.shape} "
            f"for {count} texts (expected ({count}, {space.dimensions}))"
        )
    return [vectors.vector_bytes(row, space) for row in array]


def _pending_episodes(
    connection: apsw.Connection,
    *,
    space: VectorSpace,
    after: int,
    limit: int,
    episode_text: EpisodeText,
) -> Pending:
    rows = fetch_all(
        connection,
        f"SELECT e.internal_id, {EPISODE_COLUMNS} FROM episodes e "
        "JOIN scopes s ON s.id = e.scope_id WHERE e.internal_id > ? AND NOT EXISTS "
        f"(SELECT 1 FROM {space.episode_table} v WHERE v.rowid = e.internal_id) "
        "ORDER BY e.internal_id LIMIT ?",
        (after, limit),
    )
    return [(int(row[0]), episode_text(episode_from_row(row[1:]))) for row in rows]


def _pending_facts(
    connection: apsw.Connection, space: VectorSpace, after: int, limit: int
) -> Pending:
    rows = fetch_all(
        connection,
        "SELECT f.internal_id, f.text FROM facts f WHERE f.internal_id > ? AND NOT EXISTS "
        f"(SELECT 1 FROM {space.fact_table} v WHERE v.rowid = f.internal_id) "
        "ORDER BY f.internal_id LIMIT ?",
        (after, limit),
    )
    return [(int(row[0]), str(row[1])) for row in rows]


def _store_episode_vectors(
    connection: apsw.Connection, *, space: VectorSpace, ids: list[int], rows: list[bytes]
) -> int:
    """Insert vectors for the records still present, with their current filter values."""
    found = fetch_all(
        connection,
        "SELECT internal_id, scope_id, importance, archived_at IS NOT NULL, recorded_at "
        "FROM episodes WHERE internal_id IN (SELECT value FROM json_each(?))",
        (json.dumps(ids),),
    )
    data = dict(zip(ids, rows, strict=True))
    for internal_id, scope_id, importance, archived, recorded_at in found:
        vectors.insert_episode_vector(
            connection,
            space,
            internal_id,
            scope_id,
            data[internal_id],
            importance=importance,
            archived=bool(archived),
            recorded_at=recorded_at,
        )
    return len(found)


def _store_fact_vectors(
    connection: apsw.Connection, *, space: VectorSpace, ids: list[int], rows: list[bytes]
) -> int:
    found = fetch_all(
        connection,
        "SELECT internal_id, scope_id, category, "
        "superseded_at IS NULL AND trust <> 'contradicted' "
        "FROM facts WHERE internal_id IN (SELECT value FROM json_each(?))",
        (json.dumps(ids),),
    )
    data = dict(zip(ids, rows, strict=True))
    for internal_id, scope_id, category, is_current in found:
        vectors.insert_fact_vector(
            connection,
            space,
            internal_id,
            scope_id,
            data[internal_id],
            category=category,
            is_current=bool(is_current),
        )
    return len(found)


def _switch(connection: apsw.Connection, space: VectorSpace) -> bool:
    """Make ``space`` the store's model, unless records were added meanwhile (then False)."""
    tables: tuple[tuple[RecordTable, str], ...] = (
        ("episodes", space.episode_table),
        ("facts", space.fact_table),
    )
    for records, table in tables:
        missing = fetch_one(
            connection,
            f"SELECT 1 FROM {records} r WHERE NOT EXISTS "
            f"(SELECT 1 FROM {table} v WHERE v.rowid = r.internal_id) LIMIT 1",
        )
        if missing is not None:
            return False
        orphans = fetch_all(
            connection,
            f"SELECT v.rowid FROM {table} v WHERE NOT EXISTS "
            f"(SELECT 1 FROM {records} r WHERE r.internal_id = v.rowid)",
        )
        vectors.delete_vectors(connection, table, [int(row[0]) for row in orphans])
    previous = vectors.current_space(connection)
    assert previous is not None
    if previous.generation != space.generation:
        vectors.drop_vector_tables(connection, previous.generation)
    vectors.write_meta(connection, "embedding_model_id", str(space.model_id))
    vectors.write_meta(connection, "vector_generation", str(space.generation))
    vectors.write_meta(connection, "reembed_generation", None)
    vectors.write_meta(connection, "reembed_model_id", None)
    return True

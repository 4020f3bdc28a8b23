"""sqlite-vec ``vec0`` tables: one for episodes, one for facts, in the store's file.

Both are partitioned by scope id (``scope_id integer partition key``), so a search reads
only one scope's chunks, and use cosine distance (similarity = 1 - distance). Filters are
vec0 metadata columns, applied inside the k-nearest-neighbour scan. Every vector row
records the embedding model that made it (``model_id``) and searches match only the
store's current model.

The tables' names carry a generation number recorded in ``store_meta``: a re-embed builds
the next generation beside the current one and switches over in one transaction.
``chunk_size`` is small because every partition reserves at least one chunk; the numbers
behind the choice are in ``docs/store.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from omoide.errors import Conflict, InvalidInput
from omoide.store.base import EmbeddingInfo
from omoide.store.sqlite.connection import fetch_one
from omoide.store.vector_input import checked_vector

if TYPE_CHECKING:
    from pathlib import Path

    import apsw

    from omoide.domain import Vector

CHUNK_SIZE = 8
MAX_DIMENSIONS = 8192
REEMBED_COMMAND = "omoide reembed"


@dataclass(frozen=True, slots=True)
class VectorSpace:
    """The embedding model bound to a store and the vector tables holding its vectors."""

    model_id: int
    model_name: str
    dimensions: int
    generation: int

    @property
    def embedding(self) -> EmbeddingInfo:
        return EmbeddingInfo(model_name=self.model_name, dimensions=self.dimensions)

    @property
    def episode_table(self) -> str:
        return episode_table_name(self.generation)

    @property
    def fact_table(self) -> str:
        return fact_table_name(self.generation)


def episode_table_name(generation: int) -> str:
    return f"episode_vectors_{int(generation)}"


def fact_table_name(generation: int) -> str:
    return f"fact_vectors_{int(generation)}"


def check_embedding_info(embedding: EmbeddingInfo) -> EmbeddingInfo:
    if not isinstance(embedding.model_name, str) or not embedding.model_name.strip():
        raise InvalidInput("the embedding model name must be a non-empty string")
    dimensions = embedding.dimensions
    if isinstance(dimensions, bool) or not isinstance(dimensions, int):
        raise InvalidInput("embedding dimensions must be an integer")
    if not 1 <= dimensions <= MAX_DIMENSIONS:
        raise InvalidInput(
            f"embedding dimensions must be in 1..{MAX_DIMENSIONS} (got {dimensions})"
        )
    return embedding


def create_vector_tables(connection: apsw.Connection, space: VectorSpace) -> None:
    dimensions = int(space.dimensions)
    connection.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {space.episode_table} USING vec0("
        f"scope_id integer partition key, embedding float[{dimensions}] distance_metric=cosine, "
        "model_id integer, importance float, archived boolean, recorded_at integer, "
        f"chunk_size={CHUNK_SIZE})"
    )
    connection.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {space.fact_table} USING vec0("
        f"scope_id integer partition key, embedding float[{dimensions}] distance_metric=cosine, "
        f"model_id integer, category text, is_current boolean, chunk_size={CHUNK_SIZE})"
    )
    index_vector_partitions(connection, space)


def index_vector_partitions(connection: apsw.Connection, space: VectorSpace) -> None:
    """Index the partition column of sqlite-vec's chunk tables (idempotent).

    sqlite-vec 0.1.9 finds a partition's chunks (for a KNN query and for every insert) by
    scanning its ``_chunks`` table, one row per 8 vectors of the whole store; with this
    index a per-viewer search at 1,000,000 episodes measured 12.75 -> 2.0 ms. It relies on
    the extension's internal table layout, which is why sqlite-vec's version is pinned.
    """
    for table in (space.episode_table, space.fact_table):
        connection.execute(
            f"CREATE INDEX IF NOT EXISTS {table}_chunks_by_partition "
            f"ON {table}_chunks (partition00)"
        )


def drop_vector_tables(connection: apsw.Connection, generation: int) -> None:
    connection.execute(f"DROP TABLE IF EXISTS {episode_table_name(generation)}")
    connection.execute(f"DROP TABLE IF EXISTS {fact_table_name(generation)}")


def ensure_model_id(connection: apsw.Connection, embedding: EmbeddingInfo) -> int:
    connection.execute(
        "INSERT INTO embedding_models (name, dimensions) VALUES (?, ?) "
        "ON CONFLICT (name, dimensions) DO NOTHING",
        (embedding.model_name, embedding.dimensions),
    )
    row = fetch_one(
        connection,
        "SELECT id FROM embedding_models WHERE name = ? AND dimensions = ?",
        (embedding.model_name, embedding.dimensions),
    )
    assert row is not None
    return int(row[0])


def read_meta(connection: apsw.Connection, key: str) -> str | None:
    row = fetch_one(connection, "SELECT value FROM store_meta WHERE key = ?", (key,))
    return None if row is None else str(row[0])


def write_meta(connection: apsw.Connection, key: str, value: str | None) -> None:
    if value is None:
        connection.execute("DELETE FROM store_meta WHERE key = ?", (key,))
        return
    connection.execute(
        "INSERT INTO store_meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def space_of_model(connection: apsw.Connection, model_id: int, generation: int) -> VectorSpace:
    row = fetch_one(
        connection, "SELECT name, dimensions FROM embedding_models WHERE id = ?", (model_id,)
    )
    assert row is not None, f"embedding model {model_id} is recorded but missing"
    return VectorSpace(model_id, str(row[0]), int(row[1]), generation)


def current_space(connection: apsw.Connection) -> VectorSpace | None:
    """The model bound to the store, or None for a store that has never been bound."""
    model_id = read_meta(connection, "embedding_model_id")
    generation = read_meta(connection, "vector_generation")
    if model_id is None or generation is None:
        return None
    return space_of_model(connection, int(model_id), int(generation))


def bind_embedding(
    connection: apsw.Connection, embedding: EmbeddingInfo, path: Path
) -> VectorSpace:
    """Record the model on first open; refuse a different model or dimension afterwards."""
    check_embedding_info(embedding)
    space = current_space(connection)
    if space is None:
        space = VectorSpace(ensure_model_id(connection, embedding), *_model_fields(embedding), 1)
        create_vector_tables(connection, space)
        write_meta(connection, "embedding_model_id", str(space.model_id))
        write_meta(connection, "vector_generation", str(space.generation))
        return space
    check_bound_model(space, embedding, path)
    index_vector_partitions(connection, space)  # stores written before the index existed
    return space


def check_bound_model(space: VectorSpace, embedding: EmbeddingInfo, path: Path) -> None:
    """Refuse ``embedding`` if the store at ``path`` is bound to another model (``space``)."""
    if (space.model_name, space.dimensions) != _model_fields(embedding):
        raise Conflict(
            f"the store {path} holds vectors from embedding model {space.model_name!r} "
            f"({space.dimensions} dimensions), but the configured model is "
            f"{embedding.model_name!r} ({embedding.dimensions} dimensions). Configure "
            f"{space.model_name!r} again, or re-embed the store with the new model: "
            f"`{REEMBED_COMMAND}`"
        )


def _model_fields(embedding: EmbeddingInfo) -> tuple[str, int]:
    return embedding.model_name, embedding.dimensions


def vector_bytes(vector: Vector, space: VectorSpace) -> bytes:
    """Validate one vector against the store's model and encode it for vec0."""
    array = checked_vector(vector, model_name=space.model_name, dimensions=space.dimensions)
    return array.tobytes()


def insert_episode_vector(
    connection: apsw.Connection,
    space: VectorSpace,
    internal_id: int,
    scope_id: int,
    data: bytes,
    *,
    importance: float,
    archived: bool,
    recorded_at: int,
) -> None:
    connection.execute(
        f"INSERT INTO {space.episode_table} (rowid, scope_id, embedding, model_id, importance, "
        "archived, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (internal_id, scope_id, data, space.model_id, importance, int(archived), recorded_at),
    )


def insert_fact_vector(
    connection: apsw.Connection,
    space: VectorSpace,
    internal_id: int,
    scope_id: int,
    data: bytes,
    *,
    category: str,
    is_current: bool,
) -> None:
    connection.execute(
        f"INSERT INTO {space.fact_table} (rowid, scope_id, embedding, model_id, category, "
        "is_current) VALUES (?, ?, ?, ?, ?, ?)",
        (internal_id, scope_id, data, space.model_id, category, int(is_current)),
    )


def delete_vectors(connection: apsw.Connection, table: str, internal_ids: list[int]) -> None:
    connection.executemany(
        f"DELETE FROM {table} WHERE rowid = ?", [(internal_id,) for internal_id in internal_ids]
    )


def nearest_sql(table: str, conditions: str) -> str:
    """A k-nearest-neighbour scan of one scope's partition with filters applied inside it.

    Parameters: query vector, k, scope id, model id, then the conditions' parameters.
    """
    return (
        f"SELECT rowid AS internal_id, distance FROM {table} "
        "WHERE embedding MATCH ? AND k = ? AND scope_id = ? AND model_id = ?" + conditions
    )


def similarity(distance: float) -> float:
    """Cosine similarity from vec0's cosine distance, clamped against rounding."""
    return min(1.0, max(-1.0, 1.0 - distance))

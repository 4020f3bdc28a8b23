"""The embedding model bound to a server store, and the checks every vector passes.

The first store opened on a database records its model in ``store_meta``; later opens with
another model or dimension are refused (:class:`~omoide.errors.Conflict`), like the
embedded store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.errors import Conflict, InvalidInput
from omoide.store.base import EmbeddingInfo
from omoide.store.server.codec import encode_vector
from omoide.store.server.database import Database, execute, fetch_all
from omoide.store.server.schema import MIGRATION_LOCK
from omoide.store.vector_input import checked_vector

if TYPE_CHECKING:
    from omoide.domain import Vector

MAX_DIMENSIONS = 65536


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


async def bind_embedding(database: Database, embedding: EmbeddingInfo) -> EmbeddingInfo:
    """Record the model on first open; refuse a different model or dimension afterwards."""
    check_embedding_info(embedding)
    async with database.transaction() as connection:
        await execute(connection, "SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        rows = await fetch_all(
            connection,
            "SELECT key, value FROM store_meta WHERE key IN ('model_name', 'dimensions')",
        )
        recorded = {str(key): str(value) for key, value in rows}
        if not recorded:
            await execute(
                connection,
                "INSERT INTO store_meta (key, value) VALUES ('model_name', %s), ('dimensions', %s)",
                (embedding.model_name, str(embedding.dimensions)),
            )
            return embedding
    stored = EmbeddingInfo(recorded["model_name"], int(recorded["dimensions"]))
    if stored != embedding:
        raise Conflict(
            f"the PostgreSQL store at {database.location} holds vectors from embedding model "
            f"{stored.model_name!r} ({stored.dimensions} dimensions), but the configured model "
            f"is {embedding.model_name!r} ({embedding.dimensions} dimensions). Configure "
            f"{stored.model_name!r} again, or migrate the memories to a store of the new model"
        )
    return stored


async def recorded_embedding(database: Database) -> EmbeddingInfo | None:
    """The model the database records, or None before the first store was opened."""
    rows = await database.fetch_all(
        "SELECT key, value FROM store_meta WHERE key IN ('model_name', 'dimensions')"
    )
    recorded = {str(key): str(value) for key, value in rows}
    if len(recorded) < 2:
        return None
    return EmbeddingInfo(recorded["model_name"], int(recorded["dimensions"]))


def vector_bytes(vector: Vector, embedding: EmbeddingInfo) -> bytes:
    """Validate one vector against the store's model and encode it."""
    array = checked_vector(vector, model_name=embedding.model_name, dimensions=embedding.dimensions)
    return encode_vector(array)

"""The seed's memory design (seed 000, the Haru system) on ``qdrant-client`` local mode.

One collection of episodes, cosine distance, payload indexes on ``user_id`` and
``importance``; every text embedded by itself; one point upserted per episode; searches
filtered on ``user_id``, ``importance`` and ``decay_factor``. Only ``qdrant_client`` is
imported here, so a cold-open probe pays for nothing else.
"""

from __future__ import annotations

from qdrant_client import QdrantClient
from qdrant_client.models import (
    Distance,
    FieldCondition,
    Filter,
    MatchValue,
    PayloadSchemaType,
    Range,
    VectorParams,
)

COLLECTION = "episodes"


def create_seed_collection(client: QdrantClient, dimensions: int) -> None:
    """The seed's ``init_collections`` for the episode collection."""
    client.create_collection(
        collection_name=COLLECTION,
        vectors_config=VectorParams(size=dimensions, distance=Distance.COSINE),
    )
    client.create_payload_index(
        collection_name=COLLECTION, field_name="user_id", field_schema=PayloadSchemaType.KEYWORD
    )
    client.create_payload_index(
        collection_name=COLLECTION, field_name="importance", field_schema=PayloadSchemaType.FLOAT
    )


def seed_filter(user_id: str, *, min_importance: float = 0.0, min_decay: float = 0.1) -> Filter:
    """The seed's ``EpisodicMemoryStore.search`` filter."""
    return Filter(
        must=[
            FieldCondition(key="user_id", match=MatchValue(value=user_id)),
            FieldCondition(key="importance", range=Range(gte=min_importance)),
            FieldCondition(key="decay_factor", range=Range(gte=min_decay)),
        ]
    )

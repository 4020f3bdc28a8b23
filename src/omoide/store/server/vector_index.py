"""The Qdrant side: one collection per record kind, scoped searches, upserts and deletes.

Each collection has a named dense vector (``dense``, cosine) and a sparse keyword vector
(``keywords``, with Qdrant's IDF modifier; see :mod:`.sparse`), and keyword payload indexes
on the scope fields: ``user_id`` is the tenant index (``is_tenant``), and every search
filters on the ``scope`` key built by :func:`scope_filter`, the one place a scope becomes a
Qdrant filter. Graph links are built per payload value (``payload_m``) rather than
globally (``m=0``), Qdrant's layout for searches that always filter by tenant.

Qdrant errors are translated at this boundary: an unreachable server, a timeout or a 5xx
answer is :class:`~omoide.errors.BackendUnavailable`, anything else
:class:`~omoide.errors.BackendError`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import grpc
import httpx
from qdrant_client import AsyncQdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from omoide.domain import Scope
from omoide.errors import BackendError, BackendUnavailable, Conflict
from omoide.store.server.endpoints import ServerConfig
from omoide.store.server.points import DENSE, KEYWORDS, PointKind
from omoide.store.server.scopes import scope_key

BATCH = 256
_RETRYABLE_GRPC = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.INTERNAL,
}
REINDEX_COMMAND = "omoide reindex"
DEFAULT_GRPC_PORT = 6334

_SCOPE_INDEXES: dict[str, models.PayloadSchemaType | models.KeywordIndexParams] = {
    "scope": models.PayloadSchemaType.KEYWORD,
    "character_id": models.PayloadSchemaType.KEYWORD,
    "user_id": models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True),
}
_FILTER_INDEXES: dict[PointKind, dict[str, models.PayloadSchemaType]] = {
    "episode": {
        "importance": models.PayloadSchemaType.FLOAT,
        "archived": models.PayloadSchemaType.BOOL,
        "recorded_at": models.PayloadSchemaType.INTEGER,
    },
    "fact": {
        "category": models.PayloadSchemaType.KEYWORD,
        "current": models.PayloadSchemaType.BOOL,
    },
}


def scope_filter(scope: Scope, conditions: Sequence[models.FieldCondition] = ()) -> models.Filter:
    """The filter selecting ``scope``'s points, with ``conditions`` on top."""
    key = scope_key(scope)
    viewer: models.Condition = (
        models.IsNullCondition(is_null=models.PayloadField(key="user_id"))
        if scope.user_id is None
        else models.FieldCondition(key="user_id", match=models.MatchValue(value=scope.user_id))
    )
    must: list[models.Condition] = [
        models.FieldCondition(key="scope", match=models.MatchValue(value=key)),
        models.FieldCondition(
            key="character_id", match=models.MatchValue(value=scope.character_id)
        ),
        viewer,
        *conditions,
    ]
    return models.Filter(must=must)


def _batches(points: Sequence[models.PointStruct]) -> list[models.Batch]:
    """Points grouped by the names of their vectors, each group as one column batch."""
    groups: dict[tuple[str, ...], list[models.PointStruct]] = {}
    for point in points:
        vectors = point.vector if isinstance(point.vector, dict) else {}
        groups.setdefault(tuple(sorted(vectors)), []).append(point)
    batches = []
    for names, group in groups.items():
        columns: dict[str, list[Any]] = {
            name: [cast(dict[str, Any], point.vector)[name] for point in group] for name in names
        }
        batches.append(
            models.Batch(
                ids=[point.id for point in group],
                vectors=columns,
                payloads=[point.payload or {} for point in group],
            )
        )
    return batches


class VectorIndex:
    """The Qdrant collections of one store (``<prefix>_episodes``, ``<prefix>_facts``)."""

    def __init__(self, client: AsyncQdrantClient, config: ServerConfig) -> None:
        self._client = client
        self._config = config

    def collection(self, kind: PointKind) -> str:
        if kind == "episode":
            return self._config.episode_collection
        return self._config.fact_collection

    @contextmanager
    def _calling(self, what: str) -> Iterator[None]:
        try:
            yield
        except UnexpectedResponse as exc:
            message = f"Qdrant at {self._config.qdrant_url} refused to {what}: {exc}"
            if exc.status_code is not None and exc.status_code >= 500:
                raise BackendUnavailable(message) from exc
            raise BackendError(message) from exc
        except (ResponseHandlingException, httpx.HTTPError, OSError) as exc:
            raise BackendUnavailable(
                f"Qdrant at {self._config.qdrant_url} is unavailable ({what}): {exc}"
            ) from exc
        except grpc.aio.AioRpcError as exc:
            code = exc.code()
            message = f"Qdrant at {self._config.qdrant_url} failed to {what} (gRPC {code})"
            if code in _RETRYABLE_GRPC:
                raise BackendUnavailable(message) from exc
            raise BackendError(message) from exc

    # --- collections ---------------------------------------------------------------------
    async def ensure_collections(self, dimensions: int) -> None:
        """Create missing collections and payload indexes; refuse another dimension."""
        for kind in ("episode", "fact"):
            name = self.collection(kind)
            with self._calling(f"describe collection {name}"):
                exists = await self._client.collection_exists(name)
            if not exists:
                await self._create(kind, dimensions)
            await self._check_dimensions(kind, dimensions)
            await self._ensure_indexes(kind)

    async def recreate(self, dimensions: int) -> None:
        """Drop and create both collections (for a rebuild from PostgreSQL)."""
        for kind in ("episode", "fact"):
            with self._calling(f"drop collection {self.collection(kind)}"):
                await self._client.delete_collection(self.collection(kind))
            await self._create(kind, dimensions)
            await self._ensure_indexes(kind)

    async def drop(self) -> None:
        for kind in ("episode", "fact"):
            with self._calling(f"drop collection {self.collection(kind)}"):
                await self._client.delete_collection(self.collection(kind))

    async def _create(self, kind: PointKind, dimensions: int) -> None:
        name = self.collection(kind)
        try:
            with self._calling(f"create collection {name}"):
                await self._client.create_collection(
                    name,
                    vectors_config={
                        DENSE: models.VectorParams(size=dimensions, distance=models.Distance.COSINE)
                    },
                    sparse_vectors_config={
                        KEYWORDS: models.SparseVectorParams(modifier=models.Modifier.IDF)
                    },
                    shard_number=self._config.shard_number,
                    replication_factor=self._config.replication_factor,
                    write_consistency_factor=self._config.write_consistency_factor,
                    hnsw_config=models.HnswConfigDiff(m=0, payload_m=16),
                )
        except BackendError:
            with self._calling(f"describe collection {name}"):
                if not await self._client.collection_exists(name):
                    raise  # not a race with another instance creating it

    async def _check_dimensions(self, kind: PointKind, dimensions: int) -> None:
        name = self.collection(kind)
        with self._calling(f"describe collection {name}"):
            info = await self._client.get_collection(name)
        vectors = info.config.params.vectors
        size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
        if size != dimensions:
            raise Conflict(
                f"the Qdrant collection {name} holds {size}-dimensional vectors, but the store's "
                f"embedding model makes {dimensions}: rebuild it with `{REINDEX_COMMAND}`"
            )

    async def _ensure_indexes(self, kind: PointKind) -> None:
        """Queue the creation of missing payload indexes (Qdrant builds them in order)."""
        name = self.collection(kind)
        with self._calling(f"describe collection {name}"):
            existing = set((await self._client.get_collection(name)).payload_schema)
        wanted: dict[str, Any] = {**_SCOPE_INDEXES, **_FILTER_INDEXES[kind]}
        for field_name, schema in wanted.items():
            if field_name not in existing:
                with self._calling(f"index {field_name} in {name}"):
                    await self._client.create_payload_index(
                        name, field_name=field_name, field_schema=schema, wait=False
                    )

    # --- points --------------------------------------------------------------------------
    async def upsert(self, kind: PointKind, points: Sequence[models.PointStruct]) -> None:
        """Write points as column batches, one per set of vector names.

        The client inspects every object it sends for values needing inference: a list of
        points costs it about a millisecond each, a batch about a millisecond in all.
        """
        name = self.collection(kind)
        for start in range(0, len(points), BATCH):
            for batch in _batches(points[start : start + BATCH]):
                with self._calling(f"write points to {name}"):
                    await self._client.upsert(name, points=batch, wait=True)

    async def delete(self, kind: PointKind, internal_ids: Sequence[int]) -> None:
        name = self.collection(kind)
        for start in range(0, len(internal_ids), BATCH):
            selector = models.PointIdsList(points=list(internal_ids[start : start + BATCH]))
            with self._calling(f"delete points from {name}"):
                await self._client.delete(name, points_selector=selector, wait=True)

    async def search(
        self,
        kind: PointKind,
        scope: Scope,
        query: list[float] | models.SparseVector,
        *,
        conditions: Sequence[models.FieldCondition],
        limit: int,
    ) -> list[tuple[int, float]]:
        """``(internal_id, score)`` of the best points of ``scope``, best first."""
        name = self.collection(kind)
        using = KEYWORDS if isinstance(query, models.SparseVector) else DENSE
        with self._calling(f"search {name}"):
            response = await self._client.query_points(
                name,
                query=query,
                using=using,
                query_filter=scope_filter(scope, conditions),
                limit=limit,
                with_payload=False,
                with_vectors=False,
            )
        return [(int(point.id), float(point.score)) for point in response.points]

    async def scan(self, kind: PointKind) -> AsyncIterator[list[tuple[int, dict[str, Any]]]]:
        """Every point's id and payload, a page at a time (for drift checks)."""
        name = self.collection(kind)
        offset: models.ExtendedPointId | None = None
        while True:
            with self._calling(f"scroll {name}"):
                records, offset = await self._client.scroll(
                    name, limit=1000, offset=offset, with_payload=True, with_vectors=False
                )
            yield [(int(record.id), dict(record.payload or {})) for record in records]
            if offset is None:
                return

    async def payloads(
        self, kind: PointKind, internal_ids: Sequence[int]
    ) -> dict[int, dict[str, Any]]:
        """The payloads of those of ``internal_ids`` that have a point."""
        name = self.collection(kind)
        with self._calling(f"read points of {name}"):
            records = await self._client.retrieve(
                name, ids=list(internal_ids), with_payload=True, with_vectors=False
            )
        return {int(record.id): dict(record.payload or {}) for record in records}

    async def count(self, kind: PointKind) -> int:
        with self._calling(f"count {self.collection(kind)}"):
            result = await self._client.count(self.collection(kind), exact=True)
        return int(result.count)

    async def close(self) -> None:
        await self._client.close()


def connect_index(config: ServerConfig) -> VectorIndex:
    """A client for ``config.qdrant_url`` (gRPC when a gRPC port is configured: about five
    times less overhead per search than REST); it makes no request until first used."""
    client = AsyncQdrantClient(
        url=config.qdrant_url,
        api_key=config.qdrant_api_key,
        timeout=int(config.timeout_seconds),
        prefer_grpc=config.qdrant_grpc_port is not None,
        grpc_port=config.qdrant_grpc_port or DEFAULT_GRPC_PORT,
        check_compatibility=False,
    )
    return VectorIndex(client, config)

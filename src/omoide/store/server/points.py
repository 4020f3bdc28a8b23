"""Qdrant points derived from PostgreSQL records: id, vectors and filterable payload.

A point's id is its record's ``internal_id``. Its payload holds only what searches filter
on (scope fields and filter fields), never the memory's text: the text stays in
PostgreSQL, and a deleted memory leaves nothing readable in Qdrant once its point is gone.
A record with neither a vector nor any keyword has no point.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from qdrant_client import models

from omoide.domain import Scope, TrustState
from omoide.store.rows import Row
from omoide.store.server.codec import decode_vector
from omoide.store.server.scopes import scope_key
from omoide.store.server.sparse import document_terms

PointKind = Literal["episode", "fact"]
POINT_KINDS: tuple[PointKind, ...] = ("episode", "fact")
DENSE = "dense"
KEYWORDS = "keywords"

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

EPISODE_POINT_COLUMNS = (
    "e.internal_id, s.character_id, s.user_id, e.user_message, e.bot_message, e.importance, "
    "e.archived_at, e.recorded_at, e.embedding"
)
FACT_POINT_COLUMNS = (
    "f.internal_id, s.character_id, s.user_id, f.text, f.category, f.superseded_at, f.trust, "
    "f.embedding"
)


def micros(moment: datetime) -> int:
    """Microseconds since the Unix epoch: the ``recorded_at`` payload value."""
    return (moment - _EPOCH) // timedelta(microseconds=1)


def scope_payload(scope: Scope) -> dict[str, Any]:
    """The scope fields every point carries (``user_id`` is the tenant field)."""
    return {
        "scope": scope_key(scope),
        "character_id": scope.character_id,
        "user_id": scope.user_id,
    }


def _point(
    internal_id: int,
    scope: Scope,
    text: str,
    embedding: Any,
    dimensions: int,
    extra: dict[str, Any],
) -> models.PointStruct | None:
    vectors: dict[str, Any] = {}
    if embedding is not None:
        vectors[DENSE] = decode_vector(embedding, dimensions).tolist()
    terms = document_terms(scope_key(scope), text)
    if terms:
        vectors[KEYWORDS] = terms.to_qdrant()
    if not vectors:
        return None
    return models.PointStruct(
        id=internal_id, vector=vectors, payload={**scope_payload(scope), **extra}
    )


def episode_point(row: Row, dimensions: int) -> models.PointStruct | None:
    """The point of one row selected with :data:`EPISODE_POINT_COLUMNS`."""
    scope = Scope(row[1], row[2])
    text = f"{row[3]}\n{row[4]}".strip()
    extra = {
        "importance": float(row[5]),
        "archived": row[6] is not None,
        "recorded_at": micros(row[7]),
    }
    return _point(int(row[0]), scope, text, row[8], dimensions, extra)


def fact_point(row: Row, dimensions: int) -> models.PointStruct | None:
    """The point of one row selected with :data:`FACT_POINT_COLUMNS`."""
    scope = Scope(row[1], row[2])
    current = row[5] is None and row[6] != TrustState.CONTRADICTED.value
    extra = {"category": str(row[4]), "current": current}
    return _point(int(row[0]), scope, str(row[3]), row[7], dimensions, extra)


def build_point(kind: PointKind, row: Row, dimensions: int) -> models.PointStruct | None:
    return episode_point(row, dimensions) if kind == "episode" else fact_point(row, dimensions)


def point_columns(kind: PointKind) -> str:
    return EPISODE_POINT_COLUMNS if kind == "episode" else FACT_POINT_COLUMNS


def point_source(kind: PointKind) -> str:
    """The FROM clause whose rows :func:`build_point` reads (alias ``e`` or ``f``)."""
    if kind == "episode":
        return "episodes e JOIN scopes s ON s.id = e.scope_id"
    return "facts f JOIN scopes s ON s.id = f.scope_id"


def point_alias(kind: PointKind) -> str:
    return "e" if kind == "episode" else "f"

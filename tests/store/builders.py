"""Values for store tests: scopes, episodes, facts, turns and deterministic vectors."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

import numpy as np

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    MetadataValue,
    Scope,
    Tombstone,
    TrustState,
    Vector,
)
from omoide.store.base import (
    EmbeddingInfo,
    FactSupersession,
    FactUpdate,
    FactWrite,
    TurnWrite,
)
from omoide.wiring.storage import MemoryBackend

DIMENSIONS = 8
EMBEDDING = EmbeddingInfo(model_name="test-embedder-v1", dimensions=DIMENSIONS)
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    """``minutes`` after T0."""
    return T0 + timedelta(minutes=minutes)


def unit(index: int, *, dimensions: int = DIMENSIONS) -> Vector:
    """The unit vector along axis ``index``."""
    vector = np.zeros(dimensions, dtype=np.float32)
    vector[index % dimensions] = 1.0
    return vector


def blend(*weights: float) -> Vector:
    """A vector with the given leading components, normalised."""
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[: len(weights)] = weights
    normalised: Vector = (vector / np.linalg.norm(vector)).astype(np.float32)
    return normalised


def text_vector(text: str, *, dimensions: int = DIMENSIONS) -> Vector:
    """A deterministic unit vector derived from ``text``'s hash."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    vector = np.random.default_rng(seed).standard_normal(dimensions).astype(np.float32)
    normalised: Vector = (vector / np.linalg.norm(vector)).astype(np.float32)
    return normalised


def episode(
    scope: Scope,
    episode_id: str,
    text: str = "hello there",
    *,
    bot: str = "",
    recorded_at: datetime = T0,
    importance: float = 0.5,
    archived_at: datetime | None = None,
    metadata: Mapping[str, MetadataValue] | None = None,
    topics: tuple[str, ...] = (),
) -> Episode:
    return Episode(
        id=episode_id,
        scope=scope,
        user_message=text,
        bot_message=bot,
        recorded_at=recorded_at,
        importance=importance,
        archived_at=archived_at,
        metadata=dict(metadata or {}),
        topics=topics,
    )


def emotion(
    scope: Scope,
    emotion_id: str,
    *,
    feeling: str = "joy",
    recorded_at: datetime = T0,
    episode_id: str | None = None,
) -> EmotionRecord:
    return EmotionRecord(
        id=emotion_id,
        scope=scope,
        emotion=feeling,
        intensity=0.6,
        recorded_at=recorded_at,
        trigger_topics=("games",),
        episode_id=episode_id,
    )


def turn(
    item: Episode,
    vector: Vector | None = None,
    *,
    feeling: EmotionRecord | None = None,
) -> TurnWrite:
    """A turn storing ``item`` with ``vector`` (derived from its text when not given)."""
    chosen = text_vector(item.searchable_text) if vector is None else vector
    return TurnWrite(scope=item.scope, episode=item, vector=chosen, emotion=feeling)


def fact(
    scope: Scope,
    fact_id: str,
    text: str = "likes games",
    *,
    category: FactCategory = FactCategory.PREFERENCE,
    recorded_at: datetime = T0,
    sources: tuple[str, ...] = (),
    trust: TrustState = TrustState.STATED,
) -> Fact:
    return Fact(
        id=fact_id,
        scope=scope,
        text=text,
        category=category,
        confidence=0.8,
        salience=0.6,
        recorded_at=recorded_at,
        valid_from=recorded_at,
        trust=trust,
        source_episode_ids=sources,
    )


def fact_write(item: Fact, vector: Vector | None = None) -> FactWrite:
    return FactWrite(fact=item, vector=text_vector(item.text) if vector is None else vector)


# --- facts change only through write_fact_changes: one change of each kind ------------
async def add_facts(store: MemoryBackend, scope: Scope, writes: Sequence[FactWrite]) -> None:
    """Add facts of ``scope``'s character (each stored in its own fact's scope)."""
    await store.write_fact_changes(scope.character_id, list(writes))


async def update_fact(store: MemoryBackend, fact: Fact) -> None:
    """Replace a stored fact's fields, same id and text."""
    await store.write_fact_changes(fact.scope.character_id, [FactUpdate(fact)])


async def supersede_fact(
    store: MemoryBackend, scope: Scope, old_fact_id: str, replacement: FactWrite, *, at: datetime
) -> Fact:
    """Close ``old_fact_id`` and add ``replacement`` linked to it; the replacement stored."""
    change = FactSupersession(old_fact_id, replacement, at)
    await store.write_fact_changes(scope.character_id, [change])
    return await store.get_fact(scope, replacement.fact.id)


async def tombstones(store: MemoryBackend, scope: Scope) -> list[Tombstone]:
    """The tombstones ``scope`` keeps, as its export shows them."""
    return list((await store.export_scope(scope)).tombstones)

"""Fact keeping skips only the store searches whose answer it already knows.

A vector search shorter than its limit returned every current fact, so the keyword search
is left out then, and only then; a category with no current fact has no near-duplicate
until a fact of it is written, even earlier in the same turn.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from omoide.domain import Episode, FactCategory, Scope, TrustState, Vector
from omoide.embed.hashing import HashingEmbedder
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts.corrections import FactCorrector
from omoide.memory.facts.keeper import FactKeeper
from omoide.metrics import Metrics
from omoide.store.base import EmbeddingInfo, FactFilter, TurnWrite
from omoide.store.sqlite import SqliteMemoryStore, open_sqlite_store

AT = datetime(2025, 3, 1, 19, tzinfo=UTC)
YUKI = Scope("haru", "yuki")
LIKES = FactCategory.PREFERENCE


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteMemoryStore]:
    embedder = HashingEmbedder()
    info = EmbeddingInfo(embedder.model_name, embedder.dimensions)
    opened = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=info)
    yield opened
    await opened.close()


def keeper_for(store: SqliteMemoryStore, *, duplicate_threshold: float = 0.99) -> FactKeeper:
    return FactKeeper(
        store=store,
        embedder=HashingEmbedder(),
        duplicate_threshold=duplicate_threshold,
        metrics=Metrics(),
        related_limit=2,
    )


async def stored_episode(store: SqliteMemoryStore, message: str) -> Episode:
    episode = Episode("turn-1", YUKI, message, "", AT, importance=0.8)
    vector = await embed(episode.searchable_text)
    await store.write_turns("haru", [TurnWrite(YUKI, episode, vector, None)])
    return episode


async def embed(text: str) -> Vector:
    vector: Vector = (await HashingEmbedder().embed_documents([text]))[0]
    return vector


def slot_of(text: str) -> str:
    """ "likes ramen" -> "like:ramen", "dislikes ramen" -> "dislike:ramen"."""
    verb, _, thing = text.partition(" ")
    return f"{verb.removesuffix('s')}:{thing.replace(' ', '')}"


def candidate(text: str) -> FactCandidate:
    thing = text.partition(" ")[2]
    return FactCandidate(text, LIKES, 0.75, 0.6, TrustState.STATED, slot_of(text), (thing,))


async def add_known(store: SqliteMemoryStore, *texts: str) -> None:
    corrector = FactCorrector(store=store, embedder=HashingEmbedder())
    for text in texts:
        await corrector.add_manual(
            YUKI,
            text=text,
            category=LIKES,
            confidence=0.9,
            salience=0.6,
            at=AT,
            slot=slot_of(text),
            terms=(text.partition(" ")[2],),
        )


@pytest.mark.anyio
async def test_a_fact_found_only_by_words_is_still_decided_against(
    store: SqliteMemoryStore,
) -> None:
    keeper = keeper_for(store)
    await add_known(store, "likes cats", "likes piano", "likes ramen")
    episode = await stored_episode(store, "I hate ramen")
    away_from_ramen = -np.asarray(await embed("likes ramen"))  # last of three by meaning

    changes = await keeper.learn_from(
        episode,
        user_name=None,
        episode_vector=away_from_ramen,
        extractor=RuleFactExtractor(),
        foreseen=(candidate("dislikes ramen"),),
    )

    assert [(change.action, change.text) for change in changes] == [("update", "dislikes ramen")]
    current = await store.list_facts(YUKI, where=FactFilter())
    assert sorted(fact.text for fact in current) == ["dislikes ramen", "likes cats", "likes piano"]


@pytest.mark.anyio
async def test_a_fact_written_earlier_in_the_turn_is_a_duplicate_to_merge(
    store: SqliteMemoryStore,
) -> None:
    keeper = keeper_for(store)
    episode = await stored_episode(store, "I like ramen, I like ramen")
    said_twice = (candidate("likes ramen"), candidate("likes ramen"))

    changes = await keeper.learn_from(
        episode,
        user_name=None,
        episode_vector=await embed(episode.searchable_text),
        extractor=RuleFactExtractor(),
        foreseen=said_twice,
    )

    assert [change.action for change in changes] == ["add", "confirm"]
    [fact] = await store.list_facts(YUKI, where=FactFilter())
    assert (fact.text, fact.confirmation_count) == ("likes ramen", 2)


@pytest.mark.anyio
async def test_a_near_duplicate_of_a_known_fact_is_merged_when_all_facts_are_known(
    store: SqliteMemoryStore,
) -> None:
    near = float(np.dot(await embed("likes ramen"), await embed("likes ramen noodles")))
    assert 0.0 < near < 0.99  # a different object to the rules, close by meaning
    keeper = keeper_for(store, duplicate_threshold=near - 1e-6)
    await add_known(store, "likes ramen")
    episode = await stored_episode(store, "I like ramen noodles")

    changes = await keeper.learn_from(
        episode,
        user_name=None,
        episode_vector=await embed(episode.searchable_text),
        extractor=RuleFactExtractor(),
        foreseen=(candidate("likes ramen noodles"),),
    )

    assert [(change.action, change.text) for change in changes] == [("confirm", "likes ramen")]
    assert len(await store.list_facts(YUKI, where=FactFilter())) == 1

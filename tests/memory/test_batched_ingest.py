"""Batched ingest: the same facts as turn by turn, in a bounded number of embedder calls."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Fact, Matrix, Scope, TurnInput, Vector
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import BackendUnavailable, InvalidInput
from omoide.memory.facts.vectors import (
    DEFAULT_TEXTS_PER_CALL,
    FactTextPipeline,
    FactVectorCache,
    plan_calls,
)
from omoide.memory.turns import StoredTurn
from omoide.store.base import EpisodeFilter
from omoide.wiring import Omoide, build

START = datetime(2025, 3, 1, 19, tzinfo=UTC)
MINJUN, YUKI, EMMA = Scope("haru", "minjun"), Scope("haru", "yuki"), Scope("haru", "emma")

# Per viewer: a new fact, the same fact again (confirm), the preference reversed (update),
# a single-valued fact and its new value (update), and an unrelated exchange.
CONVERSATION: tuple[tuple[Scope, str], ...] = (
    (MINJUN, "나 롤 게임 좋아해"),
    (YUKI, "私はラーメンが好きです"),
    (EMMA, "I love League of Legends"),
    (MINJUN, "저는 서울에 살아요"),
    (YUKI, "東京に住んでいます"),
    (EMMA, "I live in Seoul"),
    (MINJUN, "나 롤 게임 엄청 좋아해요!"),
    (YUKI, "ラーメンが大好き！"),
    (EMMA, "I really love League of Legends"),
    (MINJUN, "오늘 날씨 진짜 좋다 그치"),
    (YUKI, "大阪に住んでいます"),
    (EMMA, "I hate League of Legends"),
    (MINJUN, "롤 게임 싫어해요"),
    (YUKI, "ラーメンが嫌いです"),
    (EMMA, "My name is Emma and I play the piano every day"),
    (MINJUN, "저는 부산에 살아요"),
    (YUKI, "猫を飼っています"),
    (EMMA, "I live in Busan"),
)


class CountingEmbedder:
    """The hashing embedder, counting document calls and texts; ``failing`` texts raise."""

    def __init__(self, failing: str | None = None) -> None:
        self._inner = HashingEmbedder(128)
        self._failing = failing
        self.calls: list[tuple[str, ...]] = []

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        self.calls.append(tuple(texts))
        if self._failing is not None and self._failing in texts:
            raise BackendUnavailable("embedding server is down")
        return await self._inner.embed_documents(texts)

    async def aclose(self) -> None:
        """Nothing to release."""

    async def embed_query(self, text: str) -> Vector:
        return await self._inner.embed_query(text)


def turns_of(conversation: Sequence[tuple[Scope, str]]) -> list[TurnInput]:
    return [
        TurnInput(
            scope,
            message,
            "",
            timestamp=START + timedelta(minutes=index),
            turn_id=f"turn-{index}",
            force_store=True,
        )
        for index, (scope, message) in enumerate(conversation)
    ]


async def open_app(directory: Path, embedder: CountingEmbedder) -> Omoide:
    settings = Settings(data_dir=directory, embedder="hashing")
    # the clock reads the conversation's last minute: turns dated after it are refused
    return await build(settings, clock=FixedClock(START + timedelta(hours=1)), embedder=embedder)


def outcome(stored: StoredTurn) -> tuple[object, ...]:
    """What a turn's result says, without the (random) ids of new facts."""
    return (
        stored.episode_id,
        stored.stored,
        stored.extraction_failed,
        tuple((change.action, change.text) for change in stored.fact_changes),
    )


def fact_summary(facts: Sequence[Fact]) -> list[tuple[object, ...]]:
    """Every fact version with what it replaced by text, its trust, counts and sources."""
    text_of = {fact.id: fact.text for fact in facts}
    return sorted(
        (
            fact.text,
            fact.category.value,
            round(fact.confidence, 9),
            fact.trust.value,
            fact.confirmation_count,
            fact.source_episode_ids,
            fact.valid_to,
            fact.superseded_at,
            text_of.get(fact.supersedes or ""),
        )
        for fact in facts
    )


async def ingest(
    app: Omoide, turns: Sequence[TurnInput], batch_size: int, *, pipelined: bool = False
) -> list[StoredTurn]:
    results: list[StoredTurn] = []
    if pipelined:
        groups = [turns[start : start + batch_size] for start in range(0, len(turns), batch_size)]
        batches = await app.memory.store_interaction_batches("haru", groups)
        return [stored for batch in batches for stored in batch]
    for start in range(0, len(turns), batch_size):
        group = turns[start : start + batch_size]
        if batch_size == 1:
            turn = group[0]
            results.append(
                await app.memory.store_interaction(
                    turn.scope,
                    turn.user_message,
                    turn.bot_message,
                    timestamp=turn.timestamp,
                    force_store=True,
                )
            )
        else:
            results.extend(await app.memory.store_interactions("haru", group))
    return results


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("batch_size", "pipelined"), [(len(CONVERSATION), False), (5, False), (5, True), (1, True)]
)
async def test_a_batch_keeps_the_same_facts_as_turn_by_turn(
    tmp_path: Path, batch_size: int, pipelined: bool
) -> None:
    turns = turns_of(CONVERSATION)
    one_by_one = await open_app(tmp_path / "single", CountingEmbedder())
    batched = await open_app(tmp_path / "batched", CountingEmbedder())
    try:
        # store_interaction mints episode ids; give the batched turns the same ones.
        expected = await ingest(one_by_one, turns, 1)
        named = [
            TurnInput(
                turn.scope,
                turn.user_message,
                "",
                timestamp=turn.timestamp,
                turn_id=single.episode_id,
                force_store=True,
            )
            for turn, single in zip(turns, expected, strict=True)
        ]
        got = await ingest(batched, named, batch_size, pipelined=pipelined)
        assert [outcome(turn) for turn in got] == [outcome(turn) for turn in expected]
        for scope in (MINJUN, YUKI, EMMA):
            assert fact_summary(await batched.memory.list_facts(scope, include_inactive=True)) == (
                fact_summary(await one_by_one.memory.list_facts(scope, include_inactive=True))
            )
    finally:
        await one_by_one.aclose()
        await batched.aclose()
    actions = [change.action for turn in expected for change in turn.fact_changes]
    assert {"add", "confirm", "update"} <= set(actions)
    assert actions.count("update") >= 5  # reversed likes and new homes, in ko, ja and en


@pytest.mark.anyio
async def test_a_later_turn_in_a_batch_sees_the_facts_of_an_earlier_one(tmp_path: Path) -> None:
    app = await open_app(tmp_path, CountingEmbedder())
    try:
        first, again, reversed_ = await app.memory.store_interactions(
            "haru",
            [
                TurnInput(MINJUN, "나 롤 게임 좋아해", timestamp=START),
                TurnInput(MINJUN, "나 롤 게임 엄청 좋아해요!", timestamp=START),
                TurnInput(MINJUN, "롤 게임 싫어해요", timestamp=START),
            ],
        )
        assert [c.action for c in first.fact_changes] == ["add"]
        assert [c.action for c in again.fact_changes] == ["confirm"]
        assert [c.action for c in reversed_.fact_changes] == ["update"]
        (current,) = await app.memory.list_facts(MINJUN)
        assert current.text == "롤 게임 싫어해요"
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_pipelined_batches_stop_at_the_first_bad_batch_like_a_loop(tmp_path: Path) -> None:
    app = await open_app(tmp_path, CountingEmbedder())
    good = [TurnInput(MINJUN, "나 롤 게임 좋아해", force_store=True)]
    bad = [TurnInput(Scope("ash", "someone"), "I love tea", force_store=True)]
    never = [TurnInput(YUKI, "私はラーメンが好きです", force_store=True)]
    try:
        with pytest.raises(InvalidInput, match="character"):
            await app.memory.store_interaction_batches("haru", [good, bad, never])
        assert await app.store.count_episodes(MINJUN, where=EpisodeFilter()) == 1
        assert [fact.text for fact in await app.memory.list_facts(MINJUN)] == ["나 롤 게임 좋아해"]
        assert await app.store.count_episodes(YUKI, where=EpisodeFilter()) == 0
        assert await app.memory.store_interaction_batches("haru", []) == []
    finally:
        await app.aclose()


@pytest.mark.anyio
@pytest.mark.parametrize("bad_at", [0, 1, 2, 3])
async def test_a_bad_batch_anywhere_stops_there_with_the_earlier_ones_stored(
    tmp_path: Path, bad_at: int
) -> None:
    """Batches are scored one ahead of the one being embedded: an error still surfaces
    only once every batch before it is stored, and nothing after it is written."""
    app = await open_app(tmp_path, CountingEmbedder())
    viewers = [Scope("haru", f"viewer-{index}") for index in range(5)]
    batches = [[TurnInput(viewer, "I love tea", force_store=True)] for viewer in viewers]
    batches[bad_at] = [TurnInput(Scope("ash", "someone"), "I love tea", force_store=True)]
    try:
        with pytest.raises(InvalidInput, match="character"):
            await app.memory.store_interaction_batches("haru", batches)
        counts = [
            await app.store.count_episodes(viewer, where=EpisodeFilter()) for viewer in viewers
        ]
        assert counts == [1] * bad_at + [0] * (len(viewers) - bad_at)
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_a_batch_makes_a_bounded_number_of_embedder_calls(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    app = await open_app(tmp_path, embedder)
    foods = [f"food number {index}" for index in range(40)]
    turns = [
        TurnInput(Scope("haru", f"viewer-{index % 7}"), f"I love {food}", "nice", force_store=True)
        for index, food in enumerate(foods)
    ]
    try:
        embedder.calls.clear()
        stored = await app.memory.store_interactions("haru", turns)
        assert sum(len(turn.fact_changes) for turn in stored) == len(foods)
        fact_calls = math.ceil(len(foods) / DEFAULT_TEXTS_PER_CALL)
        assert len(embedder.calls) == 1 + fact_calls  # one per fact would be 40 more
        embedded = [text for call in embedder.calls for text in call]
        assert len(embedded) == len(set(embedded)) == 2 * len(foods)

        embedder.calls.clear()
        again = [TurnInput(turn.scope, turn.user_message, "ok", force_store=True) for turn in turns]
        await app.memory.store_interactions("haru", again)
        assert len(embedder.calls) == 1  # fact texts seen before are not embedded again
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_a_failed_fact_embedding_fails_fact_keeping_not_the_stored_turns(
    tmp_path: Path,
) -> None:
    embedder = CountingEmbedder(failing="나 딸기 좋아해")
    app = await open_app(tmp_path, embedder)
    try:
        stored = await app.memory.store_interactions(
            "haru",
            [
                TurnInput(MINJUN, "저는 서울에 살아요", "좋네요", force_store=True),
                TurnInput(YUKI, "나 딸기 좋아해", "좋네요", force_store=True),
            ],
        )
        # Both fact texts were in the failed call; the episodes are stored all the same.
        assert [(turn.stored, turn.extraction_failed) for turn in stored] == [(True, True)] * 2
        for scope in (MINJUN, YUKI):
            assert await app.store.count_episodes(scope, where=EpisodeFilter()) == 1
            assert await app.memory.list_facts(scope) == []
        assert app.metrics.get("extraction.failed_turns") == 2
    finally:
        await app.aclose()


def test_calls_hold_each_text_once_and_each_turn_waits_for_its_last_call() -> None:
    calls, last_call = plan_calls([["a", "b"], [], ["b", "c", "d"], ["a"]], 2)
    assert calls == [["a", "b"], ["c", "d"]]
    assert last_call == [0, None, 1, 0]
    with pytest.raises(InvalidInput):
        plan_calls([["a"]], 0)


def test_the_cache_forgets_the_least_recently_used_text() -> None:
    cache = FactVectorCache(max_entries=2)
    one, two, three = (np.full(2, value, dtype=np.float32) for value in (1.0, 2.0, 3.0))
    cache.keep({"one": one, "two": two})
    assert set(cache.found(["one"])) == {"one"}  # "two" is now the least recent
    cache.keep({"three": three})
    assert set(cache.found(["one", "two", "three"])) == {"one", "three"}
    assert len(cache) == 2


@pytest.mark.anyio
async def test_the_pipeline_gives_a_turn_its_vectors_or_the_failure_of_its_call() -> None:
    embedder = CountingEmbedder(failing="later")
    pipeline = FactTextPipeline(
        embedder,
        [["early one"], ["early two"], ["later"]],
        cache=FactVectorCache(),
        texts_per_call=2,
    )
    await pipeline.run()
    vectors = await pipeline.vectors_for(0)
    assert set(vectors) == {"early one", "early two"}
    with pytest.raises(BackendUnavailable):
        await pipeline.vectors_for(2)
    assert embedder.calls == [("early one", "early two"), ("later",)]

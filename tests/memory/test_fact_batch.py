"""Batched fact keeping: one read and one write per batch, the per-turn path's decisions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Fact, Scope, TrustState
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import InvalidInput
from omoide.memory.extraction.rules import find_facts
from omoide.memory.facts.batch import BatchTurn, decide_batch, keep_batch
from omoide.memory.facts.keeper import FactKeeper
from omoide.metrics import Metrics
from omoide.store.base import (
    CurrentFacts,
    FactChangeWrite,
    FactFilter,
    FactSupersession,
    FactWrite,
    TurnWrite,
)
from omoide.wiring import Omoide, build
from omoide.wiring.storage import MemoryBackend
from tests.memory.test_batched_ingest import (
    CONVERSATION,
    EMMA,
    MINJUN,
    START,
    YUKI,
    CountingEmbedder,
    fact_summary,
    ingest,
    outcome,
    turns_of,
)

VIEWERS = [Scope("haru", f"viewer-{index}") for index in range(12)]
STATEMENTS = (
    "I love {0}",
    "I really love {0}",
    "I hate {0}",
    "I live in {1}",
    "I moved to {2}",
    "My name is {3}",
    "I love {0} so much",
    "나 {4} 좋아해",
    "{4} 싫어해요",
    "私は{5}が好きです",
    "{5}が嫌いです",
    "I have a cat",
    "I work as a nurse",
    "I work as a teacher",
)
THINGS = ("tea", "piano", "chess", "ramen")
PLACES = ("Seoul", "Osaka", "Busan", "Lyon")
NAMES = ("Emma", "Mina", "Jun", "Sora")
KOREAN = ("롤 게임", "발로란트", "떡볶이", "고양이")
JAPANESE = ("ラーメン", "寿司", "猫", "ピアノ")


# Different objects to the rules, near-duplicates by meaning: confirmed by the vector check.
NEAR_DUPLICATES = (
    (VIEWERS[0], "I love playing League of Legends"),
    (VIEWERS[1], "I love playing League of Legends"),
    (VIEWERS[0], "I love playing League of Legends games"),
    (VIEWERS[1], "I love playing League of Legends games"),
)


def mixed_conversation() -> list[tuple[Scope, str]]:
    """Twelve viewers saying things that add, confirm, reverse and replace facts, in turns
    that interleave viewers (fewer than ten current facts each)."""
    conversation = []
    for step in range(9):
        for number, viewer in enumerate(VIEWERS):
            pick = (number * 7 + step * 5) % len(STATEMENTS)
            words = [
                group[(number + step) % len(group)]
                for group in (THINGS, PLACES, PLACES[::-1], NAMES, KOREAN, JAPANESE)
            ]
            conversation.append((viewer, STATEMENTS[pick].format(*words)))
    return conversation


async def open_app(directory: Path, *, batch_limit: int) -> Omoide:
    settings = Settings(data_dir=directory, embedder="hashing", fact_batch_limit=batch_limit)
    return await build(
        settings, clock=FixedClock(START + timedelta(days=7)), embedder=CountingEmbedder()
    )


async def summaries(app: Omoide, scopes: Sequence[Scope]) -> list[object]:
    return [
        fact_summary(await app.memory.list_facts(scope, include_inactive=True)) for scope in scopes
    ]


@pytest.mark.anyio
@pytest.mark.parametrize(("batch_size", "pipelined"), [(6, False), (16, True), (200, False)])
async def test_batched_fact_keeping_decides_as_the_per_turn_path(
    tmp_path: Path, batch_size: int, pipelined: bool
) -> None:
    conversation = [*CONVERSATION, *NEAR_DUPLICATES, *mixed_conversation()]
    turns = turns_of(conversation)
    per_turn = await open_app(tmp_path / "per-turn", batch_limit=0)
    batched = await open_app(tmp_path / "batched", batch_limit=256)
    scopes = [MINJUN, YUKI, EMMA, *VIEWERS]
    try:
        expected = await ingest(per_turn, turns, batch_size, pipelined=pipelined)
        got = await ingest(batched, turns, batch_size, pipelined=pipelined)
        assert [outcome(turn) for turn in got] == [outcome(turn) for turn in expected]
        assert await summaries(batched, scopes) == await summaries(per_turn, scopes)
        assert batched.metrics.snapshot() == per_turn.metrics.snapshot()
    finally:
        await per_turn.aclose()
        await batched.aclose()
    actions = {change.action for turn in expected for change in turn.fact_changes}
    assert actions == {"add", "confirm", "update"}


class CountingStore:
    """The real store, counting the calls fact keeping makes and able to change a fact
    between the batch's read and its write (as a person correcting it would)."""

    def __init__(self, inner: MemoryBackend) -> None:
        self.inner = inner
        self.calls: list[str] = []
        self.between: list[Scope] = []

    async def current_facts(
        self, scopes: Sequence[Scope], *, limit: int
    ) -> dict[Scope, CurrentFacts | None]:
        self.calls.append("current_facts")
        current = await self.inner.current_facts(scopes, limit=limit)
        for scope in self.between:  # a person corrects each fact's text
            for fact in await self.inner.list_facts(scope, where=FactFilter()):
                text = f"{fact.text} (corrected)"
                corrected = replace(fact, id=f"{fact.id}-corrected", text=text)
                vector = (await HashingEmbedder(128).embed_documents([text]))[0]
                change = FactSupersession(fact.id, FactWrite(corrected, vector), START)
                await self.inner.write_fact_changes(scope.character_id, [change])
        return current

    async def write_fact_changes(
        self, character_id: str, changes: Sequence[FactChangeWrite]
    ) -> None:
        self.calls.append("write_fact_changes")
        await self.inner.write_fact_changes(character_id, changes)

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]:
        self.calls.append("list_facts")
        return await self.inner.list_facts(scope, where=where)

    async def deleted_fact_digests(self, scope: Scope, digests: Sequence[str]) -> set[str]:
        self.calls.append("deleted_fact_digests")
        return await self.inner.deleted_fact_digests(scope, digests)


async def batch_turns(app: Omoide, conversation: Sequence[tuple[Scope, str]]) -> list[BatchTurn]:
    """``conversation`` stored as episodes (no fact kept yet), with rule candidates and vectors."""
    embedder = HashingEmbedder(128)
    result = []
    for number, (scope, message) in enumerate(conversation):
        episode = Episode(f"later-{number}", scope, message, "", START, importance=0.8)
        vector = (await embedder.embed_documents([message]))[0]
        await app.store.write_turns("haru", [TurnWrite(scope, episode, vector, None)])
        candidates = tuple(find_facts(message))
        texts = [candidate.text for candidate in candidates]
        matrix = await embedder.embed_documents(texts)
        vectors = {text: matrix[row] for row, text in enumerate(texts)}
        result.append(BatchTurn(episode, candidates, vectors))
    return result


@pytest.mark.anyio
async def test_a_viewer_past_the_limit_is_left_to_the_per_turn_path(tmp_path: Path) -> None:
    app = await open_app(tmp_path, batch_limit=256)
    try:
        await app.memory.store_interactions(
            "haru",
            turns_of([(MINJUN, "I love tea"), (MINJUN, "I live in Seoul"), (YUKI, "I love chess")]),
        )
        turns = await batch_turns(app, [(MINJUN, "I love piano"), (YUKI, "I hate chess")])
        store = CountingStore(app.store)
        kept = await keep_batch(
            store,
            "haru",
            turns,
            limit=1,  # MINJUN has two current facts, YUKI one
            duplicate_threshold=0.99,
            metrics=Metrics(),
        )
        assert kept[0] is None
        assert kept[1] is not None
        assert [change.action for change in kept[1]] == ["update"]
        # one read of current facts; per viewer kept, one of its facts found no longer
        # true and one of deleted facts' digests; one write
        assert store.calls == [
            "current_facts",
            "list_facts",
            "deleted_fact_digests",
            "write_fact_changes",
        ]
        assert [fact.text for fact in await app.memory.list_facts(YUKI)] == ["I hate chess"]
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_a_fact_changed_between_read_and_write_leaves_the_batch_unwritten(
    tmp_path: Path,
) -> None:
    app = await open_app(tmp_path, batch_limit=256)
    try:
        await app.memory.store_interactions("haru", turns_of([(MINJUN, "I love tea")]))
        turns = await batch_turns(app, [(YUKI, "I love chess"), (MINJUN, "I hate tea")])
        store = CountingStore(app.store)
        store.between = [MINJUN]  # "likes tea" is corrected before the batch writes
        kept = await keep_batch(
            store,
            "haru",
            turns,
            limit=256,
            duplicate_threshold=0.99,
            metrics=Metrics(),
        )
        assert kept == [None, None]  # the per-turn path decides again from the store
        assert await app.memory.list_facts(YUKI) == []  # nothing of the batch was written
        assert [fact.text for fact in await app.memory.list_facts(MINJUN)] == [
            "I love tea (corrected)"
        ]
    finally:
        await app.aclose()


def test_later_turns_see_earlier_changes_and_near_duplicates_confirm() -> None:
    import numpy as np

    from omoide.domain import Episode, FactCategory
    from omoide.memory.extraction.values import FactCandidate

    def episode(number: int) -> Episode:
        return Episode(f"e{number}", MINJUN, "...", "", START + timedelta(minutes=number), 0.8)

    def candidate(text: str) -> FactCandidate:
        slot = text.replace("dislikes ", "dislike:").replace("likes ", "like:").replace(" ", "")
        return FactCandidate(
            text, FactCategory.PREFERENCE, 0.75, 0.6, TrustState.STATED, slot, (text,)
        )

    tea = np.zeros(4, dtype=np.float32)
    tea[0] = 1.0
    near_tea = np.asarray([0.999, 0.0447, 0.0, 0.0], dtype=np.float32)
    turns = [
        BatchTurn(episode(1), (candidate("likes tea"),), {"likes tea": tea}),
        BatchTurn(episode(2), (candidate("likes green tea"),), {"likes green tea": near_tea}),
        BatchTurn(episode(3), (candidate("dislikes tea"),), {"dislikes tea": -tea}),
    ]
    empty = CurrentFacts((), np.zeros((0, 4), dtype=np.float32))
    decided = decide_batch(turns, {MINJUN: empty}, duplicate_threshold=0.99)
    assert [[c.action for c in changes] for changes in decided.changes] == [
        ["add"],
        ["confirm"],  # a near-duplicate of the fact added one turn earlier
        ["update"],  # the opposite of it: superseded
    ]
    assert [type(write).__name__ for write in decided.writes] == [
        "FactWrite",
        "FactUpdate",
        "FactSupersession",
    ]


def test_a_negative_batch_limit_is_refused() -> None:
    with pytest.raises(InvalidInput, match="batch_limit"):
        FactKeeper(
            store=None,  # type: ignore[arg-type]
            embedder=HashingEmbedder(),
            duplicate_threshold=0.9,
            metrics=Metrics(),
            batch_limit=-1,
        )

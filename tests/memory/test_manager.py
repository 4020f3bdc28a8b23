"""The memory pipeline end to end on a real SQLite file, with the hashing embedder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import (
    FactCategory,
    Scope,
    ScoringMethod,
    TrustState,
    TurnInput,
    TurnState,
)
from omoide.embed.failing import FailingEmbedder
from omoide.llm.scripted import ScriptedChatModel
from omoide.store.base import EpisodeFilter
from omoide.store.keywords import cached_word_count
from omoide.store.sqlite.connection import open_connection
from omoide.text_caches import cached_text_count
from omoide.wiring import Omoide, build

START = datetime(2025, 1, 10, 20, tzinfo=UTC)
MINJUN = Scope("haru", "minjun")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    built = await build(Settings(data_dir=tmp_path, embedder="hashing"), clock=FixedClock(START))
    try:
        yield built
    finally:
        await built.aclose()


@pytest.mark.anyio
async def test_a_turn_is_stored_with_its_emotion_topics_and_metadata(app: Omoide) -> None:
    stored = await app.memory.store_interaction(
        MINJUN,
        "나 롤 게임 엄청 좋아해요!",
        "롤 재밌죠!",
        TurnState("excited", 0.8, ("game",)),
        timestamp=START,
        metadata={"dia_id": "D1:1", "n": 3, "ok": True},
    )
    assert stored.stored and stored.episode_id is not None
    assert 0.0 <= stored.importance <= 1.0
    episode = await app.store.get_episode(MINJUN, stored.episode_id)
    assert (episode.emotion, episode.emotion_intensity, episode.topics) == (
        "excited",
        0.8,
        ("game",),
    )
    assert dict(episode.metadata) == {"dia_id": "D1:1", "n": 3, "ok": True}
    assert episode.recorded_at == START
    assert [change.action for change in stored.fact_changes] == ["add"]


@pytest.mark.anyio
async def test_low_signal_turns_are_not_stored_but_their_emotion_is(app: Omoide) -> None:
    stored = await app.memory.store_interaction(
        MINJUN, "ㅋㅋ", "ㅎㅎ", TurnState("happy", 0.6), timestamp=START
    )
    assert not stored.stored and stored.episode_id is None
    assert await app.store.count_episodes(MINJUN, where=EpisodeFilter()) == 0
    emotions = await app.store.list_emotions(
        MINJUN, since=START - timedelta(days=1), until=START + timedelta(days=1)
    )
    assert [record.emotion for record in emotions] == ["happy"]
    forced = await app.memory.store_interaction(MINJUN, "ㅋㅋ", "", force_store=True)
    assert forced.stored


@pytest.mark.anyio
async def test_recall_reinforces_exactly_what_reached_the_prompt(app: Omoide) -> None:
    messages = [
        "I really love League of Legends",
        "My grandmother bakes bread on Sundays",
        "Yesterday the printer at the office broke",
    ]
    for day, message in enumerate(messages):  # three conversations: no timeline neighbours
        moment = START - timedelta(days=day)
        await app.memory.store_interaction(MINJUN, message, "", timestamp=moment)
    later = START + timedelta(days=2)
    # the printer is no fact about the viewer (a fact would show in the profile instead)
    recollection = await app.memory.retrieve_context(MINJUN, "the office printer broke", now=later)
    used = set(recollection.rendered.episode_ids)
    assert used, "the matching episode must reach the prompt"
    unwritten = await app.store.list_episodes(MINJUN, where=EpisodeFilter(), limit=10)
    assert all(episode.recall_count == 0 for episode in unwritten), "noted, not yet written"

    assert await app.memory.flush_reinforcements() == 1
    episodes = await app.store.list_episodes(MINJUN, where=EpisodeFilter(), limit=10)
    assert len(used) < len(episodes), "the query must not match everything"
    for episode in episodes:
        expected = (1, later) if episode.id in used else (0, None)
        assert (episode.recall_count, episode.last_recalled_at) == expected
    assert any("printer" in e.user_message for e in episodes if e.id in used)


def advance(app: Omoide, moment: datetime) -> None:
    """Move the fixed clock on: a turn dated after the clock's now is refused."""
    clock = app.memory.clock
    assert isinstance(clock, FixedClock)
    clock.set(moment)


@pytest.mark.anyio
async def test_a_repeated_fact_is_confirmed_not_duplicated(app: Omoide) -> None:
    await app.memory.store_interaction(MINJUN, "나 롤 게임 엄청 좋아해요!", "", timestamp=START)
    advance(app, START + timedelta(days=1))
    again = await app.memory.store_interaction(
        MINJUN, "나 롤 게임 엄청 좋아해요!", "", timestamp=START + timedelta(days=1)
    )
    facts = await app.memory.list_facts(MINJUN)
    assert len(facts) == 1
    (fact,) = facts
    assert fact.confirmation_count == 2
    assert fact.trust is TrustState.CONFIRMED
    assert again.episode_id in fact.source_episode_ids
    assert len(fact.source_episode_ids) == 2


@pytest.mark.anyio
async def test_a_reversed_preference_supersedes_the_old_fact(app: Omoide) -> None:
    await app.memory.store_interaction(MINJUN, "I love cucumbers", "", timestamp=START)
    changed_at = START + timedelta(days=3)
    advance(app, changed_at)
    await app.memory.store_interaction(MINJUN, "I hate cucumbers now", "", timestamp=changed_at)
    current = await app.memory.list_facts(MINJUN)
    history = await app.memory.list_facts(MINJUN, include_inactive=True)
    assert len(current) == 1 and "cucumber" in current[0].text
    old = next(fact for fact in history if fact.id != current[0].id)
    assert old.superseded_at == changed_at and old.valid_to == changed_at
    assert current[0].supersedes == old.id


@pytest.mark.anyio
async def test_a_person_corrects_a_fact_and_the_old_version_is_kept(app: Omoide) -> None:
    fact = await app.memory.add_fact(MINJUN, "lives in Busan", FactCategory.PERSONAL, at=START)
    corrected = await app.memory.correct_fact(
        MINJUN, fact.id, text="lives in Seoul", at=START + timedelta(hours=1)
    )
    assert corrected.supersedes == fact.id and corrected.text == "lives in Seoul"
    assert [f.text for f in await app.memory.list_facts(MINJUN)] == ["lives in Seoul"]
    assert len(await app.memory.list_facts(MINJUN, include_inactive=True)) == 2


@pytest.mark.anyio
async def test_reading_as_of_a_past_moment_ignores_later_memories(app: Omoide) -> None:
    advance(app, START + timedelta(days=30))
    await app.memory.store_interaction(
        MINJUN, "I adopted a cat named Mochi", "", timestamp=START + timedelta(days=30)
    )
    before = await app.memory.retrieve_context(MINJUN, "cat Mochi", now=START)
    after = await app.memory.retrieve_context(MINJUN, "cat Mochi", now=START + timedelta(days=31))
    assert "Mochi" not in before.rendered.text
    assert "Mochi" in after.rendered.text


@pytest.mark.anyio
async def test_decay_archives_faded_memories_and_purge_leaves_tombstones(app: Omoide) -> None:
    faded = await app.memory.store_interaction(
        MINJUN, "the bus was late today", "", importance=0.3, timestamp=START
    )
    kept = await app.memory.store_interaction(
        MINJUN, "my birthday is March 3rd", "", importance=1.0, timestamp=START
    )
    report = await app.memory.run_decay("haru", now=START + timedelta(days=20))
    assert report.archived == 1
    remaining = await app.store.list_episodes(MINJUN, where=EpisodeFilter(), limit=10)
    assert [episode.id for episode in remaining] == [kept.episode_id]
    purged = await app.memory.run_decay(
        "haru", now=START + timedelta(days=21), purge_archived_before=START + timedelta(days=21)
    )
    assert purged.purged == 1
    tombstones = (await app.store.export_scope(MINJUN)).tombstones
    assert [tombstone.memory_id for tombstone in tombstones] == [faded.episode_id]


@pytest.mark.anyio
async def test_an_unparseable_extraction_is_reported_and_the_turn_kept(tmp_path: Path) -> None:
    model = ScriptedChatModel(["not json", "still not json"])
    settings = Settings(
        data_dir=tmp_path, embedder="hashing", llm="openai", llm_model="x", llm_importance=False
    )
    built = await build(settings, clock=FixedClock(START), chat_model=model)
    try:
        stored = await built.memory.store_interaction(MINJUN, "I love pizza", "", timestamp=START)
        assert stored.stored and stored.extraction_failed
        assert stored.fact_changes == ()
        assert built.metrics.get("extraction.failed_turns") == 1
        assert model.call_count == 2
    finally:
        await built.aclose()


@pytest.mark.anyio
async def test_an_unparseable_importance_reply_marks_the_turn_unscored(tmp_path: Path) -> None:
    model = ScriptedChatModel(["eight", "8/10 I think"], default_reply='{"facts": []}')
    settings = Settings(data_dir=tmp_path, embedder="hashing", llm="openai", llm_model="x")
    built = await build(settings, clock=FixedClock(START), chat_model=model)
    try:
        stored = await built.memory.store_interaction(
            MINJUN,
            "today I went to the market and bought apples",
            "",
            TurnState("calm", 0.5),  # rules: 0.42, inside the band the model is asked about
            timestamp=START,
        )
        assert stored.scoring is ScoringMethod.UNSCORED
        assert built.metrics.get("importance.unscored") == 1
    finally:
        await built.aclose()


@pytest.mark.anyio
async def test_a_batch_is_one_transaction(app: Omoide) -> None:
    turns = [
        TurnInput(Scope("haru", f"viewer-{index}"), f"I love game number {index}")
        for index in range(3)
    ]
    stored = await app.memory.store_interactions("haru", turns)
    assert all(turn.stored for turn in stored)
    with pytest.raises(Exception, match="character"):
        await app.memory.store_interactions(
            "haru",
            [TurnInput(Scope("haru", "a"), "I love tea"), TurnInput(Scope("ash", "a"), "hi")],
        )
    assert await app.store.count_episodes(Scope("haru", "a"), where=EpisodeFilter()) == 0


@pytest.mark.anyio
async def test_the_queue_drainer_does_not_store_a_replayed_turn_twice(app: Omoide) -> None:
    (accepted,) = await app.queue.put([TurnInput(MINJUN, "I love strawberries", "yum")])
    assert accepted.turn_id is not None
    await app.memory.store_interactions("haru", [accepted])  # written, then "crashed"
    assert await app.drainer.drain_all() == 1
    assert await app.store.count_episodes(MINJUN, where=EpisodeFilter()) == 1
    assert app.metrics.get("queue.replays_skipped") == 1
    assert await app.queue.counts() == {"pending": 0, "failed": 0}


@pytest.mark.anyio
async def test_queued_turns_wait_out_a_backend_outage(tmp_path: Path) -> None:
    embedder = FailingEmbedder(64)
    built = await build(
        Settings(data_dir=tmp_path, embedder="hashing"), clock=FixedClock(START), embedder=embedder
    )
    try:
        embedder.documents_down = True
        await built.queue.put([TurnInput(MINJUN, "I love strawberries", "yum")])
        for _ in range(10):
            assert await built.drainer.drain_all() == 1
        assert await built.queue.counts() == {"pending": 1, "failed": 0}
        embedder.documents_down = False
        assert await built.drainer.drain_all() == 1
        assert await built.queue.counts() == {"pending": 0, "failed": 0}
        assert await built.store.count_episodes(MINJUN, where=EpisodeFilter()) == 1
    finally:
        await built.aclose()


@pytest.mark.anyio
async def test_a_reply_does_not_wait_for_the_stores_writer(app: Omoide) -> None:
    """In a stream the writer is busy with batches of chat; a reply only reads, and the
    reinforcement it noted is written by the next write (here, the next stored turn)."""
    await app.memory.store_interaction(MINJUN, "The printer at the office broke again", "")
    writer = open_connection(app.settings.database_path)
    writer.execute("BEGIN IMMEDIATE")  # holds the write lock, as a long batch would
    try:
        with anyio.fail_after(2):  # the store's busy timeout is 10 s
            recollection = await app.memory.retrieve_context(MINJUN, "the office printer broke")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    (recalled,) = recollection.rendered.episode_ids

    await app.memory.store_interaction(MINJUN, "ranked tonight", "", timestamp=START)

    episode = await app.store.get_episode(MINJUN, recalled)
    assert (episode.recall_count, episode.last_recalled_at) == (1, START)


@pytest.mark.anyio
async def test_forgetting_empties_every_cache_of_remembered_text(app: Omoide) -> None:
    """A forgotten viewer's words do not wait in a cache until they would be evicted:
    the stemmer's words, quoted lines, decoded facts, token counts, fact vectors."""
    scope = Scope("haru", "forgettable")
    await app.memory.store_interaction(
        scope, "I adore skateboarding with my brother Maximilian", "wow"
    )
    await app.memory.retrieve_context(scope, "skateboarding adventures")
    assert cached_word_count() > 0 and cached_text_count() > 0
    await app.memory.forget_viewer(scope)
    assert cached_word_count() == 0 and cached_text_count() == 0

    again = await app.memory.store_interaction(scope, "my brother Maximilian skates", "cool")
    await app.memory.retrieve_context(scope, "skateboarding adventures")
    assert cached_text_count() > 0
    assert again.episode_id is not None
    await app.memory.delete_episode(scope, again.episode_id)
    assert cached_text_count() == 0

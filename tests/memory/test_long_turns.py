"""Long and odd turns through the library on a real SQLite file: 100,000-character pastes,
a turn where only the bot spoke, and turns dated after the clock's now."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import MAX_MESSAGE_CHARS, Scope, TurnInput
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter
from omoide.wiring import Omoide, build
from tests.memory.long_texts import NEEDLE, NEEDLE_WORD, mixed_language_text

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
VIEWER = Scope("haru", "minjun")
WINDOW = 300
"""The hashing embedder reads this many characters, as a real model reads a bounded input."""

pytestmark = pytest.mark.anyio


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    embedder = HashingEmbedder(512, max_input_chars=WINDOW)
    settings = Settings(data_dir=tmp_path, embedder="hashing")
    built = await build(settings, clock=FixedClock(NOW), embedder=embedder)
    try:
        yield built
    finally:
        await built.aclose()


async def test_a_pasted_text_at_the_limit_is_stored_whole_and_found_by_a_word(
    app: Omoide,
) -> None:
    pasted = mixed_language_text(MAX_MESSAGE_CHARS)
    stored = await app.memory.store_interaction(
        VIEWER, pasted, "ok!", force_store=True, timestamp=NOW - timedelta(hours=1)
    )
    assert stored.stored and stored.episode_id is not None
    episode = await app.store.get_episode(VIEWER, stored.episode_id)
    assert episode.user_message == pasted
    hits = await app.store.search_episode_keywords(
        VIEWER, NEEDLE_WORD, where=EpisodeFilter(), limit=5
    )
    assert [hit.item.id for hit in hits] == [stored.episode_id]
    recollection = await app.memory.retrieve_context(VIEWER, NEEDLE_WORD, token_budget=200)
    assert len(recollection.rendered.text) < 2000  # a memory line is cut, never the paste


async def test_a_sentence_in_the_last_quarter_is_found_by_meaning(app: Omoide) -> None:
    """Without chunks the model sees the first 300 characters only: the text and its twin
    without the sentence would get one vector, and the search could not tell them apart."""
    text = mixed_language_text(1500)
    twin = text.replace(NEEDLE, "")
    assert text.index(NEEDLE) > 0.75 * len(text) - len(NEEDLE)
    turns = [
        TurnInput(VIEWER, message, "", timestamp=NOW, force_store=True, turn_id=turn_id)
        for turn_id, message in [
            ("paste", text),
            ("twin", twin),
            ("cat", "うちの猫、ミケって名前なんだ。もう十歳"),
            ("move", "我下周要搬到上海了"),
            ("coffee", "커피는 안 마셔요"),
        ]
    ]
    await app.memory.store_interactions("haru", turns)
    query = await app.embedder.embed_query(NEEDLE)
    hits = await app.store.search_episode_vectors(VIEWER, query, where=EpisodeFilter(), limit=5)
    assert hits[0].item.id == "paste"
    scores = {hit.item.id: hit.score for hit in hits}
    assert scores["paste"] > scores["twin"] + 0.03


async def test_a_turn_where_only_the_bot_spoke_is_remembered(app: Omoide) -> None:
    greeting = "Welcome back! Is your dog Bori feeling better after the vet?"
    stored = await app.memory.store_interaction(VIEWER, "", greeting, force_store=True)
    assert stored.stored and stored.episode_id is not None
    assert stored.fact_changes == ()  # the character's words are never facts about the viewer
    episode = await app.store.get_episode(VIEWER, stored.episode_id)
    assert (episode.user_message, episode.bot_message) == ("", greeting)
    hits = await app.store.search_episode_keywords(VIEWER, "Bori", where=EpisodeFilter(), limit=5)
    assert [hit.item.id for hit in hits] == [stored.episode_id]
    recollection = await app.memory.retrieve_context(VIEWER, "how is Bori?")
    assert "Bori" in recollection.rendered.text
    scored = await app.memory.store_interaction(VIEWER, "", "Good night, see you tomorrow!")
    assert scored.importance >= 0.0


async def test_a_turn_where_nobody_spoke_is_refused(app: Omoide) -> None:
    with pytest.raises(InvalidInput, match="must not both be empty"):
        await app.memory.store_interaction(VIEWER, " ", "")


async def test_a_message_over_the_limit_is_refused_naming_it(app: Omoide) -> None:
    with pytest.raises(InvalidInput, match=r"bot_message .* the limit is 100,000"):
        await app.memory.store_interaction(VIEWER, "hi", "x" * (MAX_MESSAGE_CHARS + 1))


async def test_a_turn_dated_in_the_future_is_refused_naming_the_server_time(
    app: Omoide,
) -> None:
    later = NOW + timedelta(minutes=5, seconds=1)
    with pytest.raises(InvalidInput, match=re.escape(f"server's time is {NOW.isoformat()}")):
        await app.memory.store_interaction(VIEWER, "I love cats", "", timestamp=later)
    assert await app.store.count_episodes(VIEWER, where=EpisodeFilter()) == 0
    edge = await app.memory.store_interaction(
        VIEWER, "I love cats", "", timestamp=NOW + timedelta(minutes=5), force_store=True
    )
    assert edge.recorded_at == NOW + timedelta(minutes=5)


async def test_a_batch_names_its_future_turn_and_writes_nothing(app: Omoide) -> None:
    turns = [
        TurnInput(VIEWER, "I love cats", timestamp=NOW - timedelta(days=2), force_store=True),
        TurnInput(VIEWER, "I love dogs", timestamp=NOW + timedelta(days=2), force_store=True),
    ]
    with pytest.raises(InvalidInput, match=r"^turn 1: timestamp .* in the future"):
        await app.memory.store_interactions("haru", turns)
    assert await app.store.count_episodes(VIEWER, where=EpisodeFilter()) == 0

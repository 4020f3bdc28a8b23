"""Contract: identifiers full of quotes, wildcards, SQL and scripts are just identifiers."""

from __future__ import annotations

import itertools

import pytest

from omoide.domain import Scope
from omoide.errors import NotFound
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import (
    add_facts,
    at,
    emotion,
    episode,
    fact,
    fact_write,
    text_vector,
    turn,
)

pytestmark = pytest.mark.anyio

HOSTILE = [
    "o'brien",
    'say "hi"',
    "a%",
    "ab",
    "a_c",
    "abc",
    "back\\slash",
    "'; DROP TABLE episodes; --",
    "Robert'); DROP TABLE scopes;--",
    "1 OR 1=1",
    "🍣🎮",
    "視聴者",
    "시청자",
    "NULL",
]
CHARACTERS = ["haru", "ha'ru\"%_\\", "DROP TABLE facts"]


def marker(character_id: str, user_id: str | None) -> str:
    """A word only this scope's memories contain."""
    index = CHARACTERS.index(character_id) * 100 + (HOSTILE.index(user_id) + 1 if user_id else 0)
    return f"zmark{index:04d}"


def all_scopes() -> list[Scope]:
    viewers: list[str | None] = [*HOSTILE, None]
    return [Scope(character, user) for character, user in itertools.product(CHARACTERS, viewers)]


@pytest.fixture
async def crowded(store: MemoryBackend) -> MemoryBackend:
    for character in CHARACTERS:
        scopes = [scope for scope in all_scopes() if scope.character_id == character]
        turns = [
            turn(
                episode(
                    scope, f"{scope}-episode", f"{marker(character, scope.user_id)} shared words"
                ),
                text_vector("shared"),
                feeling=emotion(scope, f"{scope}-emotion"),
            )
            for scope in scopes
        ]
        await store.write_turns(character, turns)
        for scope in scopes:
            text = f"{marker(character, scope.user_id)} shared fact"
            await add_facts(store, scope, [fact_write(fact(scope, f"{scope}-fact", text))])
    return store


async def test_every_scope_sees_only_its_own_memories(crowded: MemoryBackend) -> None:
    everything = EpisodeFilter(include_archived=True)
    for scope in all_scopes():
        own = marker(scope.character_id, scope.user_id)
        episodes = await crowded.list_episodes(scope, where=everything, limit=100)
        facts = await crowded.list_facts(scope, where=FactFilter())
        by_vector = await crowded.search_episode_vectors(
            scope, text_vector("shared"), where=everything, limit=100
        )
        by_keyword = await crowded.search_episode_keywords(
            scope, "shared words", where=everything, limit=100
        )
        fact_hits = await crowded.search_fact_keywords(
            scope, "shared", where=FactFilter(), limit=100
        )
        emotions = await crowded.list_emotions(scope, since=at(-60), until=at(60))

        assert [item.user_message.split()[0] for item in episodes] == [own]
        assert [item.text.split()[0] for item in facts] == [own]
        assert [hit.item.scope for hit in by_vector + by_keyword] == [scope, scope]
        assert [hit.item.scope for hit in fact_hits] == [scope]
        assert [record.scope for record in emotions] == [scope]


async def test_viewer_search_treats_wildcards_literally(crowded: MemoryBackend) -> None:
    found = await crowded.list_viewers("haru", search="a%", limit=100)
    underscore = await crowded.list_viewers("haru", search="a_", limit=100)
    quote = await crowded.list_viewers("haru", search="'", limit=100)

    assert [viewer.scope.user_id for viewer in found] == ["a%"]
    assert [viewer.scope.user_id for viewer in underscore] == ["a_c"]
    assert sorted(viewer.scope.user_id or "" for viewer in quote) == sorted(
        ["o'brien", "'; DROP TABLE episodes; --", "Robert'); DROP TABLE scopes;--"]
    )


async def test_every_viewer_is_listed_under_its_own_character(crowded: MemoryBackend) -> None:
    for character in CHARACTERS:
        viewers = await crowded.list_viewers(character, search=None, limit=100)
        assert sorted(v.scope.user_id or "" for v in viewers) == sorted(HOSTILE)
        assert {v.scope.character_id for v in viewers} == {character}
        assert all((v.episode_count, v.fact_count) == (1, 1) for v in viewers)


async def test_forgetting_a_hostile_viewer_touches_no_lookalike(crowded: MemoryBackend) -> None:
    target = Scope("haru", "a%")

    report = await crowded.forget_viewer(target, reason="asked", at=at(5))

    assert (report.episodes, report.facts, report.emotions) == (1, 1, 1)
    for scope in all_scopes():
        expected = 0 if scope == target else 1
        assert await crowded.count_episodes(scope, where=EpisodeFilter()) == expected


async def test_ids_of_another_hostile_scope_are_not_found(crowded: MemoryBackend) -> None:
    victim = Scope("haru", "'; DROP TABLE episodes; --")
    attacker = Scope("haru", "1 OR 1=1")
    with pytest.raises(NotFound):
        await crowded.get_episode(attacker, f"{victim}-episode")
    with pytest.raises(NotFound):
        await crowded.delete_fact(attacker, f"{victim}-fact", reason="x", at=at(1))
    assert (await crowded.get_episode(victim, f"{victim}-episode")).scope == victim

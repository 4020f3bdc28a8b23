"""Contract: keyword search in Korean, Japanese, Chinese and English, and its safety."""

from __future__ import annotations

import pytest

from omoide.domain import FactCategory, Scope
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import add_facts, episode, fact, fact_write, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")

CORPUS = {
    "korean": "나 롤 게임 엄청 좋아해요!",
    "japanese": "Deadlock好き",
    "chinese": "我喜欢吃火锅",
    "english": "I walked my dog in the park yesterday",
    "weather": "今日は雨が降っています",
}


@pytest.fixture
async def corpus_store(store: MemoryBackend) -> MemoryBackend:
    await store.write_turns(
        "haru", [turn(episode(VIEWER, key, text)) for key, text in CORPUS.items()]
    )
    await store.write_turns(
        "haru", [turn(episode(OTHER, f"other-{key}", text)) for key, text in CORPUS.items()]
    )
    return store


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("롤 게임", "korean"),
        ("게임을 했어", "korean"),
        ("Deadlockのビルド教えて", "japanese"),
        ("火锅", "chinese"),
        ("吃", "chinese"),
        ("dog", "english"),
        ("PARK", "english"),
        ("雨", "weather"),
    ],
)
async def test_each_language_is_found_by_its_words(
    corpus_store: MemoryBackend, query: str, expected: str
) -> None:
    hits = await corpus_store.search_episode_keywords(VIEWER, query, where=EpisodeFilter(), limit=3)

    assert hits, f"nothing found for {query!r}"
    assert hits[0].item.id == expected
    assert all(hit.item.scope == VIEWER for hit in hits)
    assert all(hit.score > 0 for hit in hits)


async def test_english_words_are_stemmed(corpus_store: MemoryBackend) -> None:
    hits = await corpus_store.search_episode_keywords(
        VIEWER, "walking", where=EpisodeFilter(), limit=3
    )
    assert [hit.item.id for hit in hits] == ["english"]


async def test_better_matches_score_higher(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "both", "red apple pie")),
            turn(episode(VIEWER, "one", "red car")),
            turn(episode(VIEWER, "none", "blue sky")),
            turn(episode(VIEWER, "filler", "green tree")),
        ],
    )

    hits = await store.search_episode_keywords(VIEWER, "red apple", where=EpisodeFilter(), limit=5)

    assert [hit.item.id for hit in hits] == ["both", "one"]
    assert hits[0].score > hits[1].score


async def test_another_viewers_text_is_never_returned(corpus_store: MemoryBackend) -> None:
    for text in CORPUS.values():
        hits = await corpus_store.search_episode_keywords(
            OTHER, text, where=EpisodeFilter(), limit=10
        )
        assert hits
        assert {hit.item.scope for hit in hits} == {OTHER}


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '"unbalanced',
        "dog*",
        "*",
        "NEAR(dog park)",
        "dog OR",
        "OR",
        "AND NOT",
        "-dog",
        "terms:dog",
        "{terms}: dog",
        "(dog",
        "dog)",
        "^dog",
        "dog + park",
        "'; DROP TABLE episodes; --",
        "",
        "   ",
        "🐶🐶",
    ],
)
async def test_query_syntax_in_user_text_is_plain_text(
    corpus_store: MemoryBackend, query: str
) -> None:
    hits = await corpus_store.search_episode_keywords(
        VIEWER, query, where=EpisodeFilter(), limit=10
    )

    found = {hit.item.id for hit in hits}
    assert found <= ({"english"} if "dog" in query else set())


async def test_operator_words_are_searchable_words(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "ops", "stay NEAR me OR not AND go")),
            turn(episode(VIEWER, "plain", "nothing to see")),
        ],
    )

    hits = await store.search_episode_keywords(VIEWER, "near", where=EpisodeFilter(), limit=5)

    assert [hit.item.id for hit in hits] == ["ops"]


async def test_keyword_search_respects_episode_filters(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "low", "game night", importance=0.1)),
            turn(episode(VIEWER, "high", "game day", importance=0.9)),
        ],
    )

    hits = await store.search_episode_keywords(
        VIEWER, "game", where=EpisodeFilter(min_importance=0.5), limit=5
    )

    assert [hit.item.id for hit in hits] == ["high"]


async def test_fact_keywords_respect_category_and_currency(store: MemoryBackend) -> None:
    await add_facts(
        store,
        VIEWER,
        [
            fact_write(fact(VIEWER, "likes", "Deadlock好き")),
            fact_write(fact(VIEWER, "habit", "Deadlockを毎晩", category=FactCategory.HABIT)),
        ],
    )
    only_habits = FactFilter(categories=frozenset({FactCategory.HABIT}))

    everything = await store.search_fact_keywords(
        VIEWER, "Deadlockのビルド教えて", where=FactFilter(), limit=5
    )
    habits = await store.search_fact_keywords(VIEWER, "Deadlock", where=only_habits, limit=5)

    assert {hit.item.id for hit in everything} == {"likes", "habit"}
    assert [hit.item.id for hit in habits] == ["habit"]
    assert await store.search_fact_keywords(OTHER, "Deadlock", where=FactFilter(), limit=5) == []


async def test_limit_zero_returns_nothing(corpus_store: MemoryBackend) -> None:
    assert (
        await corpus_store.search_episode_keywords(VIEWER, "dog", where=EpisodeFilter(), limit=0)
        == []
    )

"""Contract: ``read_for_reply`` answers each part as its single-purpose method does."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import numpy as np
import pytest

from omoide.domain import Episode, Fact, Scope
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter, FactFilter, Hit, ReplyReads
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import (
    add_facts,
    at,
    emotion,
    episode,
    fact,
    fact_write,
    supersede_fact,
    text_vector,
    turn,
)

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
QUERY = "롤 게임 좋아해요"
TEXTS = (
    "나 롤 게임 엄청 좋아해요!",
    "오늘 비 와요",
    "I walked my dog in the park",
    "게임 하다가 새벽에 잤어요",
    "Deadlock好き",
)
WHERE = EpisodeFilter(min_importance=0.2, until=at(100))


async def filled(store: MemoryBackend) -> MemoryBackend:
    for scope in (VIEWER, OTHER):
        turns = [
            turn(
                episode(scope, f"{scope.user_id}-{index}", text, recorded_at=at(index)),
                feeling=emotion(scope, f"{scope.user_id}-m{index}", recorded_at=at(index)),
            )
            for index, text in enumerate(TEXTS)
        ]
        await store.write_turns("haru", turns)
        facts = [fact(scope, f"{scope.user_id}-f{index}", text) for index, text in enumerate(TEXTS)]
        await add_facts(store, scope, [fact_write(item) for item in facts])
    await supersede_fact(
        store, VIEWER, "minjun-f0", fact_write(fact(VIEWER, "new", "롤 끊었어요")), at=at(5)
    )
    return store


def scored(hits: Sequence[Hit[Episode] | Hit[Fact]]) -> list[tuple[Episode | Fact, float]]:
    return [(hit.item, round(hit.score, 4)) for hit in hits]


async def test_every_part_answers_as_its_own_method(store: MemoryBackend) -> None:
    await filled(store)
    vector = text_vector(QUERY)
    span = (at(0), at(3))
    found = await store.read_for_reply(
        VIEWER,
        ReplyReads(
            episodes_where=WHERE,
            episode_limit=3,
            fact_limit=2,
            vector=vector,
            words=QUERY,
            emotions_between=span,
            facts_listed=FactFilter(include_inactive=True),
        ),
    )

    facts_where = FactFilter()
    assert scored(found.episode_vector) == scored(
        await store.search_episode_vectors(VIEWER, vector, where=WHERE, limit=3)
    )
    assert scored(found.fact_vector) == scored(
        await store.search_fact_vectors(VIEWER, vector, where=facts_where, limit=2)
    )
    assert scored(found.episode_keyword) == scored(
        await store.search_episode_keywords(VIEWER, QUERY, where=WHERE, limit=3)
    )
    assert scored(found.fact_keyword) == scored(
        await store.search_fact_keywords(VIEWER, QUERY, where=facts_where, limit=2)
    )
    assert found.emotions == await store.list_emotions(VIEWER, since=span[0], until=span[1])
    assert found.facts == await store.list_facts(VIEWER, where=FactFilter(include_inactive=True))
    assert len(found.episode_vector) == 3
    assert found.episode_keyword
    assert [record.id for record in found.emotions] == [f"minjun-m{i}" for i in range(4)]
    assert {item.id for item in found.facts} == {f"minjun-f{i}" for i in range(5)} | {"new"}
    everything = [*scored(found.episode_vector), *scored(found.fact_vector)]
    assert all(item.scope == VIEWER for item, _score in everything)


async def test_parts_not_asked_for_stay_empty(store: MemoryBackend) -> None:
    await filled(store)

    only_words = await store.read_for_reply(
        VIEWER, ReplyReads(episodes_where=WHERE, episode_limit=3, fact_limit=2, words=QUERY)
    )
    nothing = await store.read_for_reply(
        VIEWER, ReplyReads(episodes_where=WHERE, episode_limit=3, fact_limit=2)
    )

    assert only_words.episode_keyword and only_words.fact_keyword
    assert only_words.episode_vector == []
    assert only_words.fact_vector == []
    assert only_words.emotions == []
    assert only_words.facts == []
    assert nothing == type(nothing)()


async def test_a_scope_never_written_finds_nothing(store: MemoryBackend) -> None:
    await filled(store)
    stranger = Scope("haru", "stranger")

    found = await store.read_for_reply(
        stranger,
        ReplyReads(
            episodes_where=WHERE,
            episode_limit=3,
            fact_limit=2,
            vector=text_vector(QUERY),
            words=QUERY,
            emotions_between=(at(0) - timedelta(days=1), at(100)),
            facts_listed=FactFilter(),
        ),
    )

    assert found == type(found)()


@pytest.mark.parametrize(
    "reads",
    [
        ReplyReads(
            episodes_where=WHERE,
            episode_limit=3,
            fact_limit=2,
            vector=np.zeros(8, dtype=np.float32),
        ),
        ReplyReads(episodes_where=WHERE, episode_limit=-1, fact_limit=2, words=QUERY),
        ReplyReads(
            episodes_where=WHERE,
            episode_limit=3,
            fact_limit=2,
            emotions_between=(at(0).replace(tzinfo=None), at(1)),
        ),
    ],
    ids=["zero vector", "negative limit", "naive time"],
)
async def test_bad_reads_are_refused(store: MemoryBackend, reads: ReplyReads) -> None:
    await filled(store)

    with pytest.raises(InvalidInput):
        await store.read_for_reply(VIEWER, reads)

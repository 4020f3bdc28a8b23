"""Contract: episodes and emotion records (every backend)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta, timezone

import numpy as np
import pytest

from omoide.domain import Scope
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.base import EpisodeFilter, TurnWrite
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import at, blend, emotion, episode, text_vector, turn, unit

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")


async def test_written_episode_reads_back_unchanged(store: MemoryBackend) -> None:
    metadata = {"count": 3, "ratio": 1.0, "flag": True, "nothing": None, "word": "ゲーム"}
    written = episode(VIEWER, "e1", "나 롤 게임 엄청 좋아해요!", bot="좋아!", metadata=metadata)
    await store.write_turns("haru", [turn(written)])

    read = await store.get_episode(VIEWER, "e1")

    assert read == written
    assert type(read.metadata["count"]) is int
    assert type(read.metadata["ratio"]) is float
    assert read.metadata["flag"] is True


async def test_times_come_back_as_utc(store: MemoryBackend) -> None:
    tokyo = timezone(timedelta(hours=9))
    local = at(0).astimezone(tokyo)
    await store.write_turns("haru", [turn(episode(VIEWER, "e1", recorded_at=local))])

    read = await store.get_episode(VIEWER, "e1")

    assert read.recorded_at == local
    assert read.recorded_at.utcoffset() == timedelta(0)


async def test_missing_episode_is_not_found(store: MemoryBackend) -> None:
    with pytest.raises(NotFound):
        await store.get_episode(VIEWER, "nope")


async def test_list_is_newest_first_with_paging_and_count(store: MemoryBackend) -> None:
    turns = [turn(episode(VIEWER, f"e{minute}", recorded_at=at(minute))) for minute in range(5)]
    await store.write_turns("haru", turns)

    first = await store.list_episodes(VIEWER, where=EpisodeFilter(), limit=2)
    second = await store.list_episodes(VIEWER, where=EpisodeFilter(), limit=2, offset=2)

    assert [item.id for item in first + second] == ["e4", "e3", "e2", "e1"]
    assert await store.count_episodes(VIEWER, where=EpisodeFilter()) == 5


async def test_filters_apply_to_list_and_count(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "low", importance=0.1, recorded_at=at(1))),
            turn(episode(VIEWER, "high", importance=0.9, recorded_at=at(2))),
            turn(episode(VIEWER, "late", importance=0.9, recorded_at=at(10))),
        ],
    )
    where = EpisodeFilter(min_importance=0.5, since=at(0), until=at(5))

    listed = await store.list_episodes(VIEWER, where=where, limit=10)

    assert [item.id for item in listed] == ["high"]
    assert await store.count_episodes(VIEWER, where=where) == 1


async def test_naive_times_are_refused(store: MemoryBackend) -> None:
    with pytest.raises(InvalidInput):
        await store.list_emotions(VIEWER, since=at(0).replace(tzinfo=None), until=at(1))


async def test_vector_search_returns_cosine_similarity_best_first(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "same"), unit(0)),
            turn(episode(VIEWER, "near"), blend(1.0, 1.0)),
            turn(episode(VIEWER, "opposite"), -unit(0)),
        ],
    )

    hits = await store.search_episode_vectors(VIEWER, unit(0), where=EpisodeFilter(), limit=3)

    assert [hit.item.id for hit in hits] == ["same", "near", "opposite"]
    assert [hit.score for hit in hits] == pytest.approx([1.0, 2**-0.5, -1.0], abs=1e-5)


EXCLUSIONS = {
    "archived": (EpisodeFilter(), {"archived_at": at(1)}, {}),
    "unimportant": (EpisodeFilter(min_importance=0.8), {"importance": 0.5}, {"importance": 0.9}),
    "too old": (EpisodeFilter(since=at(100)), {"recorded_at": at(60)}, {"recorded_at": at(150)}),
    "too new": (EpisodeFilter(until=at(50)), {"recorded_at": at(60)}, {"recorded_at": at(10)}),
}


@pytest.mark.parametrize("case", sorted(EXCLUSIONS))
async def test_vector_filters_do_not_starve_results(store: MemoryBackend, case: str) -> None:
    """Twenty excluded episodes sit nearer the query than the five that qualify."""
    where, excluded, qualifying = EXCLUSIONS[case]
    near = [
        turn(episode(VIEWER, f"excluded{index}", **excluded), blend(1.0, 0.01 * index))  # type: ignore[arg-type]
        for index in range(20)
    ]
    far = [
        turn(episode(VIEWER, f"qualifying{index}", **qualifying), blend(0.1 * index, 1.0))  # type: ignore[arg-type]
        for index in range(5)
    ]
    await store.write_turns("haru", near + far)

    hits = await store.search_episode_vectors(VIEWER, unit(0), where=where, limit=5)

    assert sorted(hit.item.id for hit in hits) == [f"qualifying{index}" for index in range(5)]


async def test_include_archived_returns_archived_episodes(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1", "deadlock"), unit(0))])
    assert await store.archive_episodes(VIEWER, ["e1"], at=at(5)) == 1

    default = await store.search_episode_vectors(VIEWER, unit(0), where=EpisodeFilter(), limit=5)
    everything = EpisodeFilter(include_archived=True)
    with_archived = await store.search_episode_vectors(VIEWER, unit(0), where=everything, limit=5)
    keyword_default = await store.search_episode_keywords(
        VIEWER, "deadlock", where=EpisodeFilter(), limit=5
    )

    assert default == [] and keyword_default == []
    assert [hit.item.id for hit in with_archived] == ["e1"]
    assert with_archived[0].item.archived_at == at(5)
    assert (await store.get_episode(VIEWER, "e1")).archived_at == at(5)


async def test_archiving_counts_only_newly_archived_in_scope(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "mine")), turn(episode(OTHER, "theirs"))])

    first = await store.archive_episodes(VIEWER, ["mine", "theirs", "missing"], at=at(1))
    again = await store.archive_episodes(VIEWER, ["mine"], at=at(2))

    assert (first, again) == (1, 0)
    assert (await store.get_episode(OTHER, "theirs")).archived_at is None


async def test_vector_of_wrong_dimension_is_a_conflict(store: MemoryBackend) -> None:
    with pytest.raises(Conflict, match="dimensions"):
        await store.search_episode_vectors(
            VIEWER, np.ones(3, dtype=np.float32), where=EpisodeFilter(), limit=1
        )


async def test_episode_without_vector_is_found_by_keywords_only(store: MemoryBackend) -> None:
    written = episode(VIEWER, "e1", "quiet words")
    await store.write_turns("haru", [TurnWrite(VIEWER, written, None, None)])

    by_keyword = await store.search_episode_keywords(
        VIEWER, "quiet", where=EpisodeFilter(), limit=5
    )
    by_vector = await store.search_episode_vectors(
        VIEWER, text_vector("quiet words"), where=EpisodeFilter(), limit=5
    )

    assert [hit.item.id for hit in by_keyword] == ["e1"]
    assert by_vector == []


async def test_record_recalls_reinforces_in_scope_only(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "mine")), turn(episode(OTHER, "theirs"))])

    await store.record_recalls(VIEWER, episode_ids=["mine", "theirs"], fact_ids=[], at=at(9))
    await store.record_recalls(VIEWER, episode_ids=["mine"], fact_ids=[], at=at(10))

    mine = await store.get_episode(VIEWER, "mine")
    theirs = await store.get_episode(OTHER, "theirs")
    assert (mine.recall_count, mine.last_recalled_at) == (2, at(10))
    assert (theirs.recall_count, theirs.last_recalled_at) == (0, None)


async def test_duplicate_episode_id_is_a_conflict(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1"))])
    with pytest.raises(Conflict):
        await store.write_turns("haru", [turn(episode(VIEWER, "e1"))])


async def test_turn_of_another_character_is_refused(store: MemoryBackend) -> None:
    with pytest.raises(InvalidInput):
        await store.write_turns("aoi", [turn(episode(VIEWER, "e1"))])


async def test_emotions_are_kept_without_episode_and_listed_oldest_first(
    store: MemoryBackend,
) -> None:
    stored = episode(VIEWER, "e1", recorded_at=at(2))
    await store.write_turns(
        "haru",
        [
            TurnWrite(VIEWER, None, None, emotion(VIEWER, "m1", feeling="sad", recorded_at=at(1))),
            turn(stored, feeling=emotion(VIEWER, "m2", recorded_at=at(2), episode_id="e1")),
            TurnWrite(OTHER, None, None, emotion(OTHER, "m3", recorded_at=at(2))),
            TurnWrite(VIEWER, None, None, emotion(VIEWER, "m4", recorded_at=at(30))),
        ],
    )

    listed = await store.list_emotions(VIEWER, since=at(1), until=at(2))

    assert [record.id for record in listed] == ["m1", "m2"]
    assert listed[1].episode_id == "e1"
    assert listed[0].trigger_topics == ("games",)
    assert await store.count_episodes(VIEWER, where=EpisodeFilter()) == 1


async def test_emotion_citing_an_episode_outside_its_scope_is_refused(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(OTHER, "theirs"))])
    with pytest.raises(InvalidInput):
        await store.write_turns(
            "haru", [TurnWrite(VIEWER, None, None, emotion(VIEWER, "m1", episode_id="theirs"))]
        )


async def test_deleting_an_episode_keeps_its_emotion_record(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru", [turn(episode(VIEWER, "e1"), feeling=emotion(VIEWER, "m1", episode_id="e1"))]
    )

    await store.delete_episode(VIEWER, "e1", reason="asked", at=at(5))

    listed = await store.list_emotions(VIEWER, since=at(-1), until=at(1))
    assert [(record.id, record.episode_id) for record in listed] == [("m1", None)]


async def test_negative_limits_are_refused(store: MemoryBackend) -> None:
    with pytest.raises(InvalidInput):
        await store.list_episodes(VIEWER, where=EpisodeFilter(), limit=-1)
    with pytest.raises(InvalidInput):
        await store.search_episode_vectors(VIEWER, unit(0), where=EpisodeFilter(), limit=-1)


async def test_a_rewritten_episode_has_new_words_keywords_and_vector_only(
    store: MemoryBackend,
) -> None:
    original = episode(VIEWER, "e1", "I adore Zorbla plushies", bot="Zorbla!", topics=("Zorbla",))
    await store.write_turns("haru", [turn(original, unit(0))])
    redacted = replace(original, user_message="I adore [forgotten] plushies", bot_message="")
    redacted = replace(redacted, topics=(), importance=0.9)

    await store.rewrite_episode(VIEWER, redacted, vector=unit(1))

    assert await store.get_episode(VIEWER, "e1") == replace(redacted, importance=0.5)
    where = EpisodeFilter()
    assert await store.search_episode_keywords(VIEWER, "Zorbla", where=where, limit=3) == []
    found = await store.search_episode_keywords(VIEWER, "plushies", where=where, limit=3)
    assert [hit.item.id for hit in found] == ["e1"]
    nearest = await store.search_episode_vectors(VIEWER, unit(1), where=where, limit=1)
    assert nearest[0].score == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(NotFound):
        await store.rewrite_episode(VIEWER, replace(redacted, id="nope"), vector=unit(1))
    with pytest.raises((InvalidInput, NotFound)):
        await store.rewrite_episode(OTHER, redacted, vector=unit(1))

"""Contract: archived episodes listed by archive time, restored into every index, and
counted apart in viewer listings (every backend)."""

from __future__ import annotations

import pytest

from omoide.domain import Scope
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import at, episode, turn, unit

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
ELSEWHERE = Scope("aoi", "minjun")


async def archived_ids(
    store: MemoryBackend, *, since: float | None = None, before: float | None = None
) -> list[str]:
    found = await store.list_archived_episodes(
        "haru",
        archived_from=None if since is None else at(since),
        archived_before=None if before is None else at(before),
        after_id=None,
        limit=100,
    )
    return [item.id for item in found]


async def test_archived_episodes_are_listed_by_archive_time_across_scopes(
    store: MemoryBackend,
) -> None:
    await store.write_turns(
        "haru",
        [turn(episode(VIEWER, f"v{index}")) for index in range(3)]
        + [turn(episode(OTHER, "o1")), turn(episode(VIEWER, "kept"))],
    )
    await store.write_turns("aoi", [turn(episode(ELSEWHERE, "a1"))])
    await store.archive_episodes(VIEWER, ["v0", "v1"], at=at(10))
    await store.archive_episodes(OTHER, ["o1"], at=at(20))
    await store.archive_episodes(VIEWER, ["v2"], at=at(30))
    await store.archive_episodes(ELSEWHERE, ["a1"], at=at(20))

    assert await archived_ids(store) == ["o1", "v0", "v1", "v2"]
    assert await archived_ids(store, since=20) == ["o1", "v2"]
    assert await archived_ids(store, before=20) == ["v0", "v1"]
    assert await archived_ids(store, since=20, before=30) == ["o1"]
    page = await store.list_archived_episodes(
        "haru", archived_from=None, archived_before=None, after_id="o1", limit=2
    )
    assert [item.id for item in page] == ["v0", "v1"]
    assert {item.scope for item in page} == {VIEWER}


async def test_restored_episodes_are_searchable_again_by_vector_and_keyword(
    store: MemoryBackend,
) -> None:
    await store.write_turns(
        "haru",
        [turn(episode(VIEWER, "e1", "deadlock arena"), unit(0)), turn(episode(VIEWER, "e2"))],
    )
    await store.archive_episodes(VIEWER, ["e1"], at=at(5))
    assert (
        await store.search_episode_keywords(VIEWER, "deadlock", where=EpisodeFilter(), limit=5)
        == []
    )

    restored = await store.restore_episodes(VIEWER, ["e1", "e2", "missing"])

    assert restored == 1  # e2 was not archived, "missing" does not exist
    by_vector = await store.search_episode_vectors(VIEWER, unit(0), where=EpisodeFilter(), limit=5)
    by_keyword = await store.search_episode_keywords(
        VIEWER, "deadlock", where=EpisodeFilter(), limit=5
    )
    assert by_vector[0].item.id == "e1" and by_vector[0].item.archived_at is None
    assert [hit.item.id for hit in by_keyword] == ["e1"]
    assert (await store.get_episode(VIEWER, "e1")).archived_at is None
    assert await store.count_episodes(VIEWER, where=EpisodeFilter()) == 2
    assert await archived_ids(store) == []


async def test_restoring_stays_in_its_scope(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "mine")), turn(episode(OTHER, "theirs"))])
    await store.archive_episodes(VIEWER, ["mine"], at=at(1))
    await store.archive_episodes(OTHER, ["theirs"], at=at(1))

    assert await store.restore_episodes(VIEWER, ["theirs"]) == 0
    assert await store.restore_episodes(VIEWER, ["mine"]) == 1
    assert await archived_ids(store) == ["theirs"]


async def test_viewer_counts_leave_archived_episodes_out(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1")), turn(episode(VIEWER, "e2"))])
    await store.archive_episodes(VIEWER, ["e1", "e2"], at=at(5))

    (viewer,) = await store.list_viewers("haru", search=None, limit=10)

    assert (viewer.episode_count, viewer.archived_episode_count) == (0, 2)
    assert viewer.episode_count == await store.count_episodes(VIEWER, where=EpisodeFilter())


async def test_bad_arguments_are_invalid_input(store: MemoryBackend) -> None:
    with pytest.raises(InvalidInput):
        await store.list_archived_episodes(
            "haru", archived_from=None, archived_before=None, after_id=None, limit=-1
        )
    with pytest.raises(InvalidInput):
        await store.restore_episodes(VIEWER, [42])  # type: ignore[list-item]

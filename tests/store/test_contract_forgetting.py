"""Contract: deleting, forgetting, purging and their tombstones (every backend)."""

from __future__ import annotations

import dataclasses

import pytest

from omoide.domain import MemoryKind, Scope, Tombstone
from omoide.errors import InvalidInput, NotFound
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
    tombstones,
    turn,
)

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
CHARACTER = Scope("haru")
OTHER_CHARACTER = Scope("aoi", "minjun")
SECRET = "zebrapin 4417 秘密の暗証番号 비밀번호"


def assert_no_content(tombstones: list[Tombstone], content: str) -> None:
    for tombstone in tombstones:
        for value in dataclasses.astuple(tombstone):
            assert content not in str(value)
            for word in content.split():
                assert word not in str(value)


async def test_deleted_episode_leaves_every_index_at_once(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru", [turn(episode(VIEWER, "e1", SECRET)), turn(episode(VIEWER, "e2"))]
    )

    tombstone = await store.delete_episode(VIEWER, "e1", reason="viewer asked", at=at(5))

    assert tombstone == Tombstone("e1", MemoryKind.EPISODE, VIEWER, at(5), "viewer asked")
    with pytest.raises(NotFound):
        await store.get_episode(VIEWER, "e1")
    everything = EpisodeFilter(include_archived=True)
    by_keyword = await store.search_episode_keywords(VIEWER, SECRET, where=everything, limit=10)
    by_vector = await store.search_episode_vectors(
        VIEWER, text_vector(SECRET), where=everything, limit=10
    )
    assert [hit.item.id for hit in by_keyword + by_vector] == ["e2"]
    assert await store.count_episodes(VIEWER, where=everything) == 1
    assert await tombstones(store, VIEWER) == [tombstone]
    assert_no_content(await tombstones(store, VIEWER), SECRET)


async def test_deleted_fact_leaves_every_index_at_once(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", SECRET))])

    tombstone = await store.delete_fact(VIEWER, "f1", reason="wrong", at=at(5))

    assert (tombstone.memory_id, tombstone.kind, tombstone.scope) == ("f1", MemoryKind.FACT, VIEWER)
    everything = FactFilter(include_inactive=True)
    assert await store.list_facts(VIEWER, where=everything) == []
    assert await store.search_fact_keywords(VIEWER, SECRET, where=everything, limit=5) == []
    assert (
        await store.search_fact_vectors(VIEWER, text_vector(SECRET), where=everything, limit=5)
        == []
    )
    assert_no_content(await tombstones(store, VIEWER), SECRET)


async def test_deleting_from_the_wrong_scope_is_not_found_and_harmless(
    store: MemoryBackend,
) -> None:
    await store.write_turns("haru", [turn(episode(OTHER, "theirs"))])
    await store.write_turns("aoi", [turn(episode(OTHER_CHARACTER, "aoi-ep"))])

    for scope in (VIEWER, CHARACTER, Scope("aoi", "sora")):
        with pytest.raises(NotFound):
            await store.delete_episode(scope, "theirs", reason="x", at=at(1))
    with pytest.raises(NotFound):
        await store.delete_episode(VIEWER, "aoi-ep", reason="x", at=at(1))

    assert (await store.get_episode(OTHER, "theirs")).id == "theirs"
    assert await tombstones(store, OTHER) == []
    assert await tombstones(store, VIEWER) == []


async def test_empty_reason_is_refused(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1"))])
    with pytest.raises(InvalidInput):
        await store.delete_episode(VIEWER, "e1", reason=" ", at=at(1))


async def fill(store: MemoryBackend, scope: Scope, prefix: str) -> None:
    stored = episode(scope, f"{prefix}-e", SECRET)
    feeling = emotion(scope, f"{prefix}-m", episode_id=stored.id)
    await store.write_turns(scope.character_id, [turn(stored, feeling=feeling)])
    await add_facts(
        store, scope, [fact_write(fact(scope, f"{prefix}-f", SECRET, sources=(stored.id,)))]
    )


async def test_forget_viewer_removes_everything_of_the_scope_only(store: MemoryBackend) -> None:
    for prefix, scope in (("v", VIEWER), ("o", OTHER), ("c", CHARACTER), ("x", OTHER_CHARACTER)):
        await fill(store, scope, prefix)

    report = await store.forget_viewer(VIEWER, reason="viewer asked", at=at(9))

    assert (report.scope, report.episodes, report.facts, report.emotions) == (VIEWER, 1, 1, 1)
    export = await store.export_scope(VIEWER)
    assert (export.episodes, export.facts, export.emotions) == ((), (), ())
    kinds = sorted((item.kind, item.memory_id) for item in export.tombstones)
    assert kinds == [
        (MemoryKind.EMOTION, "v-m"),
        (MemoryKind.EPISODE, "v-e"),
        (MemoryKind.FACT, "v-f"),
        (MemoryKind.VIEWER, "minjun"),
    ]
    assert_no_content(list(export.tombstones), SECRET)
    assert await store.search_episode_keywords(VIEWER, SECRET, where=EpisodeFilter(), limit=5) == []
    for scope in (OTHER, CHARACTER, OTHER_CHARACTER):
        kept = await store.export_scope(scope)
        assert (len(kept.episodes), len(kept.facts), len(kept.emotions)) == (1, 1, 1)
        assert kept.facts[0].source_episode_ids == (kept.episodes[0].id,)
        assert kept.tombstones == ()


async def test_forgetting_an_unknown_viewer_reports_nothing(store: MemoryBackend) -> None:
    report = await store.forget_viewer(VIEWER, reason="asked", at=at(1))
    assert (report.episodes, report.facts, report.emotions) == (0, 0, 0)


async def test_purge_archived_destroys_old_archived_episodes_of_one_character(
    store: MemoryBackend,
) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "old-archived")),
            turn(episode(OTHER, "new-archived")),
            turn(episode(CHARACTER, "live")),
        ],
    )
    await store.write_turns("aoi", [turn(episode(OTHER_CHARACTER, "aoi-archived"))])
    await store.archive_episodes(VIEWER, ["old-archived"], at=at(1))
    await store.archive_episodes(OTHER, ["new-archived"], at=at(50))
    await store.archive_episodes(OTHER_CHARACTER, ["aoi-archived"], at=at(1))

    purged = await store.purge_archived("haru", archived_before=at(10), reason="decayed", at=at(60))

    assert purged == 1
    with pytest.raises(NotFound):
        await store.get_episode(VIEWER, "old-archived")
    assert [item.memory_id for item in await tombstones(store, VIEWER)] == ["old-archived"]
    for scope, episode_id in ((OTHER, "new-archived"), (OTHER_CHARACTER, "aoi-archived")):
        assert (await store.get_episode(scope, episode_id)).archived_at is not None
    assert (await store.get_episode(CHARACTER, "live")).archived_at is None

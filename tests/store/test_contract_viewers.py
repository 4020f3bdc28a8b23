"""Contract: viewer listings, exports and the decay pass's paging (every backend)."""

from __future__ import annotations

import pytest

from omoide.domain import Scope
from omoide.store.base import FactWrite, TurnWrite
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import (
    add_facts,
    at,
    emotion,
    episode,
    fact,
    fact_write,
    supersede_fact,
    turn,
)

pytestmark = pytest.mark.anyio


async def test_viewers_are_listed_with_counts_most_recent_first(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru",
        [
            turn(episode(Scope("haru", "early"), "e1", recorded_at=at(1))),
            turn(episode(Scope("haru", "early"), "e2", recorded_at=at(2))),
            turn(episode(Scope("haru", "late"), "e3", recorded_at=at(5))),
            TurnWrite(
                Scope("haru", "feels"),
                None,
                None,
                emotion(Scope("haru", "feels"), "m1", recorded_at=at(9)),
            ),
            turn(episode(Scope("haru"), "diary", recorded_at=at(20))),
        ],
    )
    await store.write_turns("aoi", [turn(episode(Scope("aoi", "elsewhere"), "e4"))])
    await add_facts(store, Scope("haru", "early"), [fact_write(fact(Scope("haru", "early"), "f1"))])
    await supersede_fact(
        store,
        Scope("haru", "early"),
        "f1",
        fact_write(fact(Scope("haru", "early"), "f2")),
        at=at(3),
    )

    viewers = await store.list_viewers("haru", search=None, limit=10)

    summary = [(v.scope.user_id, v.episode_count, v.fact_count, v.last_seen_at) for v in viewers]
    assert summary == [("feels", 0, 0, at(9)), ("late", 1, 0, at(5)), ("early", 2, 1, at(2))]
    assert all(v.scope.character_id == "haru" for v in viewers)


async def test_viewer_listing_pages(store: MemoryBackend) -> None:
    names = [f"viewer{index:02}" for index in range(7)]
    await store.write_turns(
        "haru",
        [
            turn(episode(Scope("haru", name), f"e-{name}", recorded_at=at(i)))
            for i, name in enumerate(names)
        ],
    )

    pages = [await store.list_viewers("haru", search=None, limit=3, offset=o) for o in (0, 3, 6)]

    listed = [v.scope.user_id for page in pages for v in page]
    assert listed == list(reversed(names))


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("a%", ["a%"]),
        ("%", ["a%", "100%"]),
        ("_", ["a_c"]),
        ("\\", ["back\\slash"]),
        ("ab", ["ab", "abc"]),
        ("'", ["o'brien"]),
        ("ゲー", ["ゲーマー"]),
        ("", ["a%", "ab", "abc", "a_c", "100%", "back\\slash", "o'brien", "ゲーマー"]),
    ],
)
async def test_viewer_search_is_a_literal_substring(
    store: MemoryBackend, search: str, expected: list[str]
) -> None:
    names = ["a%", "ab", "abc", "a_c", "100%", "back\\slash", "o'brien", "ゲーマー"]
    await store.write_turns(
        "haru",
        [turn(episode(Scope("haru", name), f"e{index}")) for index, name in enumerate(names)],
    )

    viewers = await store.list_viewers("haru", search=search, limit=20)

    assert sorted(v.scope.user_id or "" for v in viewers) == sorted(expected)


async def test_forgotten_viewers_are_not_listed(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(Scope("haru", "gone"), "e1"))])
    await store.forget_viewer(Scope("haru", "gone"), reason="asked", at=at(1))
    assert await store.list_viewers("haru", search=None, limit=10) == []


async def test_export_holds_everything_of_one_scope(store: MemoryBackend) -> None:
    viewer = Scope("haru", "minjun")
    stored = [episode(viewer, "e1", recorded_at=at(1)), episode(viewer, "e2", recorded_at=at(2))]
    feeling = emotion(viewer, "m1", episode_id="e1")
    await store.write_turns("haru", [turn(stored[0], feeling=feeling), turn(stored[1])])
    await store.write_turns("haru", [turn(episode(Scope("haru", "other"), "e3"))])
    old, new = fact(viewer, "f1", "old"), fact(viewer, "f2", "new")
    await add_facts(store, viewer, [fact_write(old)])
    await supersede_fact(store, viewer, "f1", FactWrite(new, fact_write(new).vector), at=at(5))
    await store.delete_episode(viewer, "e2", reason="asked", at=at(6))

    export = await store.export_scope(viewer)

    assert export.scope == viewer
    assert [item.id for item in export.episodes] == ["e1"]
    assert [item.id for item in export.facts] == ["f1", "f2"]
    assert export.emotions == (feeling,)
    assert [item.memory_id for item in export.tombstones] == ["e2"]


async def test_export_of_an_unknown_scope_is_empty(store: MemoryBackend) -> None:
    export = await store.export_scope(Scope("nobody", "nothing"))
    assert (export.episodes, export.facts, export.emotions, export.tombstones) == ((), (), (), ())


async def test_decay_pages_through_unarchived_episodes_of_one_character(
    store: MemoryBackend,
) -> None:
    haru_scopes = [Scope("haru", "a"), Scope("haru", "b"), Scope("haru")]
    ids = [f"id{index:02}" for index in range(9)]
    await store.write_turns(
        "haru", [turn(episode(haru_scopes[i % 3], episode_id)) for i, episode_id in enumerate(ids)]
    )
    await store.write_turns("aoi", [turn(episode(Scope("aoi", "a"), "id00-aoi"))])
    await store.archive_episodes(Scope("haru", "b"), ["id01"], at=at(1))

    seen: list[str] = []
    after: str | None = None
    while page := await store.list_episodes_for_decay("haru", after_id=after, limit=3):
        seen.extend(item.id for item in page)
        after = page[-1].id

    assert seen == [episode_id for episode_id in ids if episode_id != "id01"]

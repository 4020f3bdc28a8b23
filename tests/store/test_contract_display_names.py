"""Contract: the names viewers go by (every backend): the latest with its history, in the
listing, searchable ignoring case, counted, exported and forgotten with the viewer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from omoide.domain import DisplayName, Scope
from omoide.errors import InvalidInput
from omoide.store.base import TurnWrite
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import at, emotion, episode, turn

pytestmark = pytest.mark.anyio
SATO = Scope("haru", "w05")


def named(scope: Scope, memory_id: str, name: str | None, minutes: float) -> TurnWrite:
    return replace(turn(episode(scope, memory_id, recorded_at=at(minutes))), display_name=name)


async def test_the_latest_name_is_listed_and_the_history_kept(store: MemoryBackend) -> None:
    await store.write_turns("haru", [named(SATO, "e1", "さとう", 1), named(SATO, "e2", "佐藤", 5)])
    await store.write_turns("haru", [named(SATO, "e3", "さとう", 3), named(SATO, "e4", None, 9)])
    feels = Scope("haru", "feels")
    feeling = emotion(feels, "m1", recorded_at=at(2))
    await store.write_turns("haru", [TurnWrite(feels, None, None, feeling, " Aoi ")])

    viewers = await store.list_viewers("haru", search=None, limit=10)

    listed = [(v.scope.user_id, v.display_name) for v in viewers]
    assert listed == [("w05", "佐藤"), ("feels", "Aoi")]
    assert await store.list_display_names(SATO) == [
        DisplayName("佐藤", at(5), at(5)),
        DisplayName("さとう", at(1), at(3)),
    ]
    assert await store.list_display_names(Scope("haru", "nobody")) == []


async def test_a_viewer_without_a_name_lists_none(store: MemoryBackend) -> None:
    await store.write_turns("haru", [named(Scope("haru", "anon"), "e1", None, 1)])
    (viewer,) = await store.list_viewers("haru", search=None, limit=10)
    assert viewer.display_name is None
    assert await store.list_display_names(Scope("haru", "anon")) == []


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("sato", ["w05"]),
        ("SATO", ["w05"]),
        ("佐藤", ["w05"]),
        ("ÄRGER", ["w07"]),
        ("straße", ["w07"]),
        ("STRASSE", ["w07"]),
        ("old", ["w05"]),
        ("w0", ["w05", "w06", "w07"]),
        ("%", []),
        ("nobody", []),
    ],
)
async def test_search_matches_any_name_ignoring_case(
    store: MemoryBackend, search: str, expected: list[str]
) -> None:
    await store.write_turns(
        "haru",
        [
            named(SATO, "e1", "OldName", 1),
            named(SATO, "e2", "Sato 佐藤", 2),
            named(Scope("haru", "w06"), "e3", "Minjun", 3),
            named(Scope("haru", "w07"), "e4", "Ärger Straße", 4),
        ],
    )
    await store.write_turns("aoi", [named(Scope("aoi", "x"), "e5", "Sato", 5)])

    viewers = await store.list_viewers("haru", search=search, limit=10)

    assert sorted(v.scope.user_id or "" for v in viewers) == expected
    assert await store.count_viewers("haru", search=search) == len(expected)


async def test_count_covers_every_page(store: MemoryBackend) -> None:
    await store.write_turns(
        "haru", [named(Scope("haru", f"v{i:03}"), f"e{i}", f"V {i}", i) for i in range(57)]
    )
    await store.write_turns("haru", [turn(episode(Scope("haru"), "diary"))])

    assert len(await store.list_viewers("haru", search=None, limit=50)) == 50
    assert await store.count_viewers("haru", search=None) == 57
    assert await store.count_viewers("haru", search="v 1") == 11
    assert await store.count_viewers("aoi", search=None) == 0


async def test_names_are_exported_and_forgotten_with_the_viewer(store: MemoryBackend) -> None:
    other = Scope("haru", "w06")
    turns = [named(SATO, "e1", "Zorblax 佐藤", 1), named(other, "e2", "Mo", 2)]
    await store.write_turns("haru", turns)

    export = await store.export_scope(SATO)
    assert export.display_names == (DisplayName("Zorblax 佐藤", at(1), at(1)),)

    await store.forget_viewer(SATO, reason="asked", at=at(3))

    assert await store.list_display_names(SATO) == []
    assert (await store.export_scope(SATO)).display_names == ()
    assert await store.list_viewers("haru", search="zorblax", limit=10) == []
    assert [v.display_name for v in await store.list_viewers("haru", search=None, limit=9)] == [
        "Mo"
    ]


@pytest.mark.parametrize("name", ["", "   ", "x" * 257, "a\x00b", "two\nlines"])
async def test_a_bad_name_is_refused_and_nothing_is_written(
    store: MemoryBackend, name: str
) -> None:
    with pytest.raises(InvalidInput):
        await store.write_turns("haru", [named(SATO, "e1", "佐藤", 1), named(SATO, "e2", name, 2)])
    assert await store.list_viewers("haru", search=None, limit=10) == []


async def test_a_search_that_is_not_text_is_refused(store: MemoryBackend) -> None:
    with pytest.raises(InvalidInput):
        await store.count_viewers("haru", search=5)  # type: ignore[arg-type]

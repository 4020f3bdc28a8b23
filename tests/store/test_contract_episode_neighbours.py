"""Contract: the episodes recorded just before and just after given ones (every backend).

Timeline order is (recorded_at, id) within one scope. Episodes are written out of timeline
order, and ids are chosen so that id order, insertion order and time order disagree, so a
backend that orders by any of the other two fails. The last test compares a seeded random
timeline (ties, importances, archived episodes, windows) with a plain Python model.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from omoide.domain import Episode, Scope
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import at, episode, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER_VIEWER = Scope("haru", "sora")
CHARACTER = Scope("haru")
OTHER_CHARACTER = Scope("aoi", "minjun")
EVERYTHING = EpisodeFilter(include_archived=True)


async def write(store: MemoryBackend, *episodes: Episode) -> None:
    """Each episode in its own call, in the order given (insertion order)."""
    for item in episodes:
        await store.write_turns(item.scope.character_id, [turn(item)])


def ids_of(found: Mapping[str, tuple[Episode, ...]]) -> dict[str, list[str]]:
    return {anchor: [item.id for item in items] for anchor, items in found.items()}


async def neighbour_ids(
    store: MemoryBackend,
    episode_ids: Sequence[str],
    *,
    scope: Scope = VIEWER,
    where: EpisodeFilter | None = None,
) -> dict[str, list[str]]:
    chosen = EpisodeFilter() if where is None else where
    return ids_of(await store.episode_neighbours(scope, episode_ids, where=chosen))


async def timeline(store: MemoryBackend) -> None:
    """VIEWER's episodes: z at 1, m at 2, a at 3, q at 4, b at 5 (written shuffled)."""
    await write(
        store,
        episode(VIEWER, "a", recorded_at=at(3)),
        episode(VIEWER, "b", recorded_at=at(5)),
        episode(VIEWER, "z", recorded_at=at(1)),
        episode(VIEWER, "q", recorded_at=at(4)),
        episode(VIEWER, "m", recorded_at=at(2)),
    )


async def test_neighbours_follow_recorded_time(store: MemoryBackend) -> None:
    await timeline(store)

    found = await neighbour_ids(store, ["a", "q", "m"])

    assert found == {"a": ["m", "q"], "q": ["a", "b"], "m": ["z", "a"]}


async def test_first_and_last_episodes_have_one_neighbour(store: MemoryBackend) -> None:
    await timeline(store)

    assert await neighbour_ids(store, ["z", "b"]) == {"z": ["m"], "b": ["q"]}


async def test_an_episode_alone_in_its_scope_has_no_neighbours(store: MemoryBackend) -> None:
    await write(store, episode(VIEWER, "only", recorded_at=at(1)))
    await write(store, episode(OTHER_VIEWER, "elsewhere", recorded_at=at(2)))

    assert await neighbour_ids(store, ["only"]) == {"only": []}


async def test_ties_on_recorded_time_are_broken_by_id(store: MemoryBackend) -> None:
    await write(
        store,
        episode(VIEWER, "t3", recorded_at=at(5)),
        episode(VIEWER, "late", recorded_at=at(6)),
        episode(VIEWER, "t1", recorded_at=at(5)),
        episode(VIEWER, "early", recorded_at=at(4)),
        episode(VIEWER, "t2", recorded_at=at(5)),
    )

    found = await neighbour_ids(store, ["t1", "t2", "t3", "early", "late"])

    assert found == {
        "t1": ["early", "t2"],
        "t2": ["t1", "t3"],
        "t3": ["t2", "late"],
        "early": ["t1"],
        "late": ["t3"],
    }


async def test_min_importance_skips_to_the_next_admitted_episode(store: MemoryBackend) -> None:
    await write(
        store,
        episode(VIEWER, "far_before", recorded_at=at(1), importance=0.9),
        episode(VIEWER, "low_before", recorded_at=at(2), importance=0.2),
        episode(VIEWER, "anchor", recorded_at=at(3), importance=0.9),
        episode(VIEWER, "low_after", recorded_at=at(4), importance=0.2),
        episode(VIEWER, "lower_after", recorded_at=at(5), importance=0.1),
        episode(VIEWER, "far_after", recorded_at=at(6), importance=0.7),
    )
    where = EpisodeFilter(min_importance=0.5)

    assert await neighbour_ids(store, ["anchor"]) == {"anchor": ["low_before", "low_after"]}
    assert await neighbour_ids(store, ["anchor"], where=where) == {
        "anchor": ["far_before", "far_after"]
    }


async def test_archived_neighbours_are_skipped_unless_included(store: MemoryBackend) -> None:
    await write(
        store,
        episode(VIEWER, "kept_before", recorded_at=at(1)),
        episode(VIEWER, "archived_before", recorded_at=at(2)),
        episode(VIEWER, "anchor", recorded_at=at(3)),
        episode(VIEWER, "archived_after", recorded_at=at(4)),
    )
    assert await store.archive_episodes(VIEWER, ["archived_before", "archived_after"], at=at(9))

    default = await neighbour_ids(store, ["anchor"])
    everything = await neighbour_ids(store, ["anchor"], where=EVERYTHING)

    assert default == {"anchor": ["kept_before"]}
    assert everything == {"anchor": ["archived_before", "archived_after"]}


async def test_since_and_until_bound_the_neighbours_inclusively(store: MemoryBackend) -> None:
    await write(
        store,
        *(episode(VIEWER, f"e{minute}", recorded_at=at(minute)) for minute in range(1, 8)),
    )

    inside = EpisodeFilter(since=at(3), until=at(5))
    narrow = EpisodeFilter(since=at(4), until=at(4))

    assert await neighbour_ids(store, ["e4", "e3", "e5"], where=inside) == {
        "e4": ["e3", "e5"],
        "e3": ["e4"],
        "e5": ["e4"],
    }
    assert await neighbour_ids(store, ["e4", "e2", "e6"], where=narrow) == {
        "e4": [],
        "e2": ["e4"],
        "e6": ["e4"],
    }
    assert await neighbour_ids(store, ["e7"], where=EpisodeFilter(until=at(2))) == {"e7": ["e2"]}
    assert await neighbour_ids(store, ["e1"], where=EpisodeFilter(since=at(6))) == {"e1": ["e6"]}


async def test_an_anchor_the_filter_refuses_still_has_neighbours(store: MemoryBackend) -> None:
    await write(
        store,
        episode(VIEWER, "before", recorded_at=at(1), importance=0.9),
        episode(VIEWER, "unimportant", recorded_at=at(2), importance=0.1),
        episode(VIEWER, "archived", recorded_at=at(3), importance=0.9),
        episode(VIEWER, "after", recorded_at=at(4), importance=0.9),
    )
    await store.archive_episodes(VIEWER, ["archived"], at=at(9))
    important = EpisodeFilter(min_importance=0.5)

    found = await neighbour_ids(store, ["unimportant", "archived"], where=important)
    windowed = await neighbour_ids(store, ["after"], where=EpisodeFilter(until=at(3)))

    assert found == {"unimportant": ["before", "after"], "archived": ["before", "after"]}
    assert windowed == {"after": ["unimportant"]}


async def test_ids_not_stored_in_the_scope_have_no_entry(store: MemoryBackend) -> None:
    await timeline(store)
    await write(store, episode(OTHER_VIEWER, "sora_episode", recorded_at=at(3)))
    await store.delete_episode(VIEWER, "q", reason="asked to forget", at=at(9))

    found = await neighbour_ids(store, ["nope", "sora_episode", "q", "a"])

    assert found == {"a": ["m", "b"]}
    assert await neighbour_ids(store, ["a"], scope=Scope("haru", "nobody")) == {}


async def test_duplicate_ids_give_one_entry(store: MemoryBackend) -> None:
    await timeline(store)

    found = await store.episode_neighbours(VIEWER, ["a", "a", "q", "a"], where=EpisodeFilter())

    assert ids_of(found) == {"a": ["m", "q"], "q": ["a", "b"]}
    assert sorted(found) == ["a", "q"]


async def test_no_ids_give_no_entries(store: MemoryBackend) -> None:
    await timeline(store)

    assert await store.episode_neighbours(VIEWER, [], where=EpisodeFilter()) == {}
    assert await store.episode_neighbours(Scope("nobody"), (), where=EpisodeFilter()) == {}


async def test_other_scopes_episodes_are_never_neighbours(store: MemoryBackend) -> None:
    """The same moments in every neighbouring scope: only the asked scope's may answer."""
    scopes = {"v": VIEWER, "o": OTHER_VIEWER, "c": CHARACTER, "x": OTHER_CHARACTER}
    for minute in range(1, 6):
        for prefix, scope in scopes.items():
            if prefix == "v" and minute % 2 == 0:
                continue
            await write(store, episode(scope, f"{prefix}{minute}", recorded_at=at(minute)))

    viewer = await neighbour_ids(store, ["v1", "v3", "v5", "o3", "c3", "x3"], where=EVERYTHING)
    character = await neighbour_ids(store, ["c3", "v3"], scope=CHARACTER)
    elsewhere = await neighbour_ids(store, ["x3", "v3"], scope=OTHER_CHARACTER)

    assert viewer == {"v1": ["v3"], "v3": ["v1", "v5"], "v5": ["v3"]}
    assert character == {"c3": ["c2", "c4"]}
    assert elsewhere == {"x3": ["x2", "x4"]}


async def test_neighbours_are_the_stored_episodes_in_full(store: MemoryBackend) -> None:
    metadata = {"count": 3, "ratio": 0.5, "flag": True, "nothing": None, "word": "ゲーム"}
    await write(
        store,
        episode(VIEWER, "before", "롤 하자", bot="좋아!", recorded_at=at(1), topics=("games",)),
        episode(VIEWER, "anchor", recorded_at=at(2)),
        episode(VIEWER, "after", "猫", recorded_at=at(3), metadata=metadata, importance=0.8),
    )
    await store.record_recalls(VIEWER, episode_ids=["before", "after"], fact_ids=[], at=at(5))
    await store.record_recalls(VIEWER, episode_ids=["after"], fact_ids=[], at=at(6))
    await store.archive_episodes(VIEWER, ["after"], at=at(7))

    found = await store.episode_neighbours(VIEWER, ["anchor"], where=EVERYTHING)

    expected = (await store.get_episode(VIEWER, "before"), await store.get_episode(VIEWER, "after"))
    assert found == {"anchor": expected}
    assert expected[1].recall_count == 2 and expected[1].archived_at == at(7)
    assert expected[1].metadata == metadata and expected[0].topics == ("games",)


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(("viewer", ["a"], EpisodeFilter()), id="scope not a Scope"),
        pytest.param((VIEWER, ["a", 7], EpisodeFilter()), id="id not a string"),
        pytest.param((VIEWER, ["a"], {"min_importance": 0.5}), id="filter not an EpisodeFilter"),
        pytest.param((VIEWER, ["a"], EpisodeFilter(min_importance=2.0)), id="importance > 1"),
    ],
)
async def test_bad_arguments_are_invalid_input(
    store: MemoryBackend, arguments: tuple[object, object, object]
) -> None:
    await timeline(store)
    scope, episode_ids, where = arguments

    with pytest.raises(InvalidInput):
        await store.episode_neighbours(scope, episode_ids, where=where)  # type: ignore[arg-type]


# --- a random timeline against a plain model -------------------------------------------


def random_timeline(seed: int) -> list[Episode]:
    """Forty episodes over twelve moments (many ties), ids unrelated to time."""
    chooser = random.Random(seed)
    names = [f"r{number:02d}" for number in range(40)]
    chooser.shuffle(names)
    return [
        episode(
            VIEWER,
            name,
            recorded_at=at(chooser.randrange(12)),
            importance=chooser.choice((0.1, 0.4, 0.6, 0.9)),
            archived_at=at(30) if chooser.random() < 0.25 else None,
        )
        for name in names
    ]


def admitted(item: Episode, where: EpisodeFilter) -> bool:
    return (
        item.importance >= where.min_importance
        and (where.include_archived or item.archived_at is None)
        and (where.since is None or item.recorded_at >= where.since)
        and (where.until is None or item.recorded_at <= where.until)
    )


def modelled(
    episodes: Sequence[Episode], anchors: Sequence[str], where: EpisodeFilter
) -> dict[str, list[str]]:
    ordered = sorted(episodes, key=lambda item: (item.recorded_at, item.id))
    position = {item.id: index for index, item in enumerate(ordered)}
    found: dict[str, list[str]] = {}
    for anchor in anchors:
        index = position[anchor]
        before = [item.id for item in ordered[:index] if admitted(item, where)][-1:]
        after = [item.id for item in ordered[index + 1 :] if admitted(item, where)][:1]
        found[anchor] = before + after
    return found


RANDOM_FILTERS = {
    "default": EpisodeFilter(),
    "everything": EVERYTHING,
    "important": EpisodeFilter(min_importance=0.5),
    "window": EpisodeFilter(since=at(3), until=at(8), include_archived=True),
    "all three": EpisodeFilter(min_importance=0.3, since=at(2), until=at(9)),
}


async def test_random_timelines_match_the_model(store: MemoryBackend) -> None:
    episodes = random_timeline(seed=16)
    await store.write_turns("haru", [turn(item) for item in episodes])
    anchors = [item.id for item in episodes]

    for name, where in RANDOM_FILTERS.items():
        found = await neighbour_ids(store, anchors, where=where)
        assert found == modelled(episodes, anchors, where), name

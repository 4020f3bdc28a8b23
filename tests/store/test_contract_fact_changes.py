"""Contract: a batch of fact changes, and scopes' current facts read with their vectors.

``write_fact_changes`` of a batch must be indistinguishable from one call per change, made
one after the other: the tests apply the same changes both ways, each on a store of its own,
and compare everything a reader can see. A failing change leaves nothing of its call.
``current_facts`` must return what ``list_facts`` calls current, oldest first, with the
vectors exactly as they were given (they are deliberately not unit length).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from omoide.domain import Fact, Scope, TrustState, Vector
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.base import (
    FactChangeWrite,
    FactFilter,
    FactSupersession,
    FactUpdate,
    FactWrite,
    Hit,
)
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import (
    DIMENSIONS,
    add_facts,
    at,
    episode,
    fact,
    supersede_fact,
    text_vector,
    turn,
    update_fact,
)
from tests.store.conftest import StoreFactory

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
CHARACTER = Scope("haru")
STRANGER = Scope("aoi", "minjun")
STRANGER_WIDE = Scope("aoi")
HARU_SCOPES = (VIEWER, OTHER, CHARACTER)
EVERYTHING = FactFilter(include_inactive=True)
CURRENT = FactFilter()
WORDS = ("lives", "likes", "deadlock", "busan", "diary", "cats", "rhythm")


def vector_of(fact_id: str) -> Vector:
    """The vector stored for ``fact_id``: deterministic, and deliberately not unit length."""
    scaled: Vector = (text_vector(fact_id) * np.float32(2.5)).astype(np.float32)
    return scaled


def new(
    scope: Scope, fact_id: str, text: str, minutes: float = 0, sources: tuple[str, ...] = ()
) -> Fact:
    return fact(scope, fact_id, text, recorded_at=at(minutes), sources=sources)


def add(item: Fact) -> FactWrite:
    return FactWrite(item, vector_of(item.id))


def confirmed(item: Fact) -> FactUpdate:
    return FactUpdate(
        dataclasses.replace(
            item, trust=TrustState.CONFIRMED, confirmation_count=item.confirmation_count + 1
        )
    )


def contradicted(item: Fact) -> FactUpdate:
    return FactUpdate(dataclasses.replace(item, trust=TrustState.CONTRADICTED))


async def apply_singly(store: MemoryBackend, changes: Sequence[FactChangeWrite]) -> None:
    """The same changes one call each."""
    for change in changes:
        match change:
            case FactWrite():
                await add_facts(store, change.fact.scope, [change])
            case FactUpdate():
                await update_fact(store, change.fact)
            case FactSupersession():
                scope = change.replacement.fact.scope
                await supersede_fact(
                    store, scope, change.old_fact_id, change.replacement, at=change.at
                )


# --- a store with history, and everything a reader can see of it -----------------------

V_HOME = new(VIEWER, "v_home", "lives in Seoul", 1)
V_CATS = new(VIEWER, "v_cats", "likes cats", 2, sources=("e1",))
O_GAMES = new(OTHER, "o_games", "likes rhythm games", 3)
C_DIARY = new(CHARACTER, "c_diary", "diary: first stream", 4)
EXISTING = (V_HOME, V_CATS, O_GAMES, C_DIARY)

V_DEADLOCK = new(VIEWER, "v_deadlock", "plays Deadlock", 10, sources=("e1", "e2"))
O_NEW = new(OTHER, "o_new", "likes cats too", 11, sources=("e3",))
V_BUSAN = new(VIEWER, "v_busan", "lives in Busan", 12)
O_NEWER = new(OTHER, "o_newer", "likes dogs now", 13)
C_NEW = new(CHARACTER, "c_new", "diary: played Deadlock with minjun", 14, sources=("e1",))
V_BUSAN_SOUTH = new(VIEWER, "v_busan_south", "lives in south Busan", 15)


def mixed_changes() -> list[FactChangeWrite]:
    """Adds, confirmations, contradictions and supersessions over three scopes of haru,
    some of them on facts added earlier in the same list."""
    return [
        add(V_DEADLOCK),
        confirmed(V_CATS),
        add(O_NEW),
        FactSupersession("v_home", add(V_BUSAN), at(12)),
        confirmed(V_DEADLOCK),
        FactSupersession("o_new", add(O_NEWER), at(13)),
        contradicted(O_GAMES),
        add(C_NEW),
        FactSupersession("v_busan", add(V_BUSAN_SOUTH), at(15)),
        confirmed(C_DIARY),
    ]


async def with_history(store: MemoryBackend) -> MemoryBackend:
    await store.write_turns(
        "haru",
        [turn(episode(VIEWER, "e1")), turn(episode(VIEWER, "e2")), turn(episode(OTHER, "e3"))],
    )
    for item in EXISTING:
        await add_facts(store, item.scope, [add(item)])
    return store


def ranked(hits: list[Hit[Fact]], *, relative: bool = False) -> list[tuple[float, str, Fact]]:
    """Hits by score (rounded), then id: equal scores may come back in either order.

    Keyword scores are compared ``relative`` to the best hit: on the server, Qdrant's IDF
    still counts points deleted from a collection until its segments are merged (test
    namespaces are emptied and reused), so the absolute BM25 of a word depends on the
    collection's history; the ratios between the hits of a one-word query do not.
    """
    top = max((abs(hit.score) for hit in hits), default=1.0) or 1.0
    scale = top if relative else 1.0
    rows = [(round(hit.score / scale, 4), hit.item.id, hit.item) for hit in hits]
    return sorted(rows, key=lambda row: (-row[0], row[1]))


async def seen(store: MemoryBackend, vector_ids: Sequence[str]) -> dict[str, object]:
    """Everything a reader can see of haru's facts: listings, each fact, searches by vector
    and by keyword (current and all), and the current facts with their vectors."""
    view: dict[str, object] = {}
    for scope in HARU_SCOPES:
        everything = await store.list_facts(scope, where=EVERYTHING)
        view[f"{scope} all"] = everything
        view[f"{scope} current"] = await store.list_facts(scope, where=CURRENT)
        view[f"{scope} each"] = [await store.get_fact(scope, item.id) for item in everything]
        for where in (CURRENT, EVERYTHING):
            for fact_id in vector_ids:
                hits = await store.search_fact_vectors(
                    scope, vector_of(fact_id), where=where, limit=20
                )
                view[f"{scope} {where} vector {fact_id}"] = ranked(hits)
            for word in WORDS:
                hits = await store.search_fact_keywords(scope, word, where=where, limit=20)
                view[f"{scope} {where} keyword {word}"] = ranked(hits, relative=True)
        current = (await store.current_facts([scope], limit=100))[scope]
        assert current is not None
        view[f"{scope} current facts"] = (current.facts, current.vectors.round(5).tolist())
    return view


ALL_IDS = tuple(
    item.id for item in (*EXISTING, V_DEADLOCK, O_NEW, V_BUSAN, O_NEWER, C_NEW, V_BUSAN_SOUTH)
)


# --- current_facts ---------------------------------------------------------------------


def assert_vectors_are_stored_ones(facts: Sequence[Fact], vectors: np.ndarray) -> None:
    assert vectors.dtype == np.float32
    assert vectors.shape == (len(facts), DIMENSIONS)
    expected = np.stack([vector_of(item.id) for item in facts]) if facts else vectors
    np.testing.assert_allclose(vectors, expected, rtol=1e-6, atol=1e-7)


async def test_current_facts_come_oldest_first_with_their_stored_vectors(
    store: MemoryBackend,
) -> None:
    items = [
        new(VIEWER, "f_b", "likes tea", 5),
        new(VIEWER, "f_d", "likes rain", 9),
        new(VIEWER, "f_a", "likes cake", 5),
        new(VIEWER, "f_c", "likes snow", 1),
    ]
    await add_facts(store, VIEWER, [add(item) for item in items[:2]])
    await add_facts(store, VIEWER, [add(item) for item in items[2:]])

    current = (await store.current_facts([VIEWER], limit=10))[VIEWER]

    assert current is not None
    assert [item.id for item in current.facts] == ["f_c", "f_a", "f_b", "f_d"]
    assert list(current.facts) == await store.list_facts(VIEWER, where=CURRENT)
    assert_vectors_are_stored_ones(current.facts, current.vectors)


async def test_superseded_and_contradicted_facts_are_not_current(store: MemoryBackend) -> None:
    items = [new(VIEWER, f"f{index}", f"likes thing{index}", index) for index in range(4)]
    await add_facts(store, VIEWER, [add(item) for item in items])
    await supersede_fact(store, VIEWER, "f0", add(new(VIEWER, "f9", "likes more", 9)), at=at(9))
    await update_fact(store, contradicted(items[1]).fact)
    closed = dataclasses.replace(items[2], valid_to=at(8))  # closed, yet neither superseded
    await update_fact(store, closed)  # nor contradicted: as list_facts

    current = (await store.current_facts([VIEWER], limit=10))[VIEWER]

    assert current is not None
    assert list(current.facts) == await store.list_facts(VIEWER, where=CURRENT)
    assert {"f0", "f1"}.isdisjoint(item.id for item in current.facts)
    assert [item.id for item in current.facts][-1] == "f9"
    assert_vectors_are_stored_ones(current.facts, current.vectors)


async def test_a_scope_above_the_limit_maps_to_none(store: MemoryBackend) -> None:
    await add_facts(
        store, VIEWER, [add(new(VIEWER, f"v{index}", "likes tea")) for index in range(4)]
    )
    await supersede_fact(store, VIEWER, "v0", add(new(VIEWER, "v9", "likes coffee")), at=at(1))
    await update_fact(store, contradicted(new(VIEWER, "v1", "likes tea")).fact)
    await add_facts(store, OTHER, [add(new(OTHER, "o0", "likes tea"))])

    at_limit = await store.current_facts([VIEWER, OTHER], limit=3)
    above = await store.current_facts([VIEWER, OTHER], limit=2)
    nothing_allowed = await store.current_facts([VIEWER, CHARACTER], limit=0)

    viewer_facts = at_limit[VIEWER]
    assert viewer_facts is not None and len(viewer_facts.facts) == 3  # v2, v3, v9
    assert above[VIEWER] is None
    other_facts = above[OTHER]
    assert other_facts is not None and [item.id for item in other_facts.facts] == ["o0"]
    assert nothing_allowed[VIEWER] is None
    empty = nothing_allowed[CHARACTER]
    assert empty is not None and empty.facts == ()


async def test_a_scope_never_written_has_no_current_facts(store: MemoryBackend) -> None:
    await add_facts(store, OTHER, [add(new(OTHER, "o0", "likes tea"))])

    found = await store.current_facts([VIEWER, STRANGER_WIDE], limit=5)

    assert set(found) == {VIEWER, STRANGER_WIDE}
    for scope in (VIEWER, STRANGER_WIDE):
        current = found[scope]
        assert current is not None and current.facts == ()
        assert current.vectors.shape == (0, DIMENSIONS)
        assert current.vectors.dtype == np.float32


async def test_current_facts_keep_scopes_apart(store: MemoryBackend) -> None:
    for scope, name in [
        (VIEWER, "viewer"),
        (OTHER, "other"),
        (CHARACTER, "character"),
        (STRANGER, "stranger"),
        (STRANGER_WIDE, "stranger_wide"),
    ]:
        await add_facts(
            store,
            scope,
            [add(new(scope, f"{name}{index}", "likes tea", index)) for index in range(2)],
        )

    found = await store.current_facts([VIEWER, CHARACTER, VIEWER, STRANGER_WIDE], limit=5)

    assert set(found) == {VIEWER, CHARACTER, STRANGER_WIDE}
    for scope, name in [
        (VIEWER, "viewer"),
        (CHARACTER, "character"),
        (STRANGER_WIDE, "stranger_wide"),
    ]:
        current = found[scope]
        assert current is not None
        assert [item.id for item in current.facts] == [f"{name}0", f"{name}1"]
        assert all(item.scope == scope for item in current.facts)
        assert_vectors_are_stored_ones(current.facts, current.vectors)


async def test_current_facts_refuse_a_negative_limit(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [add(new(VIEWER, "v0", "likes tea"))])
    with pytest.raises(InvalidInput):
        await store.current_facts([VIEWER], limit=-1)
    assert await store.current_facts([], limit=5) == {}


# --- write_fact_changes ----------------------------------------------------------------


async def test_a_batch_equals_the_single_calls_one_after_the_other(
    store_factory: StoreFactory,
) -> None:
    batched = await with_history(await store_factory(name="batched"))
    single = await with_history(await store_factory(name="single"))
    changes = mixed_changes()

    await batched.write_fact_changes("haru", changes)
    await apply_singly(single, changes)

    assert await seen(batched, ALL_IDS) == await seen(single, ALL_IDS)
    home = await batched.get_fact(VIEWER, "v_home")
    assert (home.valid_to, home.superseded_at) == (at(12), at(12))
    south = await batched.get_fact(VIEWER, "v_busan_south")
    assert south.supersedes == "v_busan"
    assert (await batched.get_fact(VIEWER, "v_deadlock")).trust == TrustState.CONFIRMED
    current = await batched.current_facts(HARU_SCOPES, limit=10)
    assert {
        scope: [item.id for item in found.facts] for scope, found in current.items() if found
    } == {
        VIEWER: ["v_cats", "v_deadlock", "v_busan_south"],
        OTHER: ["o_newer"],
        CHARACTER: ["c_diary", "c_new"],
    }


async def test_a_later_change_sees_an_earlier_one_of_the_same_batch(store: MemoryBackend) -> None:
    first = new(VIEWER, "first", "likes tea", 1)
    second = new(VIEWER, "second", "likes green tea", 2)

    await store.write_fact_changes(
        "haru", [add(first), confirmed(first), FactSupersession("first", add(second), at(2))]
    )

    stored = await store.get_fact(VIEWER, "first")
    assert (stored.trust, stored.confirmation_count, stored.superseded_at) == (
        TrustState.CONFIRMED,
        2,
        at(2),
    )
    assert await store.list_facts(VIEWER, where=CURRENT) == [
        dataclasses.replace(second, supersedes="first")
    ]


def unknown_fact() -> FactChangeWrite:
    return confirmed(new(VIEWER, "nowhere", "likes nothing"))


def another_viewers_fact() -> FactChangeWrite:
    return confirmed(dataclasses.replace(O_GAMES, scope=VIEWER))


def unknown_scope() -> FactChangeWrite:
    return confirmed(new(Scope("haru", "nobody"), "nobody0", "likes nothing"))


def superseded_again() -> FactChangeWrite:
    """v_home is superseded earlier in the failing batch."""
    return FactSupersession("v_home", add(new(VIEWER, "v_again", "lives in Jeju", 20)), at(20))


def duplicate_id() -> FactChangeWrite:
    return add(new(VIEWER, "v_cats", "likes cats again", 20))


def wrong_dimension() -> FactChangeWrite:
    return FactWrite(new(VIEWER, "v_wide", "likes wide vectors"), np.ones(3, dtype=np.float32))


@pytest.mark.parametrize(
    ("failing", "error"),
    [
        (unknown_fact, NotFound),
        (another_viewers_fact, NotFound),
        (unknown_scope, NotFound),
        (superseded_again, Conflict),
        (duplicate_id, Conflict),
        (wrong_dimension, Conflict),
    ],
)
async def test_a_failing_change_leaves_nothing_of_its_batch(
    store: MemoryBackend, failing: Callable[[], FactChangeWrite], error: type[Exception]
) -> None:
    await with_history(store)
    before = await seen(store, ALL_IDS)
    changes = mixed_changes()
    changes.insert(5, failing())

    with pytest.raises(error):
        await store.write_fact_changes("haru", changes)

    assert await seen(store, ALL_IDS) == before
    with pytest.raises(NotFound):
        await store.get_fact(VIEWER, "v_deadlock")


@pytest.mark.parametrize(
    "foreign",
    [
        add(new(STRANGER, "s0", "likes tea")),
        confirmed(new(STRANGER_WIDE, "s0", "likes tea")),
        FactSupersession("v_home", add(new(STRANGER, "s1", "lives in Osaka")), at(1)),
    ],
    ids=["add", "update", "supersession"],
)
async def test_a_change_of_another_character_is_refused_with_nothing_written(
    store: MemoryBackend, foreign: FactChangeWrite
) -> None:
    await add_facts(store, STRANGER_WIDE, [add(new(STRANGER_WIDE, "s0", "likes tea"))])
    await with_history(store)
    before = await seen(store, ALL_IDS)

    with pytest.raises(InvalidInput):
        await store.write_fact_changes("haru", [add(V_DEADLOCK), foreign])

    assert await seen(store, ALL_IDS) == before
    assert await store.list_facts(STRANGER, where=EVERYTHING) == []
    unchanged = await store.get_fact(STRANGER_WIDE, "s0")
    assert (unchanged.trust, unchanged.confirmation_count) == (TrustState.STATED, 1)


async def test_an_empty_batch_changes_nothing(store: MemoryBackend) -> None:
    await with_history(store)
    before = await seen(store, ALL_IDS)

    await store.write_fact_changes("haru", [])

    assert await seen(store, ALL_IDS) == before

"""Contract: facts, their validity times and their provenance links (every backend)."""

from __future__ import annotations

import dataclasses

import pytest

from omoide.domain import FactCategory, Scope, TrustState
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.base import FactFilter, FactWrite
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import (
    add_facts,
    at,
    blend,
    episode,
    fact,
    fact_write,
    supersede_fact,
    turn,
    unit,
    update_fact,
)

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
CHARACTER = Scope("haru")


async def test_added_fact_reads_back_unchanged(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1")), turn(episode(VIEWER, "e2"))])
    written = fact(VIEWER, "f1", "Deadlock好き", sources=("e2", "e1"))
    await add_facts(store, VIEWER, [fact_write(written)])

    assert await store.get_fact(VIEWER, "f1") == written
    assert await store.list_facts(VIEWER, where=FactFilter()) == [written]


async def test_a_facts_slot_and_terms_read_back_and_change(store: MemoryBackend) -> None:
    written = dataclasses.replace(
        fact(VIEWER, "f1", "来週の水曜日に面接があります"),
        slot="plan:interview",
        terms=("来週の水曜日", "面接"),
    )
    await add_facts(store, VIEWER, [fact_write(written)])
    assert await store.get_fact(VIEWER, "f1") == written
    (current,) = (await store.current_facts([VIEWER], limit=10))[VIEWER].facts  # type: ignore[union-attr]
    assert (current.slot, current.terms) == ("plan:interview", ("来週の水曜日", "面接"))
    changed = dataclasses.replace(written, slot=None, terms=())
    await update_fact(store, changed)
    assert await store.get_fact(VIEWER, "f1") == changed


async def test_fact_of_another_scope_is_not_found(store: MemoryBackend) -> None:
    await add_facts(store, OTHER, [fact_write(fact(OTHER, "theirs"))])
    with pytest.raises(NotFound):
        await store.get_fact(VIEWER, "theirs")
    with pytest.raises(NotFound):
        await store.delete_fact(VIEWER, "theirs", reason="test", at=at(1))
    assert (await store.get_fact(OTHER, "theirs")).id == "theirs"


async def test_citing_another_viewers_episode_is_refused(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(OTHER, "theirs"))])
    with pytest.raises(InvalidInput):
        await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", sources=("theirs",)))])
    with pytest.raises(InvalidInput):
        await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f2", sources=("unknown",)))])


async def test_character_fact_may_cite_its_viewers_episodes(store: MemoryBackend) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1"))])
    diary = fact(CHARACTER, "diary", "streamed Deadlock with minjun", sources=("e1",))

    await add_facts(store, CHARACTER, [fact_write(diary)])
    await store.forget_viewer(VIEWER, reason="viewer asked", at=at(5))

    assert (await store.get_fact(CHARACTER, "diary")).source_episode_ids == ()


async def test_deleting_a_cited_episode_keeps_the_fact_and_drops_the_link(
    store: MemoryBackend,
) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1")), turn(episode(VIEWER, "e2"))])
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", sources=("e1", "e2")))])

    await store.delete_episode(VIEWER, "e1", reason="asked", at=at(5))

    assert (await store.get_fact(VIEWER, "f1")).source_episode_ids == ("e2",)


async def test_supersede_closes_the_old_fact_and_links_the_new(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "old", "lives in Seoul"), unit(0))])
    replacement = fact(VIEWER, "new", "lives in Busan", recorded_at=at(10))

    stored = await supersede_fact(store, VIEWER, "old", fact_write(replacement, unit(1)), at=at(10))

    old = await store.get_fact(VIEWER, "old")
    assert (old.valid_to, old.superseded_at) == (at(10), at(10))
    assert stored == dataclasses.replace(replacement, supersedes="old")
    assert await store.list_facts(VIEWER, where=FactFilter()) == [stored]
    everything = await store.list_facts(VIEWER, where=FactFilter(include_inactive=True))
    assert [item.id for item in everything] == ["old", "new"]
    hits = await store.search_fact_vectors(VIEWER, unit(0), where=FactFilter(), limit=5)
    assert [hit.item.id for hit in hits] == ["new"]


async def test_superseding_twice_is_a_conflict(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "old"))])
    await supersede_fact(store, VIEWER, "old", fact_write(fact(VIEWER, "new")), at=at(1))
    with pytest.raises(Conflict):
        await supersede_fact(store, VIEWER, "old", fact_write(fact(VIEWER, "newer")), at=at(2))


async def test_superseding_a_fact_of_another_scope_is_not_found(store: MemoryBackend) -> None:
    await add_facts(store, OTHER, [fact_write(fact(OTHER, "theirs"))])
    with pytest.raises(NotFound):
        await supersede_fact(store, VIEWER, "theirs", fact_write(fact(VIEWER, "new")), at=at(1))
    assert (await store.get_fact(OTHER, "theirs")).superseded_at is None
    assert await store.list_facts(VIEWER, where=FactFilter(include_inactive=True)) == []


async def test_update_without_vector_keeps_vector_and_refreshes_filters(
    store: MemoryBackend,
) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1"), unit(0))])
    contradicted = dataclasses.replace(fact(VIEWER, "f1"), trust=TrustState.CONTRADICTED)

    await update_fact(store, contradicted)

    assert await store.search_fact_vectors(VIEWER, unit(0), where=FactFilter(), limit=5) == []
    everything = FactFilter(include_inactive=True)
    hits = await store.search_fact_vectors(VIEWER, unit(0), where=everything, limit=5)
    assert [hit.item.trust for hit in hits] == [TrustState.CONTRADICTED]


async def test_contradicted_only_lists_the_facts_found_no_longer_true(
    store: MemoryBackend,
) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "kept", "likes cats"), unit(0))])
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "wrong", "likes dogs"), unit(1))])
    await add_facts(store, OTHER, [fact_write(fact(OTHER, "theirs", "likes dogs"), unit(1))])
    await supersede_fact(store, VIEWER, "kept", fact_write(fact(VIEWER, "newer")), at=at(1))
    for scope, fact_id in ((VIEWER, "wrong"), (OTHER, "theirs")):
        found = await store.get_fact(scope, fact_id)
        await update_fact(store, dataclasses.replace(found, trust=TrustState.CONTRADICTED))
    rejected = FactFilter(contradicted_only=True)

    assert [item.id for item in await store.list_facts(VIEWER, where=rejected)] == ["wrong"]
    hits = await store.search_fact_keywords(VIEWER, "dogs", where=rejected, limit=5)
    assert [hit.item.id for hit in hits] == ["wrong"]
    assert await store.search_fact_keywords(VIEWER, "cats", where=rejected, limit=5) == []
    with pytest.raises(InvalidInput):
        await store.search_fact_vectors(VIEWER, unit(1), where=rejected, limit=5)


async def test_update_of_a_fact_not_in_scope_is_not_found(store: MemoryBackend) -> None:
    await add_facts(store, OTHER, [fact_write(fact(OTHER, "theirs"))])
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "mine"))])
    with pytest.raises(NotFound):
        await update_fact(store, fact(VIEWER, "theirs", "rewritten"))
    assert (await store.get_fact(OTHER, "theirs")).text == "likes games"


async def test_category_filter_does_not_starve_vector_results(store: MemoryBackend) -> None:
    habits = [
        fact_write(
            fact(VIEWER, f"habit{index}", category=FactCategory.HABIT), blend(1, 0.01 * index)
        )
        for index in range(20)
    ]
    goals = [
        fact_write(fact(VIEWER, f"goal{index}", category=FactCategory.GOAL), blend(0.1 * index, 1))
        for index in range(3)
    ]
    await add_facts(store, VIEWER, habits + goals)
    only_goals = FactFilter(categories=frozenset({FactCategory.GOAL, FactCategory.EMOTION}))

    hits = await store.search_fact_vectors(VIEWER, unit(0), where=only_goals, limit=3)

    assert sorted(hit.item.id for hit in hits) == ["goal0", "goal1", "goal2"]


async def test_superseded_facts_do_not_starve_vector_results(store: MemoryBackend) -> None:
    await add_facts(
        store,
        VIEWER,
        [fact_write(fact(VIEWER, f"old{index}"), blend(1, 0.01 * index)) for index in range(10)],
    )
    for index in range(10):
        replacement = FactWrite(fact(VIEWER, f"new{index}"), blend(0.1 * index, 1))
        await supersede_fact(store, VIEWER, f"old{index}", replacement, at=at(1))

    hits = await store.search_fact_vectors(VIEWER, unit(0), where=FactFilter(), limit=4)

    assert len(hits) == 4 and all(hit.item.id.startswith("new") for hit in hits)


async def test_fact_recalls_are_recorded(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1"))])
    await add_facts(store, OTHER, [fact_write(fact(OTHER, "f2"))])

    await store.record_recalls(VIEWER, episode_ids=[], fact_ids=["f1", "f2"], at=at(3))

    mine = await store.get_fact(VIEWER, "f1")
    assert (mine.recall_count, mine.last_recalled_at) == (1, at(3))
    assert (await store.get_fact(OTHER, "f2")).recall_count == 0


async def test_empty_category_set_matches_nothing(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1"))])
    nothing = FactFilter(categories=frozenset())
    assert await store.list_facts(VIEWER, where=nothing) == []


async def test_citing_an_episode_deleted_meanwhile_drops_only_that_link(
    store: MemoryBackend,
) -> None:
    await store.write_turns("haru", [turn(episode(VIEWER, "e1")), turn(episode(VIEWER, "e2"))])
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", sources=("e1",)))])
    stale = await store.get_fact(VIEWER, "f1")
    await store.delete_episode(VIEWER, "e1", reason="asked", at=at(1))

    await update_fact(store, dataclasses.replace(stale, source_episode_ids=("e1", "e2")))
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f2", sources=("e1",)))])

    assert (await store.get_fact(VIEWER, "f1")).source_episode_ids == ("e2",)
    assert (await store.get_fact(VIEWER, "f2")).source_episode_ids == ()

"""Contract: a batch commits records, keywords and vectors together, or nothing at all."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from omoide.domain import Scope
from omoide.errors import Conflict, InvalidInput
from omoide.store.base import EpisodeFilter, FactFilter, FactWrite, TurnWrite
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import add_facts, emotion, episode, fact, fact_write, text_vector, turn

pytestmark = pytest.mark.anyio

VIEWERS = [Scope("haru", "minjun"), Scope("haru", "sora"), Scope("haru")]
EVERYTHING = EpisodeFilter(include_archived=True)


def good_turn(index: int) -> TurnWrite:
    scope = VIEWERS[index % len(VIEWERS)]
    stored = episode(scope, f"e{index}", f"batchword{index} common")
    return turn(stored, feeling=emotion(scope, f"m{index}", episode_id=stored.id))


async def assert_batch_absent(store: MemoryBackend, count: int) -> None:
    for scope in VIEWERS:
        assert await store.count_episodes(scope, where=EVERYTHING) == 0
        assert (
            await store.search_episode_keywords(scope, "common", where=EVERYTHING, limit=50) == []
        )
        assert (
            await store.search_episode_vectors(scope, text_vector("x"), where=EVERYTHING, limit=50)
            == []
        )
        export = await store.export_scope(scope)
        assert (export.episodes, export.emotions) == ((), ())
    for index in range(count):
        scope = VIEWERS[index % len(VIEWERS)]
        hits = await store.search_episode_keywords(
            scope, f"batchword{index}", where=EVERYTHING, limit=5
        )
        assert hits == []
    assert await store.list_viewers("haru", search=None, limit=10) == []


def wrong_dimension(index: int) -> TurnWrite:
    valid = good_turn(index)
    return TurnWrite(valid.scope, valid.episode, np.ones(3, dtype=np.float32), valid.emotion)


def duplicate_id(index: int) -> TurnWrite:
    """An episode reusing the id of a neighbour in the batch."""
    return turn(episode(VIEWERS[0], f"e{index - 1 if index else 1}", "duplicate"))


def dangling_emotion(index: int) -> TurnWrite:
    return TurnWrite(VIEWERS[1], None, None, emotion(VIEWERS[1], f"m{index}", episode_id="nowhere"))


@pytest.mark.parametrize(
    ("invalid", "error"),
    [(wrong_dimension, Conflict), (duplicate_id, Conflict), (dangling_emotion, InvalidInput)],
)
@pytest.mark.parametrize("position", [0, 3, 5])
async def test_an_invalid_turn_leaves_nothing_of_its_batch(
    store: MemoryBackend,
    invalid: Callable[[int], TurnWrite],
    error: type[Exception],
    position: int,
) -> None:
    batch = [good_turn(index) for index in range(6)]
    batch[position] = invalid(position)

    with pytest.raises(error):
        await store.write_turns("haru", batch)

    await assert_batch_absent(store, 6)


async def test_the_batch_commits_once_the_invalid_turn_is_fixed(store: MemoryBackend) -> None:
    batch = [good_turn(index) for index in range(6)]
    with pytest.raises(Conflict):
        await store.write_turns("haru", [*batch[:4], wrong_dimension(4), batch[5]])

    await store.write_turns("haru", batch)

    assert sum([await store.count_episodes(s, where=EVERYTHING) for s in VIEWERS]) == 6


async def test_an_invalid_fact_leaves_nothing_of_its_batch(store: MemoryBackend) -> None:
    scope = VIEWERS[0]
    writes = [fact_write(fact(scope, f"f{index}", f"factword{index} common")) for index in range(4)]
    writes[2] = FactWrite(writes[2].fact, np.ones(5, dtype=np.float32))

    with pytest.raises(Conflict):
        await add_facts(store, scope, writes)

    everything = FactFilter(include_inactive=True)
    assert await store.list_facts(scope, where=everything) == []
    assert await store.search_fact_keywords(scope, "common", where=everything, limit=10) == []
    assert (
        await store.search_fact_vectors(scope, text_vector("x"), where=everything, limit=10) == []
    )

"""Reinforcement noted on the reply path and written later: exactly once, in order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.domain import Scope
from omoide.errors import InvalidInput, OmoideError
from omoide.memory.reinforce import Reinforcements
from omoide.store.sqlite import open_sqlite_store
from tests.store.builders import EMBEDDING, episode, turn

pytestmark = pytest.mark.anyio

START = datetime(2025, 3, 1, 12, tzinfo=UTC)
MINJUN = Scope("haru", "minjun")


async def test_each_noted_recall_is_written_once_with_its_own_moment(tmp_path: Path) -> None:
    store = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    await store.write_turns("haru", [turn(episode(MINJUN, "e1")), turn(episode(MINJUN, "e2"))])
    notes = Reinforcements(store)
    notes.note(MINJUN, episode_ids=["e1"], fact_ids=[], at=START)
    notes.note(MINJUN, episode_ids=["e1", "e2"], fact_ids=[], at=START + timedelta(hours=1))
    notes.note(MINJUN, episode_ids=[], fact_ids=[], at=START)  # nothing reached the prompt

    assert notes.pending == 2
    assert await notes.flush() == 2
    assert await notes.flush() == 0
    first = await store.get_episode(MINJUN, "e1")
    second = await store.get_episode(MINJUN, "e2")
    await store.close()

    assert (first.recall_count, first.last_recalled_at) == (2, START + timedelta(hours=1))
    assert (second.recall_count, second.last_recalled_at) == (1, START + timedelta(hours=1))


async def test_a_failed_flush_keeps_the_notes(tmp_path: Path) -> None:
    store = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    notes = Reinforcements(store)
    notes.note(MINJUN, episode_ids=["e1"], fact_ids=[], at=START)
    await store.close()

    with pytest.raises(OmoideError):
        await notes.flush()
    assert await notes.flush_quietly() == 0
    assert notes.pending == 1


async def test_a_flush_is_due_once_the_backlog_reaches_its_bound(tmp_path: Path) -> None:
    store = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    notes = Reinforcements(store, max_pending=2)
    due = [notes.note(MINJUN, episode_ids=["e1"], fact_ids=[], at=START) for _ in range(3)]
    assert due == [False, True, True]
    assert await notes.flush(limit=2) == 2
    assert notes.pending == 1
    await store.close()


@pytest.mark.parametrize("bound", [0, -1, True, 1.5])
async def test_the_bound_must_be_a_positive_integer(tmp_path: Path, bound: object) -> None:
    store = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    try:
        with pytest.raises(InvalidInput):
            Reinforcements(store, max_pending=bound)  # type: ignore[arg-type]
    finally:
        await store.close()

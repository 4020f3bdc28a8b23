"""Every SQLite file is owned the same way: a busy file, or one that cannot be opened, is
our error (naming the file), not apsw's."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import apsw
import pytest

from omoide.clock import FixedClock
from omoide.domain import Scope, TurnInput
from omoide.errors import BackendError, BackendUnavailable
from omoide.store.sqlite.character_states import SqliteCharacterStateStore
from omoide.store.sqlite.growth import open_growth_file
from omoide.store.sqlite.turn_queue import SqliteTurnQueue

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.anyio
async def test_a_locked_queue_file_is_backend_unavailable(tmp_path: Path) -> None:
    """Another process holding the queue's write lock past the busy timeout: the put
    fails with :class:`BackendUnavailable` (before, apsw's ``BusyError`` left as is)."""
    path = tmp_path / "queue.sqlite3"
    queue = SqliteTurnQueue(path, clock=FixedClock(NOW))
    other = apsw.Connection(str(path))
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(BackendUnavailable, match="busy"):
            await queue.put([TurnInput(Scope("haru", "v1"), "hello", "hi")])
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await queue.counts() == {"pending": 0, "failed": 0}
    await queue.close()


OPENERS: dict[str, Callable[[Path], object]] = {
    "turn queue": lambda path: SqliteTurnQueue(path, clock=FixedClock(NOW)),
    "character states": SqliteCharacterStateStore,
    "growth file": open_growth_file,
}


@pytest.mark.parametrize("opener", OPENERS.values(), ids=OPENERS.keys())
def test_a_file_that_cannot_be_opened_is_a_backend_error_naming_it(
    tmp_path: Path, opener: Callable[[Path], object]
) -> None:
    """A directory where the file should be: apsw's ``CantOpenError`` leaves as ours."""
    path = tmp_path / "data" / "queue.sqlite3"
    path.mkdir(parents=True)
    with pytest.raises(BackendError, match=re.escape(str(path))) as caught:
        opener(path)
    assert isinstance(caught.value.__cause__, apsw.CantOpenError)


@pytest.mark.parametrize("opener", OPENERS.values(), ids=OPENERS.keys())
def test_a_file_whose_directory_is_a_file_is_a_backend_error_naming_it(
    tmp_path: Path, opener: Callable[[Path], object]
) -> None:
    (tmp_path / "data").write_text("not a directory", encoding="utf-8")
    path = tmp_path / "data" / "queue.sqlite3"
    with pytest.raises(BackendError, match=re.escape(str(path))) as caught:
        opener(path)
    assert isinstance(caught.value.__cause__, OSError)

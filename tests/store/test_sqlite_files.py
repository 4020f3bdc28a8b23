"""Every SQLite file is owned the same way: a busy file is our error, not apsw's."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import apsw
import pytest

from omoide.clock import FixedClock
from omoide.domain import Scope, TurnInput
from omoide.errors import BackendUnavailable
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

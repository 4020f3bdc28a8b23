"""The neighbours query walks ``episodes_by_scope_time`` from each anchor's time.

The contract tests check what ``episode_neighbours`` returns; this checks how PostgreSQL
finds it: each step is an index scan on (scope_id, recorded_at) bounded at the anchor's
time, forwards for the episode after and backwards for the one before, so its cost grows
with the episodes it skips, not with the scope's size.
"""

from __future__ import annotations

import pytest

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter
from omoide.store.server import Engines, ServerMemoryStore
from omoide.store.server.filters import episode_conditions
from omoide.store.server.neighbours import neighbours_query
from tests.store.builders import at, episode, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")


async def test_each_step_is_a_bounded_scan_of_the_scope_time_index(
    server_store: ServerMemoryStore, engines: Engines
) -> None:
    turns = [
        turn(episode(VIEWER, f"e{minute:03d}", recorded_at=at(minute))) for minute in range(50)
    ]
    await server_store.write_turns("haru", turns)
    conditions = episode_conditions(EpisodeFilter(min_importance=0.3))

    async with engines.database.transaction() as connection:
        await connection.execute("SET LOCAL enable_seqscan = off")
        scope_id = await engines.scope_id(connection, VIEWER)
        cursor = await connection.execute(
            f"EXPLAIN {neighbours_query(conditions)}",
            (*conditions.parameters, *conditions.parameters, scope_id, ["e010", "e020"]),
        )
        plan = "\n".join(str(row[0]) for row in await cursor.fetchall())

    assert "Index Scan Backward using episodes_by_scope_time" in plan, plan
    assert "Index Scan using episodes_by_scope_time" in plan, plan
    assert "(recorded_at <= a.recorded_at)" in plan, plan
    assert "(recorded_at >= a.recorded_at)" in plan, plan

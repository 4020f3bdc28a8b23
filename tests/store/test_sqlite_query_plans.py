"""The embedded store's query plans: the shapes that keep a reply fast at 1,000,000 episodes.

Results are covered by the contract tests; these pin *how* SQLite runs the searches, since
a plan that starts from the wrong table returns the same rows and is 50x slower.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import apsw
import pytest

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.sqlite import episodes, facts, open_sqlite_store
from omoide.store.sqlite.connection import fetch_one, open_connection
from tests.store.builders import EMBEDDING, add_facts, episode, fact, fact_write, turn

pytestmark = pytest.mark.anyio

VIEWERS = (Scope("haru", "minjun"), Scope("haru", "sora"))
VECTOR_TABLES = ("episode_vectors_1", "fact_vectors_1")


async def filled_store(path: Path) -> None:
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    for viewer in VIEWERS:
        await store.write_turns(
            "haru",
            [
                turn(episode(viewer, f"{viewer.user_id}-{index}", f"ordinary chat {index} 게임"))
                for index in range(40)
            ],
        )
        await add_facts(
            store, viewer, [fact_write(fact(viewer, f"{viewer.user_id}-f", "likes ordinary games"))]
        )
    await store.close()


def scope_id(connection: apsw.Connection, scope: Scope) -> int:
    row = fetch_one(
        connection,
        "SELECT id FROM scopes WHERE character_id = ? AND user_id = ?",
        (scope.character_id, scope.user_id),
    )
    assert row is not None
    return int(row[0])


def outermost_loop(connection: apsw.Connection, search: Callable[[apsw.Connection], Any]) -> str:
    """Run ``search`` while tracing its SELECT, then explain that SELECT's first loop."""
    traced: list[tuple[str, Any]] = []

    def trace(_cursor: apsw.Cursor, sql: str, bindings: Any) -> bool:
        if sql.lstrip().upper().startswith("SELECT"):
            traced.append((sql, bindings))
        return True

    connection.exec_trace = trace
    assert search(connection), "the search must find something for its plan to matter"
    connection.exec_trace = None
    sql, bindings = traced[-1]
    plan = connection.execute(f"EXPLAIN QUERY PLAN {sql}", bindings).fetchall()
    loops = [str(row[3]) for row in plan if str(row[3]).startswith(("SCAN", "SEARCH"))]
    return loops[0]


async def test_episode_keyword_search_starts_from_the_full_text_match(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await filled_store(path)
    connection = open_connection(path)
    try:
        scope = scope_id(connection, VIEWERS[0])
        loop = outermost_loop(
            connection,
            lambda c: episodes.search_keywords(c, scope, "ordinary 게임", EpisodeFilter(), 5),
        )
    finally:
        connection.close()
    assert "episode_keywords VIRTUAL TABLE" in loop


async def test_fact_keyword_search_starts_from_the_full_text_match(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await filled_store(path)
    connection = open_connection(path)
    try:
        scope = scope_id(connection, VIEWERS[1])
        loop = outermost_loop(
            connection, lambda c: facts.search_keywords(c, scope, "ordinary games", FactFilter(), 5)
        )
    finally:
        connection.close()
    assert "fact_keywords VIRTUAL TABLE" in loop


def partition_lookup(connection: apsw.Connection, table: str) -> str:
    plan = connection.execute(
        f"EXPLAIN QUERY PLAN SELECT chunk_id FROM {table}_chunks WHERE partition00 = ?", (1,)
    ).fetchall()
    return " ".join(str(row[3]) for row in plan)


async def test_vector_chunks_are_found_by_partition_through_an_index(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await filled_store(path)
    connection = open_connection(path)
    try:
        lookups = {table: partition_lookup(connection, table) for table in VECTOR_TABLES}
    finally:
        connection.close()
    assert lookups == {
        table: f"SEARCH {table}_chunks USING COVERING INDEX {table}_chunks_by_partition "
        "(partition00=?)"
        for table in VECTOR_TABLES
    }


async def test_a_store_written_before_the_partition_index_gets_it_on_open(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await filled_store(path)
    connection = open_connection(path)
    for table in VECTOR_TABLES:
        connection.execute(f"DROP INDEX {table}_chunks_by_partition")
    assert "USING" not in partition_lookup(connection, VECTOR_TABLES[0])
    connection.close()

    store = await open_sqlite_store(path, embedding=EMBEDDING)
    hits = await store.search_episode_keywords(
        VIEWERS[0], "ordinary", where=EpisodeFilter(), limit=3
    )
    await store.close()

    connection = open_connection(path)
    try:
        assert all("INDEX" in partition_lookup(connection, table) for table in VECTOR_TABLES)
    finally:
        connection.close()
    assert len(hits) == 3

"""Migration 3: keyword rows written before stemming are rebuilt with today's analysis."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.domain import Scope
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.store.sqlite import MIGRATIONS, open_sqlite_store
from omoide.store.sqlite.connection import open_connection
from omoide.store.sqlite.keyword_index import term_digest
from tests.store.builders import EMBEDDING, add_facts, episode, fact, fact_write, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
REBUILD = next(m for m in MIGRATIONS if m.name == "rebuild_keyword_rows_with_stemming")


def unstemmed_terms(scope_id: int, text: str) -> str:
    """What the analyzer before stemming indexed for plain lowercase English text."""
    return " ".join(term_digest(scope_id, word) for word in text.lower().split())


def rewrite_as_before_stemming(path: Path) -> None:
    """Put the store back as an omoide without stemming left it: unstemmed keyword rows,
    and the rebuild migration not yet recorded."""
    connection = open_connection(path)
    connection.execute("BEGIN IMMEDIATE")
    for table, source, text in (
        ("episode_keywords", "episodes", "user_message || ' ' || bot_message"),
        ("fact_keywords", "facts", "text"),
    ):
        connection.execute(f"INSERT INTO {table} ({table}) VALUES ('delete-all')")
        rows = connection.execute(f"SELECT internal_id, scope_id, {text} FROM {source}")
        for internal_id, scope_id, content in rows.fetchall():
            connection.execute(
                f"INSERT INTO {table} (rowid, terms) VALUES (?, ?)",
                (internal_id, unstemmed_terms(int(str(scope_id)), str(content))),
            )
    connection.execute("DELETE FROM schema_migrations WHERE version = ?", (REBUILD.version,))
    connection.execute("COMMIT")
    connection.close()


async def write_old_store(path: Path) -> None:
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await store.write_turns(
        "haru",
        [
            turn(episode(VIEWER, "puppy", "we adopted a puppy", bot="congratulations")),
            turn(episode(VIEWER, "walk", "walked in the park")),
            turn(episode(OTHER, "other-puppy", "we adopted a puppy")),
        ],
    )
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "games", "plays strategy games"))])
    await store.close()
    rewrite_as_before_stemming(path)


async def found_ids(path: Path) -> tuple[list[str], list[str], list[str]]:
    """Episodes for "adoption", facts for "game", and the other viewer's "adoption"."""
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        episodes = await store.search_episode_keywords(
            VIEWER, "adoption", where=EpisodeFilter(), limit=5
        )
        facts = await store.search_fact_keywords(VIEWER, "game", where=FactFilter(), limit=5)
        other = await store.search_episode_keywords(
            OTHER, "adoption", where=EpisodeFilter(), limit=5
        )
    finally:
        await store.close()
    return (
        [hit.item.id for hit in episodes],
        [hit.item.id for hit in facts],
        [hit.item.id for hit in other],
    )


def recorded_versions(path: Path) -> set[int]:
    connection = open_connection(path)
    rows = connection.execute("SELECT version FROM schema_migrations").fetchall()
    connection.close()
    return {int(str(row[0])) for row in rows}


async def test_old_rows_do_not_match_stemmed_queries(tmp_path: Path) -> None:
    """The setup is what the migration repairs: without it, stemmed queries miss."""
    path = tmp_path / "store.sqlite3"
    await write_old_store(path)
    connection = open_connection(path)
    connection.execute("BEGIN IMMEDIATE")
    connection.execute(
        "INSERT INTO schema_migrations VALUES (?, ?, 0)", (REBUILD.version, REBUILD.name)
    )
    connection.execute("COMMIT")
    connection.close()

    assert await found_ids(path) == ([], [], [])


async def test_opening_an_old_store_rebuilds_its_keyword_rows(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await write_old_store(path)
    assert REBUILD.version not in recorded_versions(path)

    episodes, facts, other = await found_ids(path)

    assert REBUILD.version in recorded_versions(path)
    assert episodes == ["puppy"]
    assert facts == ["games"]
    assert other == ["other-puppy"]


async def test_rebuilt_rows_keep_records_searchable_by_their_own_words(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await write_old_store(path)
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        by_reply = await store.search_episode_keywords(
            VIEWER, "congratulations", where=EpisodeFilter(), limit=5
        )
        walking = await store.search_episode_keywords(
            VIEWER, "walking", where=EpisodeFilter(), limit=5
        )
    finally:
        await store.close()

    assert [hit.item.id for hit in by_reply] == ["puppy"]
    assert [hit.item.id for hit in walking] == ["walk"]

"""SQLite specifics: what is (and is not) left in the file, raw tables, pragmas, threads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import apsw
import pytest

from omoide.domain import Scope
from omoide.errors import BackendError, Conflict
from omoide.store.base import EpisodeFilter
from omoide.store.keywords import analyze_document, analyze_query
from omoide.store.sqlite import SqliteMemoryStore, open_sqlite_store
from omoide.store.sqlite.connection import READ_MAP_BYTES, open_connection
from omoide.store.sqlite.keyword_index import term_digest
from tests.store.builders import (
    EMBEDDING,
    add_facts,
    at,
    emotion,
    episode,
    fact,
    fact_write,
    text_vector,
    turn,
)

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
SECRET = "zebrapin 4417 秘密の暗証番号 비밀번호"


def needles() -> list[bytes]:
    """Byte strings that betray the secret: its words, its CJK bigrams and its vector."""
    words = [token for token in analyze_query(SECRET) if len(token.encode()) >= 4]
    return [word.encode() for word in words] + [text_vector(SECRET).tobytes()]


def every_stored_value(path: Path) -> Iterator[tuple[str, object]]:
    connection = open_connection(path)
    try:
        tables = connection.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        ).fetchall()
        for (table,) in tables:
            for row in connection.execute(f'SELECT * FROM "{table}"').fetchall():
                for value in row:
                    yield str(table), value
    finally:
        connection.close()


def tables_holding_secret(path: Path) -> set[str]:
    found: set[str] = set()
    for table, value in every_stored_value(path):
        data = value.encode() if isinstance(value, str) else value
        if isinstance(data, bytes) and any(needle in data for needle in needles()):
            found.add(table)
    return found


def file_holds_secret(path: Path) -> bool:
    data = b"".join(p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name))
    return any(needle in data for needle in needles())


async def store_with_secret(path: Path) -> SqliteMemoryStore:
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    secret = episode(VIEWER, "secret", SECRET)
    await store.write_turns(
        "haru",
        [turn(secret, text_vector(SECRET), feeling=emotion(VIEWER, "m1", episode_id="secret"))]
        + [
            turn(episode(VIEWER, f"filler{index}", f"ordinary chat {index}")) for index in range(30)
        ],
    )
    await add_facts(store, OTHER, [fact_write(fact(OTHER, "kept", "likes ordinary games"))])
    return store


async def test_the_secret_is_visible_before_deletion(tmp_path: Path) -> None:
    """Guards the probes below: they do find the content while it is stored."""
    path = tmp_path / "store.sqlite3"
    store = await store_with_secret(path)
    await store.close()

    assert "episodes" in tables_holding_secret(path)
    assert file_holds_secret(path)


@pytest.mark.parametrize("how", ["delete_episode", "forget_viewer", "purge_archived"])
async def test_deleted_content_is_gone_from_every_table_and_the_file(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "store.sqlite3"
    store = await store_with_secret(path)
    if how == "delete_episode":
        await store.delete_episode(VIEWER, "secret", reason="asked", at=at(5))
    elif how == "forget_viewer":
        await store.forget_viewer(VIEWER, reason="asked", at=at(5))
    else:
        await store.archive_episodes(VIEWER, ["secret"], at=at(1))
        await store.purge_archived("haru", archived_before=at(2), reason="decayed", at=at(5))
    await store.close()  # the last connection checkpoints the WAL into the file

    assert tables_holding_secret(path) == set()
    assert not file_holds_secret(path)


async def test_a_failed_batch_leaves_no_row_in_any_table(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    batch = [turn(episode(VIEWER, f"e{index}", f"word{index}")) for index in range(4)]
    batch.append(turn(episode(VIEWER, "e0", "duplicate id")))

    with pytest.raises(Conflict):
        await store.write_turns("haru", batch)
    await store.close()

    connection = open_connection(path)
    counts = {
        table: connection.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
        for table in ("episodes", "emotions", "episode_keywords", "episode_vectors_1", "scopes")
    }
    connection.close()
    assert counts == dict.fromkeys(counts, 0)


async def test_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    connection = open_connection(tmp_path / "store.sqlite3")
    try:
        journal = connection.execute("PRAGMA journal_mode").fetchall()[0][0]
        foreign_keys = connection.execute("PRAGMA foreign_keys").fetchall()[0][0]
        timeout = connection.execute("PRAGMA busy_timeout").fetchall()[0][0]
    finally:
        connection.close()
    assert (journal, foreign_keys) == ("wal", 1)
    assert isinstance(timeout, int) and timeout >= 1000


async def test_readers_map_the_file_and_the_writer_copies_pages(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    writer = open_connection(path)
    reader = open_connection(path, query_only=True)
    try:
        mapped = [
            connection.execute("PRAGMA mmap_size").fetchall()[0][0]
            for connection in (writer, reader)
        ]
    finally:
        reader.close()
        writer.close()
    assert mapped == [0, READ_MAP_BYTES]


async def test_concurrent_writes_and_reads_all_land(tmp_path: Path) -> None:
    store = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    scopes = [Scope("haru", f"viewer{index}") for index in range(10)]
    seen: list[int] = []

    async def write(scope: Scope) -> None:
        for index in range(5):
            await store.write_turns("haru", [turn(episode(scope, f"{scope.user_id}-{index}"))])

    async def read(scope: Scope) -> None:
        for _ in range(5):
            seen.append(await store.count_episodes(scope, where=EpisodeFilter()))

    async with anyio.create_task_group() as group:
        for scope in scopes:
            group.start_soon(write, scope)
            group.start_soon(read, scope)

    counts = [await store.count_episodes(scope, where=EpisodeFilter()) for scope in scopes]
    await store.close()
    assert counts == [5] * 10
    assert all(0 <= count <= 5 for count in seen)


async def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    await store.close()
    await store.close()
    with pytest.raises(BackendError, match="closed"):
        await store.count_episodes(VIEWER, where=EpisodeFilter())


async def test_opening_creates_missing_directories(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "store.sqlite3"
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await store.close()
    assert path.is_file()


async def test_apsw_errors_surface_as_backend_errors(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(BackendError) as caught:
        await open_sqlite_store(path, embedding=EMBEDDING)
    assert isinstance(caught.value.__cause__, apsw.Error)


async def test_the_character_wide_scope_is_one_row_despite_null(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    for index in range(3):
        await store.write_turns("haru", [turn(episode(Scope("haru"), f"diary{index}"))])
    await add_facts(store, Scope("haru"), [fact_write(fact(Scope("haru"), "f1"))])
    await store.close()

    connection = open_connection(path)
    rows = connection.execute("SELECT character_id, user_id FROM scopes").fetchall()
    with pytest.raises(apsw.ConstraintError):
        connection.execute("INSERT INTO scopes (character_id, user_id) VALUES ('haru', NULL)")
    connection.close()
    assert rows == [("haru", None)]


async def test_each_analyzed_token_is_one_fts_term(tmp_path: Path) -> None:
    """FTS5 keeps every token (as its scoped digest) whole: CJK bigrams are not split."""
    path = tmp_path / "store.sqlite3"
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    text = "我喜欢吃火锅 Deadlockのビルド 나 롤 게임"
    await store.write_turns("haru", [turn(episode(VIEWER, "e1", text))])
    await store.close()

    connection = open_connection(path)
    connection.execute(
        "CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, episode_keywords, row)"
    )
    stored = {str(row[0]) for row in connection.execute("SELECT term FROM temp.terms").fetchall()}
    scope_id = connection.execute("SELECT id FROM scopes").fetchall()[0][0]
    connection.close()
    assert stored == {term_digest(int(str(scope_id)), token) for token in analyze_document(text)}

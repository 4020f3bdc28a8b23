"""``omoide migrate --from sqlite:///... --to server`` copies everything, vectors included."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
import typer
from typer.testing import CliRunner, Result

from omoide.cli.server import register
from omoide.domain import Scope
from omoide.memory.episode_readings import with_readings
from omoide.store.base import EpisodeFilter, TurnWrite
from omoide.store.server import ServerConfig, open_server_store
from omoide.store.server.migrate import verify
from omoide.store.server.sqlite_source import open_sqlite_source
from omoide.store.sqlite import open_sqlite_store
from tests.store.builders import (
    EMBEDDING,
    add_facts,
    at,
    emotion,
    episode,
    fact,
    fact_write,
    supersede_fact,
    turn,
    unit,
)

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
CHARACTER = Scope("haru")
ELSEWHERE = Scope("aoi", "minjun")
SCOPES = (VIEWER, OTHER, CHARACTER, ELSEWHERE)


async def embedded_store(path: Path) -> None:
    """A store with every kind of record, link and deletion, and a viewer's name."""
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        await store.write_turns(
            "haru",
            [
                turn(
                    episode(VIEWER, "e1", "나 롤 게임 엄청 좋아해요!", recorded_at=at(1)), unit(0)
                ),
                turn(
                    episode(VIEWER, "e2", "Deadlock好き", recorded_at=at(2)),
                    unit(1),
                    feeling=emotion(VIEWER, "m1", episode_id="e2"),
                ),
                TurnWrite(VIEWER, episode(VIEWER, "e3", "no vector here"), None, None, "민준"),
                turn(
                    with_readings(
                        episode(OTHER, "e4", "我喜欢吃火锅", metadata={"n": 1, "x": 1.0})
                    ),
                    unit(2),
                ),
                turn(episode(OTHER, "e5", "to be deleted"), unit(3)),
            ],
        )
        await store.write_turns("aoi", [turn(episode(ELSEWHERE, "e6", "aoi's viewer"), unit(4))])
        await store.archive_episodes(VIEWER, ["e1"], at=at(5))
        await add_facts(
            store, VIEWER, [fact_write(fact(VIEWER, "f1", "likes LoL", sources=("e1",)))]
        )
        await supersede_fact(
            store,
            VIEWER,
            "f1",
            fact_write(fact(VIEWER, "f2", "likes Deadlock", sources=("e2",))),
            at=at(6),
        )
        diary = fact(CHARACTER, "d1", "played with minjun and sora", sources=("e2", "e4"))
        await add_facts(store, CHARACTER, [fact_write(diary, unit(5))])
        await store.delete_episode(OTHER, "e5", reason="viewer asked", at=at(7))
        await store.record_recalls(VIEWER, episode_ids=["e2"], fact_ids=["f2"], at=at(8))
    finally:
        await store.close()


def run_command(config: ServerConfig, *arguments: str) -> Result:
    app = typer.Typer()
    register(app)
    environment = {
        "OMOIDE_DATABASE_URL": config.database_url,
        "OMOIDE_QDRANT_URL": config.qdrant_url,
        "OMOIDE_QDRANT_COLLECTION_PREFIX": config.collection_prefix,
    }
    return CliRunner().invoke(app, list(arguments), env=environment)


async def test_migrate_copies_every_scope_and_proves_it(
    config: ServerConfig, tmp_path: Path
) -> None:
    path = tmp_path / "omoide.sqlite3"
    await embedded_store(path)
    arguments = ("migrate", "--from", f"sqlite:///{path}", "--to", "server", "--json")

    first = await anyio.to_thread.run_sync(lambda: run_command(config, *arguments))
    again = await anyio.to_thread.run_sync(lambda: run_command(config, *arguments))

    assert first.exit_code == 0, first.output
    report = json.loads(first.output)
    assert report["verified"] is True
    assert report["copied"] == report["total"]
    assert report["total"] == {"episodes": 5, "facts": 3, "emotions": 1, "tombstones": 1}
    assert {search["search"] for search in report["searches"]} >= {
        "episode vectors",
        "episode keywords",
        "fact vectors",
        "fact keywords",
    }
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["copied"] == {
        "episodes": 0,
        "facts": 0,
        "emotions": 0,
        "tombstones": 0,
    }
    source = await open_sqlite_store(path, embedding=EMBEDDING)
    target = await open_server_store(config, embedding=EMBEDDING)
    try:
        for scope in SCOPES:
            assert await target.export_scope(scope) == await source.export_scope(scope)
            copies = (await target.export_scope(scope)).episodes
            originals = (await source.export_scope(scope)).episodes
            assert [e.readings for e in copies] == [e.readings for e in originals]  # not in ==
        assert (await target.get_episode(OTHER, "e4")).readings is not None
        hits = await target.search_episode_vectors(OTHER, unit(2), where=EpisodeFilter(), limit=1)
        archived = EpisodeFilter(include_archived=True)
        kept = await target.search_episode_vectors(VIEWER, unit(0), where=archived, limit=3)
    finally:
        await source.close()
        await target.close()
    assert [(hit.item.id, round(hit.score, 5)) for hit in hits] == [("e4", 1.0)]
    assert [hit.item.id for hit in kept] == ["e1", "e2"]  # e3 has no vector, as in the file


async def test_the_check_notices_a_scope_that_did_not_arrive_whole(
    config: ServerConfig, tmp_path: Path
) -> None:
    path = tmp_path / "omoide.sqlite3"
    await embedded_store(path)
    result = await anyio.to_thread.run_sync(
        lambda: run_command(config, "migrate", "--from", f"sqlite:///{path}")
    )
    assert result.exit_code == 0, result.output
    target = await open_server_store(config, embedding=EMBEDDING)
    source = await open_sqlite_source(path)
    source_store = await open_sqlite_store(path, embedding=EMBEDDING)
    try:
        await target.delete_episode(VIEWER, "e2", reason="lost in transit", at=at(9))
        mismatched, searches = await verify(source, source_store, target, sample=10)
    finally:
        await source_store.close()
        await source.close()
        await target.close()

    assert [item.scope for item in mismatched] == [VIEWER]
    assert not all(search.matched for search in searches if search.scope == VIEWER)


def test_only_sqlite_urls_are_migrated_from() -> None:
    nowhere = ServerConfig(database_url="postgresql://nowhere/db", qdrant_url="http://127.0.0.1:9")
    result = run_command(nowhere, "migrate", "--from", "postgresql://elsewhere/db")
    assert result.exit_code == 1
    assert "sqlite:///" in result.output

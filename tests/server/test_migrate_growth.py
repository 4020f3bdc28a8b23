"""``omoide migrate`` also moves the growth store: identity versions (rollback works after
the move), pending changes, stream logs, diary jobs and viewers' work."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import apsw
import pytest

from omoide.character.identity import IdentityPolicy, IdentityService
from omoide.character.library import CharacterLibrary
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Scope, ScoringMethod
from omoide.embed.hashing import HashingEmbedder
from omoide.metrics import Metrics
from omoide.store.base import EmbeddingInfo, TurnWrite
from omoide.store.records.identity import ChangeStatus
from omoide.store.records.stream import CommentEntry, LoggedComment, diary_episode_id
from omoide.store.server import ServerConfig, open_server_store
from omoide.store.server.database import Database
from omoide.store.server.growth import PostgresGrowthStore
from omoide.store.server.sqlite_source import open_sqlite_source
from omoide.store.sqlite.growth import SqliteGrowthStore
from omoide.stream.service import GrowthStore
from omoide.wiring import build
from omoide.wiring.storage import MemoryBackend
from tests.server.servers import LocalServers
from tests.server.test_migrate import run_command
from tests.store.backends import ServerBackend, namespace_pool, server_config
from tests.stream.harness import START, comments

pytestmark = pytest.mark.anyio

EMBEDDER = HashingEmbedder(8)

HARU = "haru"
STREAM = "s1"
VIEWERS = ("minjun", "sora")
JOB_COLUMNS = "stream_id, number, reason, from_seq, to_seq, episode_id"


def identity(store: GrowthStore) -> IdentityService:
    return IdentityService(
        store=store.identity,
        characters=CharacterLibrary([]),
        policy=IdentityPolicy(),
        clock=FixedClock(START),
        metrics=Metrics(),
    )


@pytest.fixture
async def config(
    request: pytest.FixtureRequest, servers: LocalServers, tmp_path: Path
) -> AsyncIterator[ServerConfig]:
    """A namespace whose store is bound to the embedder the stream service runs with."""
    backend = ServerBackend(namespace_pool(request.config, servers))
    embedding = EmbeddingInfo(EMBEDDER.model_name, EMBEDDER.dimensions)
    await (await backend(tmp_path, "growth", embedding)).close()
    yield server_config(servers, backend.namespace_of(tmp_path, "growth"))
    await backend.give_back()


@dataclass(frozen=True)
class DataDir:
    embedding: EmbeddingInfo
    pending_change: str
    half_written_entry: str


async def embedded_data_dir(data_dir: Path) -> DataDir:
    """A stream with comments, diary entries and viewer summaries, some comments still
    waiting, a job whose entry was written but not yet noted, and identity versions with
    one change approved and one pending."""
    settings = Settings(
        data_dir=data_dir, llm="none", stream_diary_every=4, stream_viewer_batch_size=2
    )
    built = await build(settings, clock=FixedClock(START), embedder=EMBEDDER)
    try:
        service = built.streams
        for viewer in VIEWERS:
            texts = [f"{viewer} loves rainy days and ramen, number {n}" for n in range(3)]
            await service.ingest(HARU, STREAM, comments(texts, viewer=viewer, name=viewer))
        await service.flush_due(START, everything=True)
        later = comments(["sora is back for more ramen"], viewer="sora", name="sora")
        await service.ingest(HARU, STREAM, later)
        likes = list((await service.identity.current_profile(HARU)).likes)
        approved = await service.identity.propose(HARU, {"likes": [*likes, "ramen"]})
        assert approved.change_id is not None
        await service.identity.approve(HARU, approved.change_id)
        pending = await service.identity.propose(HARU, {"likes": [*likes, "ramen", "games"]})
        assert pending.change_id is not None
        entry = await _half_written_job(data_dir / "growth.sqlite3", built.store)
    finally:
        await built.aclose()
    source = await open_sqlite_source(data_dir / "omoide.sqlite3")
    await source.close()
    return DataDir(source.embedding, pending.change_id, entry)


async def _half_written_job(path: Path, store: MemoryBackend) -> str:
    """Two more pending jobs; the first one's entry is in the memory store already (the
    process died between writing it and noting it)."""
    growth = SqliteGrowthStore(path)
    try:
        quiet = [
            CommentEntry("mei", "mei", f"quiet {n}", START, "twitch", None, True, False, 0.3)
            for n in range(8)
        ]
        appended = await growth.append(HARU, "s2", quiet, diary_every=4, at=START)
        episode = Episode(
            id=diary_episode_id(appended.diary_jobs[0]),
            scope=Scope(HARU),
            user_message="an entry written just before the crash",
            bot_message="",
            recorded_at=START,
            importance=0.8,
            scoring=ScoringMethod.GIVEN,
            metadata={"kind": "diary", "stream_id": "s2"},
        )
        await store.write_turns(HARU, [TurnWrite(Scope(HARU), episode, None, None)])
        return episode.id
    finally:
        await growth.close()


def source_jobs(path: Path) -> list[tuple[object, ...]]:
    connection = apsw.Connection(str(path))
    try:
        query = f"SELECT {JOB_COLUMNS} FROM diary_jobs WHERE character_id = ? ORDER BY id"
        return [tuple(row) for row in connection.execute(query, (HARU,))]
    finally:
        connection.close()


async def target_jobs(database: Database) -> list[tuple[object, ...]]:
    query = f"SELECT {JOB_COLUMNS} FROM diary_jobs WHERE character_id = %s ORDER BY id"
    return [tuple(row) for row in await database.fetch_all(query, (HARU,))]


def without_log_ids(logged: Sequence[LoggedComment]) -> list[LoggedComment]:
    return [replace(comment, log_id=0) for comment in logged]


async def same_stream_records(source: GrowthStore, target: GrowthStore) -> None:
    """Streams, windows, summaries and waiting work read the same from both stores."""
    for stream in (STREAM, "s2"):
        assert await target.status(HARU, stream) == await source.status(HARU, stream)
    for viewer in (*VIEWERS, "mei"):
        summary = await source.viewer_summary(HARU, viewer)
        assert await target.viewer_summary(HARU, viewer) == summary
        mine = await source.claim_viewer_batch(HARU, viewer, limit=100)
        theirs = await target.claim_viewer_batch(HARU, viewer, limit=100)
        assert mine is not None and theirs is not None, viewer
        assert replace(theirs, comments=()) == replace(mine, comments=())
        assert without_log_ids(theirs.comments) == without_log_ids(mine.comments)
    pending = await source.claim_diary_jobs(character_id=HARU, stream_id="s2", limit=10)
    left = await target.claim_diary_jobs(character_id=HARU, stream_id="s2", limit=10)
    assert [job.number for job in pending] == [1, 2]
    assert [job.number for job in left] == [2], "the job whose entry is written is done"
    waiting = pending[-1]
    for job in (waiting, replace(waiting, stream_id=STREAM, from_seq=1, to_seq=4)):
        mine_window = await source.diary_window(job, sample=50, facts=50, top=5)
        their_window = await target.diary_window(job, sample=50, facts=50, top=5)
        assert their_window.stats == mine_window.stats and mine_window.stats.comments == 4
        assert their_window.learned == mine_window.learned
        assert without_log_ids(their_window.sample) == without_log_ids(mine_window.sample)


async def server_in_use(config: ServerConfig, embedding: EmbeddingInfo) -> None:
    """Another character's stream on the server already, so the file's comment and job ids
    are taken there and the copies get ids of their own."""
    store = await open_server_store(config, embedding=embedding)
    try:
        said = [
            CommentEntry("kai", "kai", f"hi {n}", START, "twitch", None, True, False, 0.3)
            for n in range(20)
        ]
        growth = PostgresGrowthStore(store.engines.database)
        await growth.append("aoi", "a1", said, diary_every=4, at=START)
    finally:
        await store.close()


def migrate(config: ServerConfig, data_dir: Path) -> Any:
    path = data_dir / "omoide.sqlite3"
    arguments = ("migrate", "--from", f"sqlite:///{path}", "--to", "server", "--json")
    return run_command(config, *arguments)


async def test_migrate_copies_identity_and_stream_logs_so_rollback_works_after(
    config: ServerConfig, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    made = await embedded_data_dir(data_dir)
    expected_jobs = source_jobs(data_dir / "growth.sqlite3")
    await server_in_use(config, made.embedding)

    first = await anyio.to_thread.run_sync(lambda: migrate(config, data_dir))
    again = await anyio.to_thread.run_sync(lambda: migrate(config, data_dir))

    assert first.exit_code == 0, first.output
    growth = json.loads(first.output)["growth"]
    assert growth["verified"] and growth["copied"] == growth["total"]
    expected = {"streams": 2, "comments": 15, "viewers": 3, "summaries": 2, "diary_jobs": 3}
    expected |= {"versions": 2, "changes": 2}
    assert {name: growth["total"][name] for name in expected} == expected
    assert again.exit_code == 0, again.output
    repeated = json.loads(again.output)["growth"]
    assert set(repeated["copied"].values()) == {0} and repeated["kept"] == [HARU]

    source = SqliteGrowthStore(data_dir / "growth.sqlite3", clock=FixedClock(START))
    store = await open_server_store(config, embedding=made.embedding)
    target = PostgresGrowthStore(store.engines.database, clock=FixedClock(START))
    try:
        versions = await source.identity.list_versions(HARU)
        assert await target.identity.list_versions(HARU) == versions
        changes = await source.identity.list_changes(HARU, status=None)
        assert await target.identity.list_changes(HARU, status=None) == changes
        (pending,) = await target.identity.list_changes(HARU, status=ChangeStatus.PENDING)
        assert pending.id == made.pending_change
        await same_stream_records(source, target)
        (half_written,) = [job for job in expected_jobs if job[:2] == ("s2", 1)]
        finished = (*half_written[:5], made.half_written_entry)
        assert await target_jobs(store.engines.database) == [
            finished if job == half_written else job for job in expected_jobs
        ], "the same jobs; the one whose entry was written is noted as finished"

        service = identity(target)
        approved = await service.approve(HARU, made.pending_change, at=START + timedelta(hours=1))
        rolled = await service.rollback(HARU, 0, at=START + timedelta(hours=2))
    finally:
        await source.close()
        await store.close()
    assert approved.number == 2
    assert approved.profile.likes == (*versions[0].profile.likes, "ramen", "games")
    assert rolled.number == 3 and rolled.profile == versions[0].profile, "exactly the file's"


async def test_migrate_leaves_a_history_the_server_already_has_and_says_so(
    config: ServerConfig, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    made = await embedded_data_dir(data_dir)
    store = await open_server_store(config, embedding=made.embedding)
    try:
        own = CommentEntry("aoi", "aoi", "hello", START, "twitch", None, True, False, 0.3)
        await PostgresGrowthStore(store.engines.database).append(
            HARU, "server-stream", [own], diary_every=10, at=START
        )
    finally:
        await store.close()

    result = await anyio.to_thread.run_sync(lambda: migrate(config, data_dir))

    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["verified"] is False and report["growth"]["kept"] == [HARU]
    (differs,) = report["growth"]["mismatched"]
    assert differs["character_id"] == HARU and differs["target"]["streams"] == 1
    assert differs["source"]["streams"] == 2
    assert set(report["growth"]["copied"].values()) == {0}, "nothing mixed in"
    path = data_dir / "omoide.sqlite3"
    shown = await anyio.to_thread.run_sync(
        lambda: run_command(config, "migrate", "--from", f"sqlite:///{path}")
    )
    assert shown.exit_code == 1
    assert "growth of 'haru' was already on the server" in shown.output
    assert "growth counts differ" in shown.output and "NOT verified" in shown.output

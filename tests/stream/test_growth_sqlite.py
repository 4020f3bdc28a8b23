"""The SQLite growth logs' own file: it survives reopening and records its migrations.

What both backends share is tested in tests/stream/test_growth_store.py."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import apsw
import pytest

from omoide.character.library import CharacterLibrary
from omoide.clock import FixedClock
from omoide.errors import Conflict
from omoide.store.claims import Claimant
from omoide.store.records.identity import IdentityVersion
from omoide.store.records.stream import CommentEntry
from omoide.store.sqlite.growth import MIGRATIONS
from omoide.wiring.storage import sqlite_growth
from tests.stream.harness import START


@pytest.mark.anyio
async def test_versions_are_unique_and_survive_reopening(tmp_path: Path) -> None:
    profile = (await CharacterLibrary([]).load("haru")).profile
    path = tmp_path / "growth.sqlite3"
    store = sqlite_growth(path)
    version = IdentityVersion("haru", 0, profile, (), "the profile file", START)
    await store.identity.add_version(version)
    with pytest.raises(Conflict):
        await store.identity.add_version(version)
    await store.aclose()
    reopened = sqlite_growth(path)
    assert await reopened.identity.latest_version("haru") == version
    assert await reopened.identity.list_versions("other") == []
    await reopened.aclose()
    connection = apsw.Connection(str(path))
    recorded = connection.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()
    connection.close()
    assert recorded == [(migration.version,) for migration in MIGRATIONS]


@pytest.mark.anyio
async def test_a_file_counted_with_user_version_is_adopted_without_rerunning(
    tmp_path: Path,
) -> None:
    """A growth file written before ``schema_migrations`` counted its migrations in
    ``PRAGMA user_version``: opening it runs none of them again (each would fail: its
    tables exist), records them, and finds what it holds."""
    path = tmp_path / "growth.sqlite3"
    connection = apsw.Connection(str(path))
    for migration in MIGRATIONS[:2]:
        with connection:
            migration.apply(connection)
    connection.execute("PRAGMA user_version = 2")
    connection.close()
    store = sqlite_growth(path)
    try:
        said = CommentEntry("v", "V", "hi", START, "twitch", None, True, True, 0.5)
        await store.stream.append("c", "s1", [said], diary_every=1, at=START)
        assert (await store.stream.status("c", "s1")).comment_count == 1
        assert (
            await store.viewer_work.claim_viewer_batch("c", "v", limit=5) is not None
        )  # claims: v3
    finally:
        await store.aclose()
    connection = apsw.Connection(str(path))
    recorded = connection.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()
    connection.close()
    assert recorded == [(1,), (2,), (3,)]


@pytest.mark.anyio
async def test_two_stores_on_one_file_claim_work_as_two_instances_would(tmp_path: Path) -> None:
    """The embedded file claims work like the server store (the same Protocol): here two
    store objects on one file stand in for two processes."""
    clock = FixedClock(START)
    path = tmp_path / "growth.sqlite3"
    one = sqlite_growth(path, claimant=Claimant(clock=FixedClock(START), claim_seconds=60))
    two = sqlite_growth(path, claimant=Claimant(clock=clock, claim_seconds=60))
    jobs = two.diary_jobs
    try:
        said = CommentEntry("v", "V", "hi", START, "twitch", None, True, True, 0.5)
        await one.stream.append("c", "s1", [said], diary_every=1, at=START)
        (job,) = await one.diary_jobs.claim_diary_jobs(character_id=None, stream_id=None, limit=5)
        batch = await one.viewer_work.claim_viewer_batch("c", "v", limit=5)
        assert batch is not None
        assert await jobs.claim_diary_jobs(character_id=None, stream_id=None, limit=5) == []
        assert await two.viewer_work.claim_viewer_batch("c", "v", limit=5) is None
        clock.set(START + timedelta(seconds=59))
        assert await jobs.claim_diary_jobs(character_id=None, stream_id=None, limit=5) == []
        clock.set(START + timedelta(seconds=60))
        assert await jobs.claim_diary_jobs(character_id=None, stream_id=None, limit=5) == [job]
        assert await two.viewer_work.claim_viewer_batch("c", "v", limit=5) == batch
    finally:
        await one.aclose()
        await two.aclose()

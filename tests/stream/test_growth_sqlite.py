"""The growth store on a real SQLite file: numbering, counters, queues, versions."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import apsw
import pytest

from omoide.character.identity_store import IdentityVersion
from omoide.character.library import CharacterLibrary
from omoide.errors import Conflict, NotFound
from omoide.store.growth_sqlite import MIGRATIONS, SqliteGrowthStore
from omoide.stream.records import CommentEntry, DiaryReason, LearnedFact, ViewerSummaryRecord
from tests.stream.harness import START


def entry(viewer: str, text: str, *, signal: bool = True, seconds: int = 0) -> CommentEntry:
    return CommentEntry(
        viewer_id=viewer,
        display_name=viewer.upper(),
        text=text,
        time=START + timedelta(seconds=seconds),
        platform="twitch",
        reply=None,
        signal=signal,
        stored=signal,
        importance=0.5,
        signals=("preference",) if signal else (),
        topics=("games",) if signal else (),
        learned=(LearnedFact(viewer, viewer.upper(), "add", "f1", f"likes {text}"),)
        if signal
        else (),
    )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteGrowthStore]:
    growth = SqliteGrowthStore(tmp_path / "growth.sqlite3")
    yield growth
    growth.close()


@pytest.mark.anyio
async def test_comments_are_numbered_per_stream_and_jobs_queued_per_threshold(
    store: SqliteGrowthStore,
) -> None:
    first = await store.append(
        "c", "s1", [entry("a", "x"), entry("b", "y")], diary_every=3, at=START
    )
    assert (first.status.comment_count, first.diary_jobs) == (2, ())
    second = await store.append(
        "c", "s1", [entry("a", str(n), seconds=n) for n in range(5)], diary_every=3, at=START
    )
    assert second.status.comment_count == 7
    assert [(job.number, job.from_seq, job.to_seq) for job in second.diary_jobs] == [
        (1, 1, 3),
        (2, 4, 6),
    ]
    other = await store.append("c", "s2", [entry("a", "z")], diary_every=3, at=START)
    assert other.status.comment_count == 1, "another stream counts on its own"
    window = await store.diary_window(second.diary_jobs[1], sample=10, facts=10, top=5)
    assert [comment.seq for comment in window.sample] == [4, 5, 6]
    assert window.stats.comments == 3 and window.stats.top_viewers == (("A", 3),)
    assert window.stats.topics == (("games", 3),)
    assert [fact.text for fact in window.learned] == ["likes 1", "likes 2", "likes 3"]
    end = await store.end("c", "s1", at=START)
    assert (end.reason, end.from_seq, end.to_seq, end.number) == (DiaryReason.END, 7, 7, 3)
    pending = await store.pending_diary_jobs(character_id="c", stream_id="s1", limit=10)
    assert [job.number for job in pending] == [1, 2, 3]
    await store.finish_diary_job(pending[0], episode_id="e1")
    assert len(await store.pending_diary_jobs(character_id=None, stream_id=None, limit=10)) == 2
    with pytest.raises(Conflict):
        await store.end("c", "s1", at=START)
    with pytest.raises(NotFound):
        await store.end("c", "nope", at=START)


@pytest.mark.anyio
async def test_viewer_work_waits_for_size_or_idle_time(store: SqliteGrowthStore) -> None:
    later = START + timedelta(minutes=10)
    batch = [entry("a", str(n)) for n in range(3)] + [entry("a", "ww", signal=False)]
    await store.append("c", "s1", batch, diary_every=100, at=START)
    await store.append("c", "s1", [entry("b", "hi")], diary_every=100, at=later)
    assert await store.due_viewers(batch_size=3, idle_before=START, limit=10) == [("c", "a")]
    assert await store.due_viewers(batch_size=5, idle_before=START, limit=10) == [("c", "a")]
    assert await store.due_viewers(batch_size=5, idle_before=START - timedelta(1), limit=10) == []
    assert len(await store.due_viewers(batch_size=5, idle_before=None, limit=10)) == 2
    work = await store.viewer_batch("c", "a", limit=2)
    assert work is not None and [c.entry.text for c in work.comments] == ["0", "1"]
    assert work.messages_seen == 4, "low-signal comments are seen, not queued"
    summary = ViewerSummaryRecord("c", "a", "A", "likes games", "llm", 4, START)
    await store.finish_viewer_batch(work, summary=summary, learned=[])
    assert await store.viewer_summary("c", "a") == summary
    rest = await store.viewer_batch("c", "a", limit=10)
    assert rest is not None and [c.entry.text for c in rest.comments] == ["2"]
    assert rest.previous == summary
    await store.finish_viewer_batch(rest, summary=None, learned=[])
    assert await store.viewer_batch("c", "a", limit=10) is None
    assert await store.due_viewers(batch_size=1, idle_before=None, limit=10) == [("c", "b")]


@pytest.mark.anyio
async def test_versions_are_unique_and_survive_reopening(tmp_path: Path) -> None:
    profile = (await CharacterLibrary([]).load("haru")).profile
    path = tmp_path / "growth.sqlite3"
    store = SqliteGrowthStore(path)
    version = IdentityVersion("haru", 0, profile, (), "the profile file", START)
    await store.add_version(version)
    with pytest.raises(Conflict):
        await store.add_version(version)
    store.close()
    reopened = SqliteGrowthStore(path)
    assert await reopened.latest_version("haru") == version
    assert await reopened.list_versions("other") == []
    reopened.close()
    connection = apsw.Connection(str(path))
    assert connection.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
    connection.close()

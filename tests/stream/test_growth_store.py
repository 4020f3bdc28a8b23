"""The growth logs on both backends (SQLite file, PostgreSQL) from the same tests:
numbering, counters, queues, versions, and the Protocol's exact signatures. Several
PostgreSQL instances writing at once: tests/server/test_growth_server.py."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, timedelta, timezone

import pytest

from omoide.character.identity_store import ChangeStore, IdentityVersionStore
from omoide.character.library import CharacterLibrary
from omoide.errors import Conflict, NotFound
from omoide.privacy.viewer_data import IdentityTexts, ViewerLog
from omoide.store.records.identity import (
    ChangeStatus,
    FieldChange,
    IdentityVersion,
    PendingChange,
    RefusedField,
)
from omoide.store.records.stream import (
    Appended,
    CommentEntry,
    DiaryReason,
    LearnedFact,
    ViewerSummaryRecord,
)
from omoide.store.server.diary_jobs import PostgresDiaryJobs
from omoide.store.server.growth import PostgresStreamLog
from omoide.store.server.growth_identity import PostgresIdentityTables
from omoide.store.server.growth_viewers import PostgresViewerRows
from omoide.store.server.viewer_work import PostgresViewerWork
from omoide.store.sqlite.diary_jobs import SqliteDiaryJobs
from omoide.store.sqlite.growth import SqliteStreamLog
from omoide.store.sqlite.growth_viewers import SqliteViewerRows
from omoide.store.sqlite.identity import IdentityTables
from omoide.store.sqlite.viewer_work import SqliteViewerWork
from omoide.stream.logs import DiaryJobLog, StreamLog, ViewerWorkLog
from omoide.wiring.storage import GrowthLogs
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


@pytest.mark.anyio
async def test_comments_are_numbered_per_stream_and_jobs_queued_per_threshold(
    growth: GrowthLogs,
) -> None:
    first = await growth.stream.append(
        "c", "s1", [entry("a", "x"), entry("b", "y")], diary_every=3, at=START
    )
    assert (first.status.comment_count, first.diary_jobs) == (2, ())
    second = await growth.stream.append(
        "c", "s1", [entry("a", str(n), seconds=n) for n in range(5)], diary_every=3, at=START
    )
    assert second.status.comment_count == 7
    assert [(job.number, job.from_seq, job.to_seq) for job in second.diary_jobs] == [
        (1, 1, 3),
        (2, 4, 6),
    ]
    other = await growth.stream.append("c", "s2", [entry("a", "z")], diary_every=3, at=START)
    assert other.status.comment_count == 1, "another stream counts on its own"
    window = await growth.diary_jobs.diary_window(second.diary_jobs[1], sample=10, facts=10, top=5)
    assert [comment.seq for comment in window.sample] == [4, 5, 6]
    assert window.stats.comments == 3 and window.stats.top_viewers == (("A", 3),)
    assert window.stats.topics == (("games", 3),)
    assert [fact.text for fact in window.learned] == ["likes 1", "likes 2", "likes 3"]
    end = await growth.stream.end("c", "s1", at=START)
    assert (end.reason, end.from_seq, end.to_seq, end.number) == (DiaryReason.END, 7, 7, 3)
    pending = await growth.diary_jobs.claim_diary_jobs(character_id="c", stream_id="s1", limit=10)
    assert [job.number for job in pending] == [1, 2, 3]
    await growth.diary_jobs.finish_diary_job(pending[0], episode_id="e1")
    assert (
        len(await growth.diary_jobs.claim_diary_jobs(character_id=None, stream_id=None, limit=10))
        == 2
    )
    with pytest.raises(Conflict):
        await growth.stream.end("c", "s1", at=START)
    with pytest.raises(NotFound):
        await growth.stream.end("c", "nope", at=START)


@pytest.mark.anyio
async def test_viewer_work_waits_for_size_or_idle_time(growth: GrowthLogs) -> None:
    work_log = growth.viewer_work
    later = START + timedelta(minutes=10)
    batch = [entry("a", str(n)) for n in range(3)] + [entry("a", "ww", signal=False)]
    await growth.stream.append("c", "s1", batch, diary_every=100, at=START)
    await growth.stream.append("c", "s1", [entry("b", "hi")], diary_every=100, at=later)
    assert await work_log.due_viewers(batch_size=3, idle_before=START, limit=10) == [("c", "a")]
    assert await work_log.due_viewers(batch_size=5, idle_before=START, limit=10) == [("c", "a")]
    assert (
        await work_log.due_viewers(batch_size=5, idle_before=START - timedelta(1), limit=10) == []
    )
    assert len(await work_log.due_viewers(batch_size=5, idle_before=None, limit=10)) == 2
    work = await work_log.claim_viewer_batch("c", "a", limit=2)
    assert work is not None and [c.entry.text for c in work.comments] == ["0", "1"]
    assert work.messages_seen == 4, "low-signal comments are seen, not queued"
    summary = ViewerSummaryRecord("c", "a", "A", "likes games", "llm", 4, START)
    await work_log.finish_viewer_batch(work, summary=summary, learned=[])
    assert await work_log.viewer_summary("c", "a") == summary
    rest = await work_log.claim_viewer_batch("c", "a", limit=10)
    assert rest is not None and [c.entry.text for c in rest.comments] == ["2"]
    assert rest.previous == summary
    await work_log.finish_viewer_batch(rest, summary=None, learned=[])
    assert await work_log.claim_viewer_batch("c", "a", limit=10) is None
    assert await work_log.due_viewers(batch_size=1, idle_before=None, limit=10) == [("c", "b")]


@pytest.mark.anyio
async def test_one_viewers_rows_are_exported_and_forgotten_alone(growth: GrowthLogs) -> None:
    await growth.stream.append(
        "c", "s1", [entry("a", "x"), entry("b", "y")], diary_every=100, at=START
    )
    batch = await growth.viewer_work.claim_viewer_batch("c", "a", limit=10)
    assert batch is not None
    summary = ViewerSummaryRecord("c", "a", "A", "said x", "llm", 1, START)
    await growth.viewer_work.finish_viewer_batch(batch, summary=summary, learned=[])
    kept = await growth.viewer_rows.viewer_data("c", "a")
    assert [c.entry.text for c in kept.comments] == ["x"] and kept.summary == summary
    assert [f.text for f in kept.learned] == ["likes x"] and kept.work is not None
    assert (await growth.viewer_rows.forget_viewer("c", "a")) == kept
    gone = replace(kept, comments=(), learned=(), summary=None, work=None)
    assert await growth.viewer_rows.viewer_data("c", "a") == gone
    assert [c.entry.text for c in (await growth.viewer_rows.viewer_data("c", "b")).comments] == [
        "y"
    ]
    assert (await growth.stream.status("c", "s1")).comment_count == 2, (
        "the stream keeps its numbers"
    )


@pytest.mark.anyio
async def test_a_batch_finished_after_its_viewer_was_forgotten_keeps_nothing(
    growth: GrowthLogs,
) -> None:
    await growth.stream.append("c", "s1", [entry("a", "x")], diary_every=100, at=START)
    batch = await growth.viewer_work.claim_viewer_batch("c", "a", limit=10)
    assert batch is not None
    await growth.viewer_rows.forget_viewer("c", "a")
    summary = ViewerSummaryRecord("c", "a", "A", "said x", "llm", 1, START)
    learned = [LearnedFact("a", "A", "add", "f2", "likes x")]
    await growth.viewer_work.finish_viewer_batch(batch, summary=summary, learned=learned)
    left = await growth.viewer_rows.viewer_data("c", "a")
    assert (left.comments, left.learned, left.summary, left.work) == ((), (), None, None)


@pytest.mark.anyio
async def test_a_window_counts_replies_low_signal_and_ranks_ties_by_name(
    growth: GrowthLogs,
) -> None:
    tokyo = timezone(timedelta(hours=9))
    comments = [
        replace(entry("b", "one", seconds=1), reply="hi b", time=START.astimezone(tokyo)),
        entry("a", "lol", signal=False, seconds=2),
        replace(entry("a", "two", seconds=3), signals=("question", "preference")),
    ]
    appended = await growth.stream.append("c", "s1", comments, diary_every=3, at=START)
    (job,) = appended.diary_jobs
    assert appended.status.started_at == START and appended.status.started_at.tzinfo == UTC
    assert appended.status.last_comment_at == START + timedelta(seconds=3)
    window = await growth.diary_jobs.diary_window(job, sample=1, facts=1, top=5)
    stats = window.stats
    assert (stats.comments, stats.viewers, stats.low_signal, stats.stored, stats.replied) == (
        3,
        2,
        1,
        2,
        1,
    )
    assert (stats.first_time, stats.last_time) == (START, START + timedelta(seconds=3))
    assert stats.top_viewers == (("A", 2), ("B", 1))
    assert stats.signals == (("preference", 2), ("question", 1))
    assert [c.seq for c in window.sample] == [1], "one sampled, and the replied one"
    assert (
        window.sample[0].entry == replace(comments[0], learned=())
        and window.sample[0].entry.time.tzinfo == UTC
    )
    assert [fact.text for fact in window.learned] == ["likes one"]


@pytest.mark.anyio
async def test_a_stream_ended_and_resumed_can_end_again(growth: GrowthLogs) -> None:
    await growth.stream.append("c", "s1", [entry("a", "x")], diary_every=10, at=START)
    first = await growth.stream.end("c", "s1", at=START)
    nothing = await growth.stream.append("c", "s1", [], diary_every=1, at=START + timedelta(1))
    ended = await growth.stream.status("c", "s1")
    resumed = await growth.stream.append("c", "s1", [entry("a", "y")], diary_every=10, at=START)
    second = await growth.stream.end("c", "s1", at=START + timedelta(hours=1))

    assert (first.from_seq, first.to_seq, second.from_seq, second.to_seq) == (1, 1, 2, 2)
    assert nothing == Appended(ended, ()), "an empty batch neither resumes nor counts"
    assert ended.ended_at == START and resumed.status.ended_at is None
    assert (await growth.stream.status("c", "s1")).ended_at == START + timedelta(hours=1)
    with pytest.raises(NotFound):
        await growth.stream.status("c", "other")


@pytest.mark.anyio
async def test_versions_are_unique_and_decisions_saved_with_them(growth: GrowthLogs) -> None:
    profile = (await CharacterLibrary([]).load("haru")).profile
    first = IdentityVersion("haru", 0, profile, (), "the profile file", START)
    await growth.identity.add_version(first)
    with pytest.raises(Conflict, match="version 0"):
        await growth.identity.add_version(first)
    change = PendingChange(
        "ch1",
        "haru",
        0,
        (FieldChange("likes", profile.likes, ("rain", "게임")),),
        (RefusedField("name", "protected"),),
        START,
        diary_entry_id="d1",
    )
    await growth.identity.add_change(change)
    await growth.identity.add_change(replace(change, id="ch2", created_at=START + timedelta(1)))
    renamed = profile.model_copy(update={"likes": ("rain", "게임")})
    second = IdentityVersion("haru", 1, renamed, change.changes, "approved", START, "d1", "ch1")
    decided = replace(change, status=ChangeStatus.APPROVED, decided_at=START, version=1)
    await growth.identity.add_version(second, decided=decided)

    assert await growth.identity.list_versions("haru") == [first, second]
    assert await growth.identity.latest_version("haru") == second
    assert await growth.identity.get_change("haru", "ch1") == decided
    pending = await growth.identity.list_changes("haru", status=ChangeStatus.PENDING)
    assert [c.id for c in pending] == ["ch2"]
    assert [c.id for c in await growth.identity.list_changes("haru", status=None)] == ["ch1", "ch2"]
    with pytest.raises(NotFound):
        await growth.identity.get_change("aoi", "ch1")
    assert await growth.identity.latest_version("aoi") is None


@pytest.mark.anyio
async def test_identity_texts_are_rewritten_in_place(growth: GrowthLogs) -> None:
    profile = (await CharacterLibrary([]).load("haru")).profile
    liked = profile.model_copy(update={"likes": ("Zorbla plushies",)})
    changes = (FieldChange("likes", profile.likes, liked.likes),)
    version = IdentityVersion("haru", 1, liked, changes, "approved ch1", START, "d1", "ch1")
    other = replace(version, character_id="aoi")
    change = PendingChange("ch1", "haru", None, changes, (RefusedField("x", "Zorbla"),), START)
    for each in (version, other):
        await growth.identity.add_version(each)
    await growth.identity.add_change(change)
    plain = profile.model_copy(update={"likes": ("plushies",)})
    kept = (FieldChange("likes", profile.likes, plain.likes),)
    rewritten = replace(version, profile=plain, changes=kept, reason="approved")
    redacted = replace(change, changes=kept, refused=(RefusedField("x", "gone"),))
    await growth.identity.rewrite_identity([rewritten], [redacted])
    assert await growth.identity.list_versions("haru") == [rewritten]
    assert await growth.identity.list_versions("aoi") == [other], "matched by character and number"
    assert await growth.identity.get_change("haru", "ch1") == redacted


def protocol_methods(protocol: type) -> dict[str, Callable[..., object]]:
    """Every method ``protocol`` declares."""
    return {
        name: value
        for name, value in vars(protocol).items()
        if callable(value) and not name.startswith("_")
    }


def describe(function: Callable[..., object]) -> tuple[object, ...]:
    signature = inspect.signature(function)
    parameters = tuple(
        (p.name, p.kind, p.default, str(p.annotation)) for p in signature.parameters.values()
    )
    return parameters, str(signature.return_annotation), inspect.iscoroutinefunction(function)


SEAMS = [
    (StreamLog, SqliteStreamLog, PostgresStreamLog),
    (DiaryJobLog, SqliteDiaryJobs, PostgresDiaryJobs),
    (ViewerWorkLog, SqliteViewerWork, PostgresViewerWork),
    (ViewerLog, SqliteViewerRows, PostgresViewerRows),
    (IdentityVersionStore, IdentityTables, PostgresIdentityTables),
    (ChangeStore, IdentityTables, PostgresIdentityTables),
    (IdentityTexts, IdentityTables, PostgresIdentityTables),
]


@pytest.mark.parametrize(("seam", "embedded", "server"), SEAMS)
def test_each_log_of_each_backend_has_exactly_its_seams_signatures(
    seam: type, embedded: type, server: type
) -> None:
    methods = protocol_methods(seam)
    assert 1 <= len(methods) <= 6, "a seam is a handful of methods"
    for implementation in (embedded, server):
        for name, method in methods.items():
            assert describe(getattr(implementation, name)) == describe(method), name


def test_the_logs_are_passed_separately() -> None:
    """No log object carries another: each backend class implements one log's seam."""
    logs = {StreamLog, DiaryJobLog, ViewerWorkLog, ViewerLog}
    for _, embedded, server in SEAMS[:4]:
        for implementation in (embedded, server):
            implemented = {
                log for log in logs if set(protocol_methods(log)) <= set(dir(implementation))
            }
            assert len(implemented) == 1, implementation

"""The PostgreSQL growth logs with several instances writing at once.

Each "instance" is a connection pool of its own on the same database, as two service
processes behind a load balancer would have. What both backends share is tested in
tests/stream/test_growth_store.py and tests/stream/test_identity.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from functools import partial

import anyio
import psycopg
import pytest

from omoide.character.identity import IdentityService, OutcomeStatus
from omoide.character.identity_policy import IdentityPolicy
from omoide.character.library import CharacterLibrary
from omoide.clock import FixedClock
from omoide.errors import Conflict
from omoide.metrics import Metrics
from omoide.store.claims import Claimant
from omoide.store.records.stream import CommentEntry
from omoide.wiring.server import server_growth
from omoide.wiring.storage import GrowthLogs
from tests.server.servers import LocalServers
from tests.store.backends import with_search_path
from tests.stream.growth_backends import open_growth_database
from tests.stream.harness import START

pytestmark = pytest.mark.anyio

ROUNDS = 12


@pytest.fixture
async def instances(
    servers: LocalServers, namespace: str
) -> AsyncIterator[tuple[GrowthLogs, GrowthLogs]]:
    async with (
        open_growth_database(servers, namespace) as one,
        open_growth_database(servers, namespace) as two,
    ):
        yield server_growth(one), server_growth(two)


def comment(viewer: str, text: str) -> CommentEntry:
    return CommentEntry(viewer, viewer.upper(), text, START, "twitch", None, True, True, 0.5)


def identity(store: GrowthLogs) -> IdentityService:
    return IdentityService(
        versions=store.identity,
        changes=store.identity,
        characters=CharacterLibrary([]),
        policy=IdentityPolicy(auto_apply=True, max_list_changes=100),
        clock=FixedClock(START),
        metrics=Metrics(),
    )


async def test_two_writers_racing_for_version_numbers_never_share_one(
    instances: tuple[GrowthLogs, GrowthLogs],
) -> None:
    outcomes: dict[str, list[str]] = {"applied": [], "conflict": []}

    async def propose(store: GrowthLogs, number: int) -> None:
        try:
            outcome = await identity(store).propose("haru", {"likes": [f"rain {number}"]})
            assert outcome.status is OutcomeStatus.APPLIED, outcome.message
            outcomes["applied"].append(f"rain {number}")
        except Conflict:
            outcomes["conflict"].append(f"rain {number}")

    for round_number in range(ROUNDS):
        async with anyio.create_task_group() as group:
            for writer, store in enumerate(instances):
                group.start_soon(propose, store, 2 * round_number + writer)

    versions = await instances[0].identity.list_versions("haru")
    numbers = [version.number for version in versions]
    assert numbers == list(range(len(numbers))), "numbered 0, 1, 2, ... with no gap or twin"
    applied = [version.profile.likes[-1] for version in versions[1:]]
    assert sorted(applied) == sorted(outcomes["applied"]), "every success is one version"
    assert len(applied) + len(outcomes["conflict"]) == 2 * ROUNDS
    assert outcomes["conflict"], "the writers did race (else this test proves nothing)"


async def test_two_instances_appending_to_one_stream_number_every_comment_once(
    instances: tuple[GrowthLogs, GrowthLogs],
) -> None:
    async def write(store: GrowthLogs, writer: int) -> None:
        for batch in range(ROUNDS):
            texts = [f"{writer}-{batch}-{n}" for n in range(3)]
            at = START + timedelta(seconds=batch)
            await store.stream.append(
                "c", "s1", [comment("v", t) for t in texts], diary_every=5, at=at
            )

    async with anyio.create_task_group() as group:
        for writer, store in enumerate(instances):
            group.start_soon(write, store, writer)

    status = await instances[1].stream.status("c", "s1")
    jobs = await instances[0].diary_jobs.claim_diary_jobs(
        character_id="c", stream_id="s1", limit=100
    )
    windows = [(job.number, job.from_seq, job.to_seq) for job in jobs]
    assert status.comment_count == 2 * ROUNDS * 3
    assert windows == [(n, 5 * n - 4, 5 * n) for n in range(1, status.comment_count // 5 + 1)]
    batch = await instances[0].viewer_work.claim_viewer_batch("c", "v", limit=1000)
    assert batch is not None
    assert sorted(c.seq for c in batch.comments) == list(range(1, status.comment_count + 1))


SLOW_INSERTS = """
    CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN PERFORM pg_sleep(0.5); RETURN NEW; END $$;
    CREATE TRIGGER slow_insert BEFORE INSERT ON stream_comments FOR EACH ROW
        WHEN (NEW.stream_id = 'slow') EXECUTE FUNCTION slow_insert();
"""


@pytest.fixture
async def slow_stream(
    servers: LocalServers, namespace: str
) -> AsyncIterator[psycopg.AsyncConnection]:
    """Inserting a comment of stream ``slow`` takes half a second (a trigger), so a test can
    act while an append is half done; the connection watches the other sessions."""
    url = with_search_path(servers.database_url, namespace)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        await connection.execute(SLOW_INSERTS)
        try:
            yield connection
        finally:
            await connection.execute(
                "DROP TRIGGER slow_insert ON stream_comments; DROP FUNCTION slow_insert()"
            )


async def wait_for_sessions(
    connection: psycopg.AsyncConnection, condition: str, count: int
) -> None:
    """Until ``count`` other sessions of this database match ``condition`` (5 s at most)."""
    query = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        f"AND pid <> pg_backend_pid() AND {condition}"
    )
    with anyio.fail_after(5):
        while True:
            row = await (await connection.execute(query)).fetchone()
            if row is not None and row[0] >= count:
                return
            await anyio.sleep(0.01)


async def test_a_worker_never_skips_comments_another_instance_is_still_appending(
    instances: tuple[GrowthLogs, GrowthLogs],
    slow_stream: psycopg.AsyncConnection,
) -> None:
    """Instance one is half-way through appending viewer v's comment "a"; meanwhile the
    worker finishes v's earlier batch and instance two appends v's comment "b". Neither
    may overtake "a": a batch finished "through log id N" must not pass over a comment
    that commits later with a smaller id, and the pending count must include "a"."""
    one, two = instances
    await two.stream.append("c", "fast", [comment("v", "first")], diary_every=99, at=START)
    earlier = await one.viewer_work.claim_viewer_batch("c", "v", limit=10)
    assert earlier is not None

    async with anyio.create_task_group() as group:
        group.start_soon(
            partial(one.stream.append, diary_every=99, at=START), "c", "slow", [comment("v", "a")]
        )
        await wait_for_sessions(slow_stream, "wait_event = 'PgSleep'", 1)
        group.start_soon(
            partial(one.viewer_work.finish_viewer_batch, summary=None, learned=[]), earlier
        )
        await wait_for_sessions(slow_stream, "wait_event_type = 'Lock'", 1)
        group.start_soon(
            partial(two.stream.append, diary_every=99, at=START), "c", "fast", [comment("v", "b")]
        )

    assert await two.viewer_work.due_viewers(
        batch_size=2, idle_before=START - timedelta(1), limit=10
    ) == [("c", "v")], "both waiting comments are counted"
    rest = await two.viewer_work.claim_viewer_batch("c", "v", limit=10)
    assert rest is not None
    assert sorted(c.entry.text for c in rest.comments) == ["a", "b"]


LEASE = timedelta(minutes=5)
CLAIMED_JOBS = 24
JOBS_PER_CLAIM = 3
LOCK_WAIT = "wait_event_type = 'Lock'"


@pytest.fixture
async def clocked(
    servers: LocalServers, namespace: str
) -> AsyncIterator[tuple[tuple[GrowthLogs, FixedClock], ...]]:
    """Two instances, each with a clock of its own (a claim is as long as ``LEASE``)."""
    async with (
        open_growth_database(servers, namespace) as one,
        open_growth_database(servers, namespace) as two,
    ):
        pairs = []
        for database in (one, two):
            clock = FixedClock(START)
            claimant = Claimant(clock=clock, claim_seconds=LEASE.total_seconds())
            store = server_growth(database, claimant=claimant)
            pairs.append((store, clock))
        yield tuple(pairs)


async def test_two_instances_asking_at_once_each_take_a_diary_job_exactly_once(
    instances: tuple[GrowthLogs, GrowthLogs], servers: LocalServers, namespace: str
) -> None:
    """Round after round, both instances ask for jobs at the same moment: a third session
    holds the jobs table while both claims start, and lets go only once both are waiting
    for it. Whatever the load, no job is taken twice and none is left over."""
    texts = [comment("v", str(n)) for n in range(CLAIMED_JOBS)]
    await instances[0].stream.append("c", "s1", texts, diary_every=1, at=START)
    taken: dict[int, list[int]] = {0: [], 1: []}

    async def claim(number: int) -> None:
        jobs = await instances[number].diary_jobs.claim_diary_jobs(
            character_id=None, stream_id=None, limit=JOBS_PER_CLAIM
        )
        taken[number].extend(job.id for job in jobs)
        for job in jobs:  # the entries written
            await instances[number].diary_jobs.finish_diary_job(job, episode_id=f"e{job.id}")

    url = with_search_path(servers.database_url, namespace)
    async with (
        await psycopg.AsyncConnection.connect(url) as gate,
        await psycopg.AsyncConnection.connect(url, autocommit=True) as watch,
    ):
        for _ in range(CLAIMED_JOBS // (2 * JOBS_PER_CLAIM)):
            await gate.execute("LOCK TABLE diary_jobs IN EXCLUSIVE MODE")
            async with anyio.create_task_group() as group:
                group.start_soon(claim, 0)
                group.start_soon(claim, 1)
                await wait_for_sessions(watch, LOCK_WAIT, 2)  # both claims are in flight
                await gate.commit()

    every = taken[0] + taken[1]
    assert sorted(every) == sorted(set(every)), "no job was taken by both instances"
    assert len(every) == CLAIMED_JOBS, "and every job was taken"
    assert len(taken[0]) == len(taken[1]), "each took its share in every round"


RACED_VIEWERS = 6


async def test_two_instances_asking_at_once_each_take_a_viewer_batch_exactly_once(
    instances: tuple[GrowthLogs, GrowthLogs],
    servers: LocalServers,
    namespace: str,
) -> None:
    """Both instances are made to ask for each viewer at the same moment: a third session
    holds the viewer's work row while both claims start, and lets go only once both are
    waiting for it. Whatever the load, exactly one of them takes the batch."""
    viewers = [f"v{n:02}" for n in range(RACED_VIEWERS)]
    texts = [comment(viewer, f"hello from {viewer}") for viewer in viewers]
    await instances[0].stream.append("c", "s1", texts, diary_every=99, at=START)
    taken: dict[str, list[int]] = {viewer: [] for viewer in viewers}

    async def take(number: int, viewer: str) -> None:
        if (
            await instances[number].viewer_work.claim_viewer_batch("c", viewer, limit=10)
            is not None
        ):
            taken[viewer].append(number)

    url = with_search_path(servers.database_url, namespace)
    async with (
        await psycopg.AsyncConnection.connect(url) as gate,
        await psycopg.AsyncConnection.connect(url, autocommit=True) as watch,
    ):
        for position, viewer in enumerate(viewers):
            await gate.execute(
                "SELECT 1 FROM viewer_work WHERE character_id = 'c' AND viewer_id = %s FOR UPDATE",
                (viewer,),
            )
            async with anyio.create_task_group() as group:
                for number in (position % 2, 1 - position % 2):
                    group.start_soon(take, number, viewer)
                await wait_for_sessions(watch, LOCK_WAIT, 2)  # both claims are in flight
                await gate.commit()

    assert all(len(takers) == 1 for takers in taken.values()), taken
    held = {viewer: takers[0] for viewer, takers in taken.items()}
    for number, store in enumerate(instances):
        assert await store.viewer_work.due_viewers(batch_size=1, idle_before=None, limit=100) == [
            ("c", viewer) for viewer in viewers if held[viewer] == number
        ], "an instance passes over the viewers the other one holds"


async def test_work_held_by_an_instance_that_died_is_taken_again_after_the_lease(
    clocked: tuple[tuple[GrowthLogs, FixedClock], ...],
) -> None:
    (dead, _), (alive, clock) = clocked
    await alive.stream.append(
        "c", "s1", [comment("v", "a"), comment("v", "b")], diary_every=2, at=START
    )
    (job,) = await dead.diary_jobs.claim_diary_jobs(character_id="c", stream_id=None, limit=10)
    batch = await dead.viewer_work.claim_viewer_batch("c", "v", limit=10)
    assert batch is not None
    assert await dead.diary_jobs.claim_diary_jobs(character_id="c", stream_id=None, limit=10) == [
        job
    ], "a claim never hides work from its holder"

    clock.set(START + LEASE - timedelta(seconds=1))
    assert await alive.diary_jobs.claim_diary_jobs(character_id="c", stream_id=None, limit=10) == []
    assert await alive.viewer_work.claim_viewer_batch("c", "v", limit=10) is None
    assert await alive.viewer_work.due_viewers(batch_size=1, idle_before=None, limit=10) == []

    clock.set(START + LEASE)
    assert await alive.diary_jobs.claim_diary_jobs(character_id="c", stream_id=None, limit=10) == [
        job
    ]
    assert await alive.viewer_work.due_viewers(batch_size=1, idle_before=None, limit=10) == [
        ("c", "v")
    ]
    again = await alive.viewer_work.claim_viewer_batch("c", "v", limit=10)
    assert again is not None and again.comments == batch.comments

    await dead.viewer_work.finish_viewer_batch(batch, summary=None, learned=[])  # it was only slow
    await alive.stream.append("c", "s1", [comment("v", "c")], diary_every=99, at=START)
    assert await dead.viewer_work.claim_viewer_batch("c", "v", limit=10) is None, (
        "finishing a lapsed claim does not release the instance that holds it now"
    )
    await alive.viewer_work.finish_viewer_batch(again, summary=None, learned=[])
    rest = await dead.viewer_work.claim_viewer_batch("c", "v", limit=10)
    assert rest is not None and [c.entry.text for c in rest.comments] == ["c"]

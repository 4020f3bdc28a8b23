"""Character states and the durable turn queue in PostgreSQL, shared by every instance."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime

import pytest

from omoide.chat.conversation import TurnIntake
from omoide.clock import FixedClock
from omoide.domain import Scope, TurnInput
from omoide.errors import InvalidInput
from omoide.memory.drain import DrainedQueue
from omoide.privacy.viewer_data import ViewerQueue
from omoide.store.records.character_state import CharacterState
from omoide.store.server import Engines
from omoide.store.server.states import PostgresCharacterStateStore
from omoide.store.server.turn_queue import PostgresTurnQueue
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from tests.store.builders import at

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
CLOCK = FixedClock(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))


def state(intimacy: float) -> CharacterState:
    return CharacterState(
        emotion="joy",
        emotion_intensity=0.7,
        intimacy=intimacy,
        recent_topics=("게임", "ゲーム"),
        turn_count=3,
        last_interaction_at=at(5),
    )


async def test_states_round_trip_and_are_deleted_per_viewer_and_character(
    engines: Engines,
) -> None:
    states = PostgresCharacterStateStore(engines.database)
    other = Scope("haru", "sora")
    elsewhere = Scope("aoi", "minjun")
    for scope, intimacy in ((VIEWER, 0.2), (other, 0.4), (elsewhere, 0.6)):
        await states.save(scope, state(intimacy))
    await states.save(VIEWER, state(0.3))

    assert await states.load(VIEWER) == state(0.3)
    await states.delete(other)
    assert await states.load(other) is None
    await states.delete_character("haru")
    assert await states.load(VIEWER) is None
    assert await states.load(elsewhere) == state(0.6)
    with pytest.raises(InvalidInput):
        await states.load(Scope("haru"))


def turn(text: str) -> TurnInput:
    return TurnInput(scope=VIEWER, user_message=text)


async def test_accepted_turns_survive_and_are_taken_oldest_first(engines: Engines) -> None:
    first_instance = PostgresTurnQueue(engines.database, clock=CLOCK)
    accepted = await first_instance.put([turn("첫 번째"), turn("second")])
    second_instance = PostgresTurnQueue(engines.database, clock=CLOCK)

    taken = await second_instance.take(10)

    assert [queued.turn for queued in taken] == accepted
    assert all(item.timestamp == CLOCK.now() and item.turn_id for item in accepted)
    assert await second_instance.counts() == {"pending": 2, "failed": 0}
    await second_instance.done([queued.job_id for queued in taken])
    assert await first_instance.counts() == {"pending": 0, "failed": 0}


async def test_two_instances_never_take_the_same_turn_until_its_claim_expires(
    engines: Engines,
) -> None:
    one = PostgresTurnQueue(engines.database, clock=CLOCK)
    two = PostgresTurnQueue(engines.database, clock=CLOCK, claim_seconds=0.0)
    await one.put([turn(f"turn {index}") for index in range(4)])

    first = await one.take(3)
    second = await two.take(3)
    again = await one.take(3)  # ``two`` claimed for 0 s: its turn is free again

    assert [q.turn.user_message for q in first] == ["turn 0", "turn 1", "turn 2"]
    assert [q.turn.user_message for q in second] == ["turn 3"]
    assert [q.turn.user_message for q in again] == ["turn 3"]


async def test_failed_turns_are_retried_or_parked(engines: Engines) -> None:
    queue = PostgresTurnQueue(engines.database, clock=CLOCK)
    await queue.put([turn("retry me"), turn("park me")])
    retry, park = await queue.take(2)

    await queue.retry_later([retry.job_id], error="model down", park=False)
    await queue.retry_later([park.job_id], error="x" * 5000, park=True)

    assert await queue.counts() == {"pending": 1, "failed": 1}
    (retried,) = await queue.take(5)
    assert (retried.job_id, retried.attempts) == (retry.job_id, 1)


async def test_a_viewers_queued_turns_are_listed_and_forgotten_claimed_or_not(
    engines: Engines,
) -> None:
    queue = PostgresTurnQueue(engines.database, clock=CLOCK)
    mine = await queue.put([turn("claimed"), turn("waiting")])
    (theirs,) = await queue.put([TurnInput(scope=Scope("haru", "sora"), user_message="hi")])
    await queue.take(1)
    assert await queue.viewer_turns(VIEWER) == mine
    assert await queue.forget_viewer(VIEWER) == mine
    assert await queue.viewer_turns(VIEWER) == []
    assert [q.turn for q in await queue.take(10)] == [theirs]


def public_methods(cls: type) -> dict[str, str]:
    return {
        name: str(inspect.signature(member))
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_")
    }


def test_both_queues_have_the_same_methods_signature_for_signature() -> None:
    embedded = public_methods(SqliteTurnQueue)
    del embedded["scrub"]  # a local file's (privacy.viewer_data.Scrubbable)
    assert embedded == public_methods(PostgresTurnQueue)


@pytest.mark.parametrize("role", [TurnIntake, DrainedQueue, ViewerQueue])
def test_both_queues_play_each_role_exactly(role: type) -> None:
    for implementation in (SqliteTurnQueue, PostgresTurnQueue):
        methods = public_methods(implementation)
        for name, signature in public_methods(role).items():
            assert methods.get(name) == signature, (implementation.__name__, name)

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.domain import Scope, TurnInput, TurnState
from omoide.store.queued_turns import turn_from_json, turn_to_json
from omoide.store.sqlite.turn_queue import SqliteTurnQueue

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


def make_turn(text: str, user: str = "minjun") -> TurnInput:
    return TurnInput(
        scope=Scope("haru", user),
        user_message=text,
        bot_message="응!",
        state=TurnState("happy", 0.7, ("game",)),
        metadata={"dia_id": "D1:1", "n": 2, "flag": True, "none": None},
        user_name="민준",
    )


def test_turn_json_round_trip_is_exact() -> None:
    turn = make_turn("나 롤 게임 엄청 좋아해요!")
    assert turn_from_json(json.loads(json.dumps(turn_to_json(turn)))) == turn


@pytest.mark.anyio
async def test_put_stamps_time_and_id_and_take_returns_in_order(tmp_path: Path) -> None:
    queue = SqliteTurnQueue(tmp_path / "queue.sqlite3", clock=FixedClock(NOW))
    accepted = await queue.put([make_turn("first"), make_turn("second", "seoyeon")])
    assert [turn.timestamp for turn in accepted] == [NOW, NOW]
    assert all(turn.turn_id for turn in accepted)
    taken = await queue.take(10)
    assert [queued.turn for queued in taken] == accepted
    await queue.done([taken[0].job_id])
    assert [q.turn.user_message for q in await queue.take(10)] == ["second"]
    await queue.close()


@pytest.mark.anyio
async def test_failed_turns_are_parked_not_dropped(tmp_path: Path) -> None:
    queue = SqliteTurnQueue(tmp_path / "queue.sqlite3", clock=FixedClock(NOW))
    await queue.put([make_turn("keep me")])
    (job,) = await queue.take(1)
    for _ in range(3):
        await queue.retry_later([job.job_id], error="store down", park=False)
    (again,) = await queue.take(5)
    assert again.attempts == 3
    await queue.retry_later([job.job_id], error="invalid turn", park=True)
    assert await queue.take(5) == []
    assert await queue.counts() == {"pending": 0, "failed": 1}
    await queue.close()


def test_accepted_turns_survive_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "queue.sqlite3"
    script = textwrap.dedent(
        f"""
        import anyio, os, signal, sys
        from datetime import datetime, UTC
        from pathlib import Path
        from omoide.clock import FixedClock
        from omoide.domain import Scope
        from omoide.store.sqlite.turn_queue import SqliteTurnQueue
        from omoide.domain import TurnInput

        async def main():
            queue = SqliteTurnQueue(Path({str(path)!r}), clock=FixedClock(datetime.now(UTC)))
            for index in range(20):
                await queue.put([TurnInput(Scope("haru", "u"), f"turn {{index}}")])
            print("accepted", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)

        anyio.run(main)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=os.environ.copy()
    )
    assert "accepted" in result.stdout
    assert result.returncode == -9

    async def check() -> list[str]:
        queue = SqliteTurnQueue(path, clock=FixedClock(NOW))
        taken = await queue.take(100)
        await queue.close()
        return [queued.turn.user_message for queued in taken]

    import anyio

    assert anyio.run(check) == [f"turn {index}" for index in range(20)]


@pytest.mark.anyio
async def test_a_viewers_queued_turns_parked_too_are_listed_and_forgotten(
    tmp_path: Path,
) -> None:
    queue = SqliteTurnQueue(tmp_path / "queue.sqlite3", clock=FixedClock(NOW))
    mine = await queue.put([make_turn("first"), make_turn("parked")])
    (theirs,) = await queue.put([make_turn("other viewer", "seoyeon")])
    parked = (await queue.take(2))[1]
    await queue.retry_later([parked.job_id], error="bad", park=True)
    assert await queue.viewer_turns(Scope("haru", "minjun")) == mine
    assert await queue.forget_viewer(Scope("haru", "minjun")) == mine
    assert await queue.viewer_turns(Scope("haru", "minjun")) == []
    assert [q.turn for q in await queue.take(10)] == [theirs]
    await queue.scrub()
    assert b"parked" not in (tmp_path / "queue.sqlite3").read_bytes()
    await queue.close()

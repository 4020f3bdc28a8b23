"""The same conversation gives the same memory on every run: the same facts (their group,
slot, trust) and the same reply section, whatever the ids drawn, the string hashes of the
process (``PYTHONHASHSEED``) or the batches the texts were embedded in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from omoide.clock import FixedClock
from omoide.config import EmbedderName, Settings
from omoide.domain import Scope, TurnInput
from omoide.wiring import build

START = datetime(2025, 3, 1, 20, tzinfo=UTC)
VIEWER = Scope("lumi", "xiaoyu")
CONVERSATION = (
    "我生日是3月9号 到时候主播记得祝我生日快乐",
    "my cat mochi knocked my coffee over again lol",
    "저 요즘 대전에 살아요, 회사 때문에",
    "来月から名古屋勤務になる",
    "哎呀我上次说错了 我生日是9月3号 写反了",
    "finally booked the bar exam for july, studying every night now",
    "저 이제 광주에 살아요",
    "I quit my job at the bakery, starting at a bookshop monday",
)
PROBE = "what should we do for my birthday?"


async def remember(directory: Path, *, embedder: EmbedderName, batched: bool) -> dict[str, Any]:
    """Store ``CONVERSATION`` (one turn a day; one call a turn, or all in one batch) and read
    back the viewer's facts and the reply section to ``PROBE``."""
    settings = Settings(data_dir=directory, embedder=embedder, llm="none")
    now = START + timedelta(days=len(CONVERSATION))
    app = await build(settings, clock=FixedClock(now))
    try:
        turns = [
            TurnInput(VIEWER, text, "응!", timestamp=START + timedelta(days=day), force_store=True)
            for day, text in enumerate(CONVERSATION)
        ]
        if batched:
            await app.memory.store_interactions(VIEWER.character_id, turns)
        else:
            for turn in turns:
                await app.memory.remember(turn)
        facts = await app.memory.list_facts(VIEWER, include_inactive=True)
        recollection = await app.memory.retrieve_context(VIEWER, PROBE, now=now)
    finally:
        await app.aclose()
    return {
        "facts": sorted(
            [f.text, f.category.value, f.slot, f.trust.value, f.confirmation_count, f.is_current]
            for f in facts
        ),
        "section": recollection.rendered.text,
    }


@pytest.mark.anyio
async def test_the_same_conversation_gives_the_same_facts_every_time(tmp_path: Path) -> None:
    # one message told as two facts at once (a birthday, a plan), then corrected: which of
    # the two the correction is about was decided by random ids before they were ordered
    runs = [
        await remember(tmp_path / str(run), embedder="hashing", batched=False) for run in range(6)
    ]
    assert all(run == runs[0] for run in runs[1:])
    current = [fact for fact in runs[0]["facts"] if fact[5] and "9月3号" in fact[0]]
    assert {fact[1] for fact in current} == {"personal", "goal"}


RUN_ONE = """
import json, sys
from pathlib import Path
import anyio
from tests.memory.test_repeatable_ingest import remember
directory, batched = Path(sys.argv[1]), sys.argv[2] == "batched"
memory = anyio.run(lambda: remember(directory, embedder="use", batched=batched))
print(json.dumps(memory, ensure_ascii=False))
"""


def remember_in_a_process(directory: Path, *, hash_seed: int, batched: bool) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    mode = "batched" if batched else "one by one"
    done = subprocess.run(
        [sys.executable, "-c", RUN_ONE, str(directory), mode],
        env=environment,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    memory: dict[str, Any] = json.loads(done.stdout)
    return memory


def test_hash_seeds_and_batches_do_not_change_the_memory(tmp_path: Path) -> None:
    # with USE: its vectors, the disclosure and lasting models and the duplicate threshold
    first = remember_in_a_process(tmp_path / "a", hash_seed=1, batched=False)
    assert remember_in_a_process(tmp_path / "b", hash_seed=2, batched=True) == first

"""``omoide forget`` is the same use case as the HTTP route: a turn still queued is
forgotten rather than stored after the forget, and the stream log and the diary lose the
viewer's words too."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from omoide.cli import app
from omoide.clock import FixedClock
from omoide.domain import TurnInput
from omoide.embed.hashing import HashingEmbedder
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from omoide.stream.events import events_from_json
from omoide.wiring import build
from tests.api.harness import NOW, make_settings
from tests.hostile.forget_paths import (
    CHARACTER,
    MARKER,
    NAME,
    SCOPE,
    STREAM_OPTIONS,
    VIEWER,
    events,
    files_holding,
)


async def _write(data: Path) -> None:
    settings = make_settings(data, llm="none", stream_llm="off", **STREAM_OPTIONS)
    built = await build(settings, clock=FixedClock(NOW), embedder=HashingEmbedder(256))
    try:
        stream = built.streams
        await stream.ingest(CHARACTER, "night-1", events_from_json(events(0, count=8)))
        await stream.end_stream(CHARACTER, "night-1", now=NOW - timedelta(days=1))
    finally:
        await built.aclose()
    queue = SqliteTurnQueue(settings.queue_path, clock=FixedClock(NOW))
    await queue.put([TurnInput(SCOPE, f"Queued: {MARKER} forever", "Noted!", user_name=NAME)])
    await queue.close()


@pytest.mark.anyio
async def test_cli_forget_leaves_no_byte_and_stores_no_queued_turn(tmp_path: Path) -> None:
    data = tmp_path / "data"
    await _write(data)
    assert set(files_holding(data)) >= {"queue.sqlite3", "growth.sqlite3", "omoide.sqlite3"}
    common = ["-c", CHARACTER, "-u", VIEWER, "--data-dir", str(data), "--embedder", "hashing"]
    arguments = ["forget", *common, "--yes", "--json"]
    result = await anyio.to_thread.run_sync(CliRunner().invoke, app, arguments)  # runs its loop
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["queued_turns"] == 1 and report["stream_comments"] == 4
    assert report["redacted_memories"] >= 1
    assert files_holding(data) == {}

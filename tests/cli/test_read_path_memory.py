"""``omoide export``, ``search`` and ``decay --dry-run`` on the read path.

They read the store files alone (``wiring.open_reader``): export and the preview load no
model, search only the embedder the store was written with. Each prints, byte for byte,
the JSON the full build's use cases make for the same request (``ViewerData``,
``MemoryManager.search``, ``MemoryManager.preview_decay``), and writes nothing.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
from typer.testing import CliRunner

from omoide.api.views import SearchOut
from omoide.api.views_decay import DecayOut
from omoide.api.views_viewer import ViewerExportOut
from omoide.character.state import initial_state
from omoide.cli import app
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope, TurnInput, TurnState
from omoide.store.sqlite.turn_queue import SqliteTurnQueue
from omoide.stream.events import StreamEvent
from omoide.wiring import build
from tests.cli.test_read_path import fingerprint

runner = CliRunner()
SCOPE = Scope("haru", "minjun")
NOW = datetime(2026, 1, 5, 12, tzinfo=UTC)
LATER = NOW + timedelta(days=400)
TOLD = ("나 롤 게임 엄청 좋아해요!", "어제 고양이를 입양했어요", "다음 달에 롤 대회 보러 가요")
QUERY = "롤 게임"


def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, embedder="hashing")


def write_store(data_dir: Path) -> None:
    """Episodes and facts, stream comments, a character state, and a turn accepted but
    not yet remembered (put in the queue file after the build closed: closing drains it)."""

    async def main() -> None:
        built = await build(settings(data_dir), clock=FixedClock(NOW))
        try:
            for days, text in enumerate(TOLD):
                moment = NOW - timedelta(days=30 - days)
                await built.memory.store_interaction(
                    SCOPE, text, "좋다!", TurnState("joy", 0.6), timestamp=moment,
                    force_store=True, user_name="민준",
                )  # fmt: skip
            comment = StreamEvent("minjun", "민준", "롤 대회 같이 봐요!", NOW - timedelta(hours=1))
            await built.streams.ingest("haru", "s1", [comment])
            await built.streams.drain()
            profile = (await built.characters.load("haru")).profile
            await built.states.save(SCOPE, initial_state(profile))
        finally:
            await built.aclose()
        queue = SqliteTurnQueue(settings(data_dir).queue_path, clock=FixedClock(NOW))
        try:
            await queue.put([TurnInput(SCOPE, "다음 주에 이사해요", user_name="민준")])
        finally:
            await queue.close()

    anyio.run(main)


def full_build_answers(data_dir: Path) -> dict[str, Any]:
    """What the full build answers for each request, as the CLI prints it."""

    async def main() -> dict[str, Any]:
        built = await build(settings(data_dir))
        try:
            exported = await built.viewer_data.export_viewer(SCOPE)
            found = await built.memory.search(SCOPE, QUERY, now=NOW, limit=5)
            preview = await built.memory.preview_decay("haru", now=LATER)
            return {
                "export": ViewerExportOut.of_viewer(exported).model_dump(mode="json"),
                "search": SearchOut.of(found, limit=5).model_dump(mode="json"),
                "preview": DecayOut.preview(preview).model_dump(mode="json"),
            }
        finally:
            await built.aclose()

    return anyio.run(main)


def printed(*arguments: str) -> str:
    result = runner.invoke(app, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    return result.output


def test_export_search_and_preview_print_what_the_full_build_answers(tmp_path: Path) -> None:
    write_store(tmp_path)
    memory = ["--data-dir", str(tmp_path), "--embedder", "hashing"]
    before = fingerprint(tmp_path)

    exported = printed("export", "-u", "minjun", *memory)
    found = printed("search", QUERY, "-u", "minjun", "-k", "5", "--now", NOW.isoformat(), *memory)
    preview = printed("decay", "--dry-run", "--now", LATER.isoformat(), *memory)

    assert fingerprint(tmp_path) == before  # nothing written, nothing created
    expected = full_build_answers(tmp_path)  # after: closing the build drains the queue
    export = json.loads(exported)
    assert export["queued_turns"] and export["stream"]["comments"] and export["state"]
    assert len(export["episodes"]) == len(TOLD) and export["facts"]
    assert exported == json.dumps(expected["export"], ensure_ascii=False, indent=2) + "\n"
    assert json.loads(found)["episodes"][0]["user_message"] == TOLD[0]
    assert found == json.dumps(expected["search"], ensure_ascii=False, indent=2) + "\n"
    assert json.loads(preview)["archived"] == len(TOLD)
    assert preview == json.dumps(expected["preview"], ensure_ascii=False, indent=2) + "\n"


def test_search_refuses_an_embedder_other_than_the_stores(tmp_path: Path) -> None:
    """As the full build does: the query would be embedded by another model."""
    write_store(tmp_path)
    result = runner.invoke(app, ["search", QUERY, "-u", "minjun", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "hashing" in result.output and "omoide reembed" in " ".join(result.output.split())


def test_nothing_stored_yet_reads_as_empty_and_stays_absent(tmp_path: Path) -> None:
    nowhere = tmp_path / "nothing-here"
    memory = ["--data-dir", str(nowhere), "--embedder", "hashing"]
    export = json.loads(printed("export", "-u", "minjun", *memory))
    assert export["episodes"] == [] and export["queued_turns"] == [] and export["state"] is None
    assert json.loads(printed("search", QUERY, "-u", "minjun", *memory))["episodes"] == []
    assert json.loads(printed("decay", "--dry-run", *memory))["scanned"] == 0
    assert not nowhere.exists()

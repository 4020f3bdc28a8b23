"""``omoide stream`` and ``omoide identity`` through typer's runner, on the library and
against a real server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
import typer
import uvicorn
from typer.testing import CliRunner

from omoide.api.app import create_app
from omoide.character.library import CharacterLibrary
from omoide.cli.stream import register
from omoide.config import Settings
from omoide.llm.demo_tasks import SCRIPTED_DIARY_PREFIX, SCRIPTED_LABEL
from omoide.llm.scripted import ScriptedChatModel
from tests.stream.harness import START, StreamScript

ENV = {"OMOIDE_EMBEDDER": "hashing", "OMOIDE_LLM": "scripted"}
STARTUP_SECONDS = 30.0


def cli() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def write_log(path: Path, count: int, *, bad_line: int | None = None) -> Path:
    lines = []
    for index in range(count):
        event: dict[str, Any] = {
            "viewer_id": f"v{index % 4}",
            "display_name": f"Fan {index % 4}",
            "text": f"I really love Minecraft, day {index}" if index % 2 else "www",
            "time": (START + timedelta(seconds=index)).isoformat(),
            "platform": "youtube",
        }
        if index % 5 == 0:
            event["reply"] = "Thanks!"
        if bad_line is not None and index + 1 == bad_line:
            event["time"] = "not a time"
        lines.append(json.dumps(event, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(cli(), list(args), env=ENV)
    return result


def test_replay_and_end_on_the_library(tmp_path: Path) -> None:
    log = write_log(tmp_path / "chat.jsonl", 24)
    data = str(tmp_path / "data")
    options = ["-c", "haru", "-s", "s1", "--data-dir", data, "--batch-size", "10"]
    result = invoke("stream", "replay", str(log), *options, "--end", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["ingest"]["received"] == 24
    assert payload["ingest"]["skipped_low_signal"] == 12 - 3, "three were answered"
    assert payload["ingest"]["replied"] == 5
    assert payload["ingest"]["comment_count"] == 24
    assert payload["end"]["diary"]["comment_count"] == 24
    diary = payload["end"]["diary"]
    assert diary["method"] == "llm", "the scripted demo model writes it, offline"
    assert diary["text"].startswith(SCRIPTED_DIARY_PREFIX)
    assert payload["llm_calls_per_1000_messages"] > 0
    (outcome,) = payload["end"]["identity"]
    assert outcome["status"] == "pending"

    again = invoke("stream", "end", "-c", "haru", "-s", "s1", "--data-dir", data)
    assert again.exit_code == 1 and "already ended" in again.output
    versions = invoke("identity", "versions", "-c", "haru", "--data-dir", data)
    assert versions.exit_code == 0 and "no versions yet" in versions.output
    pending = invoke("identity", "pending", "-c", "haru", "--data-dir", data)
    assert outcome["change_id"] in pending.output and SCRIPTED_LABEL in pending.output
    change = outcome["change_id"]
    approved = invoke("identity", "approve", change, "-c", "haru", "--data-dir", data)
    assert approved.exit_code == 0 and "version 1" in approved.output
    rolled = invoke("identity", "rollback", "0", "-c", "haru", "--data-dir", data)
    assert rolled.exit_code == 0 and "version 2 (the profile of version 0)" in rolled.output


def test_a_bad_line_is_named_and_nothing_is_sent(tmp_path: Path) -> None:
    log = write_log(tmp_path / "chat.jsonl", 6, bad_line=4)
    data = str(tmp_path / "data")
    result = invoke("stream", "replay", str(log), "-c", "haru", "-s", "s1", "--data-dir", data)
    assert result.exit_code == 1
    assert "chat.jsonl:4" in result.output and "time" in result.output
    ended = invoke("stream", "end", "-c", "haru", "-s", "s1", "--data-dir", data)
    assert ended.exit_code == 1 and "has no comments" in ended.output


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _haru_likes() -> list[str]:
    return list((await CharacterLibrary([]).load("haru")).profile.likes)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    script = StreamScript()
    script.identity_diff = {
        "likes": ["롤과 마인크래프트 (마크에서 집 짓기)", "Minecraft 건축 방송"]
    }

    likes = anyio.run(_haru_likes)
    script.identity_diff = {"likes": [*likes, "Minecraft 건축 방송"]}
    settings = Settings(
        data_dir=tmp_path / "server", embedder="hashing", llm="none", stream_llm="on"
    )
    app = create_app(settings, chat_model=ScriptedChatModel(responder=script))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not running.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started, "the test server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=STARTUP_SECONDS)


def test_replay_and_review_identity_over_http(tmp_path: Path, server: str) -> None:
    log = write_log(tmp_path / "chat.jsonl", 12)
    remote = ("--url", server, "--api-key", "not-checked-here")
    replay = invoke("stream", "replay", str(log), "-c", "haru", "-s", "s1", *remote, "--json")
    assert replay.exit_code == 0, replay.output
    assert json.loads(replay.output)["ingest"]["received"] == 12
    end = invoke("stream", "end", "-c", "haru", "-s", "s1", *remote, "--json")
    assert end.exit_code == 0, end.output
    (outcome,) = json.loads(end.output)["identity"]
    assert outcome["status"] == "pending"

    pending = invoke("identity", "pending", "-c", "haru", *remote)
    assert outcome["change_id"] in pending.output and "Minecraft 건축 방송" in pending.output
    approve = invoke("identity", "approve", outcome["change_id"], "-c", "haru", *remote)
    assert approve.exit_code == 0 and "version 1" in approve.output
    diff = invoke("identity", "diff", "1", "-c", "haru", *remote, "--json")
    (change,) = json.loads(diff.output)["changes"]
    assert change["field"] == "likes" and change["after"][-1] == "Minecraft 건축 방송"
    shown = invoke("identity", "diff", "1", "-c", "haru", *remote).output
    assert [line.strip() for line in shown.splitlines()] == ["likes", "+ Minecraft 건축 방송"]
    rollback = invoke("identity", "rollback", "0", "-c", "haru", *remote)
    assert rollback.exit_code == 0 and "version 2" in rollback.output
    against = invoke("identity", "diff", "2", "--against", "0", "-c", "haru", *remote)
    assert "no differences" in against.output
    versions = invoke("identity", "versions", "-c", "haru", *remote, "--json")
    assert [v["version"] for v in json.loads(versions.output)["versions"]] == [0, 1, 2]
    missing = invoke("identity", "approve", "nope", "-c", "haru", *remote)
    assert missing.exit_code == 1 and "error" in missing.output

"""A chat turn the service acknowledged survives ``kill -9`` before it reached the store.

The service runs as a real subprocess (``uvicorn --factory``). The test holds the memory
store's write lock, so the background writer cannot store anything, has the service accept
several chat turns, kills it with SIGKILL, checks that the turns are still only in the
durable queue, then restarts the service on the same data directory and expects every
acknowledged turn (every ``done`` event's ``turn_id``) to be stored.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.api.harness import free_port, viewer_path, wait_until_healthy

START_TIMEOUT_SECONDS = 60.0
MESSAGES = [
    "I love League of Legends, I play it every night",
    "My cat Nabi turned five years old today",
    "I started learning the piano last month and I love it",
    "My favourite food is kimchi stew, I eat it every weekend",
    "I am moving to Busan next month for a new job",
]


def service_environment(data_dir: Path) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("OMOIDE_")}
    environment.update(
        OMOIDE_DATA_DIR=str(data_dir), OMOIDE_LLM="scripted", OMOIDE_EMBEDDER="hashing"
    )
    return environment


@contextmanager
def service_process(data_dir: Path, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "--factory", "omoide.api.app:app_from_environment",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip
    with log.open("ab") as output:
        process = subprocess.Popen(
            command, env=service_environment(data_dir), stdout=output, stderr=output
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(process, url, log)
        yield process, url
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=START_TIMEOUT_SECONDS)


def chat(url: str, user: str, message: str) -> str:
    body = {
        "character_id": "haru",
        "user_id": user,
        "user_name": "Minjun",
        "session_id": "s1",
        "message": message,
    }
    events = []
    with httpx.stream("POST", url + "/v1/chat/stream", json=body, timeout=30) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line.removeprefix("data: ")))
    done = events[-1]
    assert done["type"] == "done", events
    turn_id: str = done["turn_id"]
    return turn_id


@contextmanager
def store_write_lock(database: Path) -> Iterator[None]:
    """Hold the store's write lock: readers go on, the service's writes wait."""
    connection = sqlite3.connect(database, timeout=5, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        yield
    finally:
        connection.execute("ROLLBACK")
        connection.close()


def pending_in_queue(queue_path: Path) -> int:
    with sqlite3.connect(queue_path) as connection:
        row = connection.execute("SELECT COUNT(*) FROM queued_turns WHERE failed = 0").fetchone()
    return int(row[0])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_acknowledged_turns_survive_kill_9(tmp_path: Path) -> None:
    data_dir, log = tmp_path / "data", tmp_path / "service.log"
    user = "minjun"
    with service_process(data_dir, log) as (process, url):
        with store_write_lock(data_dir / "omoide.sqlite3"):
            accepted = [chat(url, user, message) for message in MESSAGES]
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=START_TIMEOUT_SECONDS)
        assert process.returncode == -signal.SIGKILL
    assert len(set(accepted)) == len(MESSAGES)
    assert pending_in_queue(data_dir / "queue.sqlite3") == len(MESSAGES)
    with service_process(data_dir, log) as (_, url):
        exported = httpx.get(url + viewer_path("haru", user) + "/export", timeout=10).json()
        stored = {episode["episode_id"] for episode in exported["episodes"]}
        assert set(accepted) <= stored
        assert {episode["user_message"] for episode in exported["episodes"]} == set(MESSAGES)
        health = httpx.get(url + "/health", timeout=10).json()
        assert health["queue"]["pending"] == 0 and health["queue"]["failed"] == 0

"""Forget means gone, in the embedded profile: after ``DELETE .../users/{viewer}`` and a
stop of the service, no file under the data directory (databases, ``-wal`` and ``-shm``
files included) holds a byte of the marker the viewer wrote through every path."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.embed.hashing import HashingEmbedder
from omoide.wiring import build
from tests.api.harness import NOW, Api, make_settings, running_api
from tests.hostile.forget_paths import (
    CHARACTER,
    KEPT,
    MARKER,
    NAME,
    VIEWER,
    approve_identity,
    files_holding,
    model,
    queue_a_turn,
    stream_with_model,
    with_stream_model,
    write_through_api,
)

pytestmark = pytest.mark.anyio
VIEWER_PATH = f"/v1/characters/{CHARACTER}/users/{VIEWER}"
IDENTITY_PATH = f"/v1/characters/{CHARACTER}/identity"


async def test_forgotten_viewer_leaves_no_byte_in_any_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = make_settings(data)
    chat_model = model()
    built = await build(
        with_stream_model(settings),
        clock=FixedClock(NOW),
        embedder=HashingEmbedder(256),
        chat_model=chat_model,
    )
    try:
        await stream_with_model(built)
    finally:
        await built.aclose()
    async with running_api(settings, chat_model=chat_model) as api:
        await approve_identity(api)
        await write_through_api(api)
        still_pending = (await api.client.get(f"{IDENTITY_PATH}/pending")).json()["changes"]
        await queue_a_turn(api)
        exported = (await api.client.get(f"{VIEWER_PATH}/export")).json()
        assert exported["quoted_in_versions"] == [1], "version 0 is the profile file"
        assert len(exported["quoted_in_changes"]) == 1 + len(still_pending)
        parts = ("episodes", "facts", "queued_turns", "display_names")
        assert all(MARKER in str(exported[part]) for part in parts)
        stream = exported["stream"]
        assert MARKER in str(stream["comments"]) and MARKER in str(stream["summary"])
        assert MARKER in str(stream["facts"]) and stream["work"] is not None
        assert files_holding(data), "the marker never reached the files"
        diary = (await api.client.get(f"/v1/characters/{CHARACTER}/diary")).json()["entries"]
        quoting = {entry["id"] for entry in diary if MARKER in entry["text"]}
        assert len(quoting) >= 2, diary
        assert {entry["method"] for entry in diary} == {"llm", "structured"}
        assert set(exported["quoted_in"]) == quoting, "export shows what forget redacts"

        response = await api.client.delete(VIEWER_PATH)
        assert response.status_code == 200, response.text
        report = response.json()
        assert report["queued_turns"] == 1 and report["stream_comments"] == 6
        assert report["stream_summaries"] == 1 and report["redacted_memories"] >= 2
        assert report["redacted_identity"] == 2 + len(still_pending)
        assert files_holding(data) == {}, "while the service runs (write-ahead logs too)"

        after = (await api.client.get(f"{VIEWER_PATH}/export")).json()
        assert MARKER not in str(after) and after["tombstones"] and after["quoted_in"] == []
        assert after["quoted_in_versions"] == [] and after["quoted_in_changes"] == []
        await _identity_redacted_and_usable(api, [str(c["id"]) for c in still_pending])
        assert all(MARKER not in str(t) for t in after["tombstones"])
        diary = (await api.client.get(f"/v1/characters/{CHARACTER}/diary")).json()["entries"]
        redacted = [entry for entry in diary if entry["id"] in quoting]
        assert len(redacted) == len(quoting), "diary entries are redacted, not deleted"
        assert all(KEPT in entry["text"] for entry in redacted), "other viewers' words stay"
        assert all(NAME not in entry["text"].split() for entry in redacted)
        await api.service.worker.stop()
    assert files_holding(data) == {}


async def _identity_redacted_and_usable(api: Api, pending: list[str]) -> None:
    """Version 1 keeps its protected core and the other likes; pending changes still read."""
    profile = (await api.client.get(f"{IDENTITY_PATH}/versions/1")).json()["profile"]
    assert profile["name"] == "하루 (Haru)" and profile["core_values"] and profile["safety_rules"]
    assert len(profile["likes"]) == 6 and "[forgotten]" in profile["likes"][-1]
    assert "[forgotten]" in profile["speaking_style"], profile["speaking_style"]
    listed = (await api.client.get(f"{IDENTITY_PATH}/pending")).json()["changes"]
    assert [change["id"] for change in listed] == pending

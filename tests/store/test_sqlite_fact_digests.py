"""The embedded store keeps a deleted fact's digests in its file until the viewer is
forgotten, and then no byte of them remains (secure delete, checkpointed on close)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.domain import Scope
from omoide.store.sqlite import open_sqlite_store
from tests.store.builders import EMBEDDING, add_facts, at, fact, fact_write

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
DIGEST = "5eed" * 8


def files_hold(directory: Path, data: bytes) -> bool:
    return any(data in path.read_bytes() for path in directory.iterdir() if path.is_file())


async def test_a_forgotten_viewers_digests_leave_no_byte_in_any_file(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", "lives in Seoul"))])
    await store.delete_fact(VIEWER, "f1", reason="wrong", at=at(1), digests=[DIGEST])
    await store.close()
    assert files_hold(tmp_path, DIGEST.encode())

    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await store.forget_viewer(VIEWER, reason="asked", at=at(2))
    await store.close()
    assert not files_hold(tmp_path, DIGEST.encode())

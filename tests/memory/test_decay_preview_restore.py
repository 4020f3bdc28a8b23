"""Decay can be previewed (changing nothing) and undone (restoring archived episodes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope
from omoide.errors import InvalidInput
from omoide.memory.decay import SAMPLE
from omoide.wiring import Omoide, build

START = datetime(2025, 1, 10, 20, tzinfo=UTC)
LATER = START + timedelta(days=20)
MINJUN = Scope("haru", "minjun")
SORA = Scope("haru", "sora")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    built = await build(Settings(data_dir=tmp_path, embedder="hashing"), clock=FixedClock(START))
    try:
        yield built
    finally:
        await built.aclose()


async def remember(app: Omoide, scope: Scope, message: str, importance: float) -> str:
    stored = await app.memory.store_interaction(
        scope, message, "", importance=importance, timestamp=START, force_store=True
    )
    assert stored.episode_id is not None
    return stored.episode_id


async def test_a_dry_run_counts_what_a_run_archives_and_changes_nothing(app: Omoide) -> None:
    faded = sorted(
        [
            await remember(app, MINJUN, "the bus was late today", 0.1),
            await remember(app, SORA, "I had cereal for breakfast", 0.1),
        ]
    )
    await remember(app, MINJUN, "my birthday is March 3rd", 1.0)
    before = [await app.viewer_data.export_viewer(scope) for scope in (MINJUN, SORA)]

    preview = await app.memory.preview_decay(
        "haru", now=LATER, purge_archived_before=LATER + timedelta(days=1)
    )

    assert (preview.scanned, preview.would_archive, preview.would_purge) == (3, 2, 2)
    assert list(preview.archive_ids) == faded and list(preview.purge_ids) == faded
    assert [await app.viewer_data.export_viewer(scope) for scope in (MINJUN, SORA)] == before
    report = await app.memory.run_decay("haru", now=LATER)
    assert (report.scanned, report.archived) == (preview.scanned, preview.would_archive)


async def test_a_dry_run_counts_already_archived_episodes_the_purge_would_destroy(
    app: Omoide,
) -> None:
    first = await remember(app, MINJUN, "the bus was late today", 0.1)
    await app.memory.run_decay("haru", now=LATER)

    nothing_new = await app.memory.preview_decay(
        "haru", now=LATER, purge_archived_before=LATER + timedelta(seconds=1)
    )
    not_yet = await app.memory.preview_decay("haru", now=LATER, purge_archived_before=LATER)

    assert (nothing_new.scanned, nothing_new.would_archive, nothing_new.would_purge) == (0, 0, 1)
    assert list(nothing_new.purge_ids) == [first]
    assert not_yet.would_purge == 0


async def test_a_preview_lists_only_the_first_ids_but_counts_all(app: Omoide) -> None:
    for index in range(SAMPLE + 3):
        await remember(app, MINJUN, f"small talk number {index}", 0.0)

    preview = await app.memory.preview_decay("haru", now=LATER)

    assert preview.would_archive == SAMPLE + 3 and len(preview.archive_ids) == SAMPLE


async def test_restoring_since_a_run_undoes_it_and_memories_are_found_again(
    app: Omoide,
) -> None:
    faded = await remember(app, MINJUN, "I adopted a cat named Mochi", 0.1)
    report = await app.memory.run_decay("haru", now=LATER)
    assert report.archived == 1 and report.now == LATER
    gone = await app.memory.search(MINJUN, "cat named Mochi", now=LATER)
    assert [ranked.item.id for ranked in gone.episodes] == []

    restored = await app.memory.restore_archived("haru", archived_since=report.now)

    assert (restored.restored, list(restored.episode_ids)) == (1, [faded])
    found = await app.memory.search(MINJUN, "cat named Mochi", now=LATER)
    assert [ranked.item.id for ranked in found.episodes] == [faded]
    again = await app.memory.restore_archived("haru", archived_since=report.now)
    assert again.restored == 0


async def test_restoring_by_id_brings_back_only_those(app: Omoide) -> None:
    chosen = await remember(app, MINJUN, "the bus was late today", 0.1)
    other = await remember(app, SORA, "I had cereal for breakfast", 0.1)
    await app.memory.run_decay("haru", now=LATER)

    restored = await app.memory.restore_archived("haru", episode_ids=[chosen, "not-an-episode"])

    assert restored.restored == 1
    assert (await app.store.get_episode(MINJUN, chosen)).archived_at is None
    assert (await app.store.get_episode(SORA, other)).archived_at == LATER


async def test_restoring_needs_ids_or_a_time(app: Omoide) -> None:
    with pytest.raises(InvalidInput, match="archived_since"):
        await app.memory.restore_archived("haru")
    with pytest.raises(InvalidInput):
        await app.memory.restore_archived("haru", episode_ids="e1")

"""Contract: the digests a person's deletion of a fact leaves (every backend).

They are found only in their own scope, refused when they could hold text, never exported
or shown in a tombstone, and gone when the viewer or the character is forgotten.
"""

from __future__ import annotations

import pytest

from omoide.domain import MemoryKind, Scope
from omoide.errors import InvalidInput
from omoide.store.base import FactFilter
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import add_facts, at, fact, fact_write, tombstones

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OTHER = Scope("haru", "sora")
CHARACTER = Scope("haru")
OTHER_CHARACTER = Scope("aoi", "minjun")
TEXT_DIGEST = "0123456789abcdef" * 2
SLOT_DIGEST = "fedcba9876543210" * 4
UNKNOWN = "a" * 32


async def delete_with_digests(store: MemoryBackend, scope: Scope, fact_id: str) -> None:
    await add_facts(store, scope, [fact_write(fact(scope, fact_id, "lives in Seoul"))])
    await store.delete_fact(
        scope, fact_id, reason="wrong", at=at(5), digests=[TEXT_DIGEST, SLOT_DIGEST]
    )


async def test_a_deleted_facts_digests_are_found_in_its_scope_only(store: MemoryBackend) -> None:
    await delete_with_digests(store, VIEWER, "f1")
    await add_facts(store, OTHER_CHARACTER, [fact_write(fact(OTHER_CHARACTER, "f2", "x"))])

    asked = [UNKNOWN, SLOT_DIGEST, TEXT_DIGEST, SLOT_DIGEST]
    assert await store.deleted_fact_digests(VIEWER, asked) == {TEXT_DIGEST, SLOT_DIGEST}
    assert await store.deleted_fact_digests(VIEWER, [UNKNOWN]) == set()
    assert await store.deleted_fact_digests(VIEWER, []) == set()
    for scope in (OTHER, CHARACTER, OTHER_CHARACTER, Scope("never", "seen")):
        assert await store.deleted_fact_digests(scope, asked) == set()


async def test_a_deletion_without_digests_leaves_none(store: MemoryBackend) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", "lives in Seoul"))])
    await store.delete_fact(VIEWER, "f1", reason="wrong", at=at(5))
    assert await store.deleted_fact_digests(VIEWER, [TEXT_DIGEST]) == set()


async def test_the_same_digest_from_two_deletions_is_found_once(store: MemoryBackend) -> None:
    await delete_with_digests(store, VIEWER, "f1")
    await delete_with_digests(store, VIEWER, "f2")
    assert await store.deleted_fact_digests(VIEWER, [TEXT_DIGEST]) == {TEXT_DIGEST}
    assert [t.memory_id for t in await tombstones(store, VIEWER)] == ["f1", "f2"]


@pytest.mark.parametrize(
    "digests",
    [
        ["lives in Seoul, near the river"],
        ["0123456789ABCDEF0123456789ABCDEF"],
        ["abc"],
        ["a" * 129],
        "0123456789abcdef0123456789abcdef",
        [TEXT_DIGEST, 7],
    ],
)
async def test_anything_but_hex_digests_is_refused_and_nothing_deleted(
    store: MemoryBackend, digests: list[str]
) -> None:
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", "lives in Seoul"))])
    with pytest.raises(InvalidInput, match="digest"):
        await store.delete_fact(VIEWER, "f1", reason="wrong", at=at(5), digests=digests)
    with pytest.raises(InvalidInput, match="digest"):
        await store.deleted_fact_digests(VIEWER, digests)
    assert [f.id for f in await store.list_facts(VIEWER, where=FactFilter())] == ["f1"]
    assert await tombstones(store, VIEWER) == []


async def test_tombstones_and_exports_show_no_digest(store: MemoryBackend) -> None:
    await delete_with_digests(store, VIEWER, "f1")
    (tombstone,) = await tombstones(store, VIEWER)
    assert (tombstone.memory_id, tombstone.kind) == ("f1", MemoryKind.FACT)
    shown = repr(await store.export_scope(VIEWER))
    assert TEXT_DIGEST not in shown
    assert SLOT_DIGEST not in shown


async def test_forgetting_a_viewer_removes_its_digests_only(store: MemoryBackend) -> None:
    await delete_with_digests(store, VIEWER, "f1")
    await delete_with_digests(store, OTHER, "f2")

    await store.forget_viewer(VIEWER, reason="asked", at=at(9))

    assert await store.deleted_fact_digests(VIEWER, [TEXT_DIGEST, SLOT_DIGEST]) == set()
    assert await store.deleted_fact_digests(OTHER, [TEXT_DIGEST]) == {TEXT_DIGEST}
    kinds = [t.kind for t in await tombstones(store, VIEWER)]
    assert kinds == [MemoryKind.FACT]  # the deleted fact's tombstone stays: id and time

"""A fact row is decoded once per process: the same row gives the same fact, a changed
row a new one (the embedded store reads a viewer's facts by listing and by meaning)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from omoide.domain import Scope
from omoide.store.base import FactFilter
from omoide.store.sqlite import open_sqlite_store
from omoide.store.sqlite.store import SqliteMemoryStore
from tests.store.builders import EMBEDDING, add_facts, fact, fact_write, text_vector, update_fact

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
EVERY_FACT = FactFilter(include_inactive=True)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteMemoryStore]:
    opened = await open_sqlite_store(tmp_path / "store.sqlite3", embedding=EMBEDDING)
    try:
        await add_facts(
            opened,
            VIEWER,
            [
                fact_write(fact(VIEWER, "dog", "has a dog named Bori")),
                fact_write(fact(VIEWER, "tea")),
            ],
        )
        yield opened
    finally:
        await opened.close()


async def test_a_fact_listed_and_found_by_meaning_is_one_decoded_value(
    store: SqliteMemoryStore,
) -> None:
    listed = {item.id: item for item in await store.list_facts(VIEWER, where=EVERY_FACT)}
    hits = await store.search_fact_vectors(
        VIEWER, text_vector("has a dog named Bori"), where=FactFilter(), limit=5
    )
    again = await store.list_facts(VIEWER, where=EVERY_FACT)

    assert {hit.item.id for hit in hits} == set(listed)
    assert all(hit.item is listed[hit.item.id] for hit in hits)
    assert all(item is listed[item.id] for item in again)


async def test_a_changed_fact_is_read_as_it_is_now(store: SqliteMemoryStore) -> None:
    before = await store.get_fact(VIEWER, "dog")
    await update_fact(store, replace(before, salience=0.9, confirmation_count=3))

    after = await store.get_fact(VIEWER, "dog")
    listed = {item.id: item for item in await store.list_facts(VIEWER, where=EVERY_FACT)}

    assert (after.salience, after.confirmation_count) == (0.9, 3)
    assert listed["dog"] == after
    assert (before.salience, before.confirmation_count) != (0.9, 3)

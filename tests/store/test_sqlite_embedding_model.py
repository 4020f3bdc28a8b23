"""The store's embedding model: recorded on first open, enforced after, changed by re-embedding."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from omoide.domain import Matrix, Scope, Vector
from omoide.errors import BackendUnavailable, Conflict
from omoide.store.base import EmbeddingInfo, EpisodeFilter, FactFilter
from omoide.store.sqlite import open_sqlite_store, reembed_store
from omoide.store.sqlite.connection import open_connection
from tests.store.builders import EMBEDDING, add_facts, episode, fact, fact_write, turn

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")


class LetterEmbedder:
    """Deterministic: a text's vector counts its characters, hashed into ``dimensions`` slots."""

    def __init__(
        self, name: str, dimensions: int, *, fail_after_batches: int | None = None
    ) -> None:
        self._name = name
        self._dimensions = dimensions
        self._fail_after = fail_after_batches
        self.batches: list[int] = []

    @property
    def model_name(self) -> str:
        return self._name

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def _vector(self, text: str) -> Vector:
        vector = np.full(self._dimensions, 0.01, dtype=np.float32)
        for character in text:
            vector[ord(character) % self._dimensions] += 1.0
        normalised: Vector = (vector / np.linalg.norm(vector)).astype(np.float32)
        return normalised

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if self._fail_after is not None and len(self.batches) >= self._fail_after:
            raise BackendUnavailable(f"{self._name} is down")
        self.batches.append(len(texts))
        return np.stack([self._vector(text) for text in texts])

    async def aclose(self) -> None:
        """Nothing to release."""

    async def embed_query(self, text: str) -> Vector:
        return self._vector(text)


WORDS = ["aaaa", "bbbb", "cccc", "dddd", "eeee"]
TEXTS = {f"e{index}": f"{word} {index}" for index, word in enumerate(WORDS)}


async def seed(path: Path, embedder: LetterEmbedder) -> None:
    store = await open_sqlite_store(
        path, embedding=EmbeddingInfo(embedder.model_name, embedder.dimensions)
    )
    turns = [
        turn(episode(VIEWER, episode_id, text), await embedder.embed_query(text))
        for episode_id, text in TEXTS.items()
    ]
    await store.write_turns("haru", turns)
    fact_vector = await embedder.embed_query("zzzz")
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", "zzzz"), fact_vector)])
    await store.close()


@pytest.mark.parametrize(
    "other",
    [EmbeddingInfo("other-model", EMBEDDING.dimensions), EmbeddingInfo(EMBEDDING.model_name, 16)],
)
async def test_opening_with_another_model_is_a_conflict(
    tmp_path: Path, other: EmbeddingInfo
) -> None:
    path = tmp_path / "store.sqlite3"
    store = await open_sqlite_store(path, embedding=EMBEDDING)
    await store.close()

    with pytest.raises(Conflict) as caught:
        await open_sqlite_store(path, embedding=other)

    message = str(caught.value)
    assert EMBEDDING.model_name in message and other.model_name in message
    assert "omoide reembed" in message
    assert str(other.dimensions) in message


async def test_the_recorded_model_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    first = await open_sqlite_store(path, embedding=EMBEDDING)
    await first.close()
    again = await open_sqlite_store(path, embedding=EMBEDDING)
    await again.close()
    assert again.embedding == EMBEDDING


async def test_every_vector_row_records_its_model(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await seed(path, LetterEmbedder("letters-v1", 8))

    connection = open_connection(path)
    rows = connection.execute(
        "SELECT DISTINCT m.name FROM episode_vectors_1 v "
        "JOIN embedding_models m ON m.id = v.model_id"
    ).fetchall()
    connection.close()
    assert rows == [("letters-v1",)]


async def test_reembed_switches_the_model_and_search_uses_the_new_vectors(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await seed(path, LetterEmbedder("letters-v1", 8))
    new = LetterEmbedder("letters-v2", 16)

    report = await reembed_store(path, new, batch_size=2)

    assert (report.episodes, report.facts) == (5, 1)
    assert report.previous == EmbeddingInfo("letters-v1", 8)
    assert report.current == EmbeddingInfo("letters-v2", 16)
    assert new.batches == [2, 2, 1, 1]
    with pytest.raises(Conflict):
        await open_sqlite_store(path, embedding=EmbeddingInfo("letters-v1", 8))
    store = await open_sqlite_store(path, embedding=EmbeddingInfo("letters-v2", 16))
    for episode_id, text in TEXTS.items():
        query = await new.embed_query(text)
        hits = await store.search_episode_vectors(VIEWER, query, where=EpisodeFilter(), limit=1)
        assert hits[0].item.id == episode_id and hits[0].score == pytest.approx(1.0, abs=1e-5)
    fact_hits = await store.search_fact_vectors(
        VIEWER, await new.embed_query("zzzz"), where=FactFilter(), limit=1
    )
    await store.close()
    assert fact_hits[0].item.id == "f1"


async def test_an_interrupted_reembed_keeps_the_old_model_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    old = LetterEmbedder("letters-v1", 8)
    await seed(path, old)

    with pytest.raises(BackendUnavailable):
        await reembed_store(
            path, LetterEmbedder("letters-v2", 16, fail_after_batches=1), batch_size=2
        )

    store = await open_sqlite_store(path, embedding=EmbeddingInfo("letters-v1", 8))
    query = await old.embed_query(TEXTS["e3"])
    hits = await store.search_episode_vectors(VIEWER, query, where=EpisodeFilter(), limit=1)
    await store.close()
    assert hits[0].item.id == "e3"

    resumed = LetterEmbedder("letters-v2", 16)
    report = await reembed_store(path, resumed, batch_size=2)

    assert (report.episodes, report.facts) == (3, 1)  # the first batch of two was kept
    store = await open_sqlite_store(path, embedding=EmbeddingInfo("letters-v2", 16))
    count = await store.count_episodes(VIEWER, where=EpisodeFilter())
    await store.close()
    assert count == 5


async def test_reembed_carries_filters_over(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    await seed(path, LetterEmbedder("letters-v1", 8))
    store = await open_sqlite_store(path, embedding=EmbeddingInfo("letters-v1", 8))
    await store.archive_episodes(VIEWER, ["e0"], at=episode(VIEWER, "x").recorded_at)
    await store.close()
    new = LetterEmbedder("letters-v2", 16)

    await reembed_store(path, new, batch_size=10)

    store = await open_sqlite_store(path, embedding=EmbeddingInfo("letters-v2", 16))
    query = await new.embed_query(TEXTS["e0"])
    hits = await store.search_episode_vectors(VIEWER, query, where=EpisodeFilter(), limit=10)
    await store.close()
    assert "e0" not in {hit.item.id for hit in hits} and len(hits) == 4

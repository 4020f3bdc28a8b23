"""Large document batches embedded in a worker process: same vectors, safe to start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from omoide.config import Settings
from omoide.domain import Matrix
from omoide.embed.base import Embedder
from omoide.embed.hashing import HashingEmbedder
from omoide.embed.process import WorkerProcessEmbedder
from omoide.errors import BackendError, ConfigError, InvalidInput
from omoide.wiring import build_embedder

TEXTS = [f"viewer {index} said 안녕 and ありがとう about topic {index % 7}" for index in range(60)]


def hashing_factory() -> Embedder:
    return HashingEmbedder(64)


def failing_factory() -> Embedder:
    raise RuntimeError("the model file is missing")


class CrashingEmbedder(HashingEmbedder):
    """Ends its own process on a text saying "crash" (a worker dying mid-batch)."""

    def __init__(self) -> None:
        super().__init__(64)

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if any("crash" in text for text in texts):
            os._exit(3)
        return await super().embed_documents(texts)


def worker_for(factory: object = hashing_factory, *, min_texts: int = 8) -> WorkerProcessEmbedder:
    return WorkerProcessEmbedder(HashingEmbedder(64), factory, min_texts=min_texts)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_the_worker_gives_the_vectors_of_the_model_in_this_process() -> None:
    embedder = worker_for()
    try:
        got = await embedder.embed_documents(TEXTS)
        assert embedder.worker_pid is not None and embedder.worker_pid != os.getpid()
        expected = await HashingEmbedder(64).embed_documents(TEXTS)
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, expected)
        assert embedder.model_name == HashingEmbedder(64).model_name
        assert embedder.dimensions == 64
    finally:
        await embedder.aclose()


@pytest.mark.anyio
async def test_queries_and_small_batches_never_start_a_worker() -> None:
    embedder = worker_for(min_texts=8)
    try:
        small = await embedder.embed_documents(TEXTS[:7])
        query = await embedder.embed_query("hello")
        assert embedder.worker_pid is None
        np.testing.assert_array_equal(small, await HashingEmbedder(64).embed_documents(TEXTS[:7]))
        np.testing.assert_array_equal(query, await HashingEmbedder(64).embed_query("hello"))
    finally:
        await embedder.aclose()


@pytest.mark.anyio
async def test_bad_texts_are_refused_before_reaching_the_worker() -> None:
    embedder = worker_for()
    try:
        with pytest.raises(InvalidInput):
            await embedder.embed_documents([*TEXTS[:10], 42])  # type: ignore[list-item]
        assert embedder.worker_pid is None
    finally:
        await embedder.aclose()


@pytest.mark.anyio
async def test_a_model_that_fails_to_load_in_the_worker_is_a_backend_error() -> None:
    embedder = worker_for(failing_factory)
    try:
        with pytest.raises(BackendError, match="the model file is missing"):
            await embedder.embed_documents(TEXTS)
    finally:
        await embedder.aclose()


@pytest.mark.anyio
async def test_a_worker_that_died_is_replaced_by_the_next_large_batch() -> None:
    embedder = worker_for()
    try:
        await embedder.embed_documents(TEXTS)
        first = embedder.worker_pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        got = await embedder.embed_documents(TEXTS)
        assert embedder.worker_pid not in (None, first)
        np.testing.assert_array_equal(got, await HashingEmbedder(64).embed_documents(TEXTS))
    finally:
        await embedder.aclose()


@pytest.mark.anyio
async def test_a_batch_that_kills_its_worker_twice_is_a_backend_error() -> None:
    embedder = worker_for(CrashingEmbedder)
    try:
        with pytest.raises(BackendError, match="died"):
            await embedder.embed_documents([*TEXTS, "crash"])
        np.testing.assert_array_equal(  # the next batch gets a new worker
            await embedder.embed_documents(TEXTS), await HashingEmbedder(64).embed_documents(TEXTS)
        )
    finally:
        await embedder.aclose()


@pytest.mark.anyio
async def test_closing_stops_the_worker_and_refuses_later_batches() -> None:
    embedder = worker_for()
    await embedder.embed_documents(TEXTS)
    pid = embedder.worker_pid
    assert pid is not None
    await embedder.aclose()
    assert embedder.worker_pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(BackendError, match="closed"):
        await embedder.embed_documents(TEXTS)


def test_min_texts_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="min_texts"):
        worker_for(min_texts=0)


@pytest.mark.anyio
async def test_settings_choose_the_worker_for_local_models(tmp_path: Path) -> None:
    with_worker = await build_embedder(Settings(data_dir=tmp_path, embedder="use"))
    without = await build_embedder(
        Settings(data_dir=tmp_path, embedder="use", embedder_worker=False)
    )
    hashing = await build_embedder(Settings(data_dir=tmp_path, embedder="hashing"))
    assert isinstance(with_worker, WorkerProcessEmbedder)
    await with_worker.aclose()
    assert not isinstance(without, WorkerProcessEmbedder)
    assert not isinstance(hashing, WorkerProcessEmbedder)
    assert with_worker.model_name == without.model_name


def test_a_script_without_a_main_guard_can_use_the_worker(tmp_path: Path) -> None:
    """The worker never imports the parent's main module (multiprocessing's spawn would)."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        textwrap.dedent(
            """
            import functools, anyio
            from omoide.embed.hashing import HashingEmbedder
            from omoide.embed.process import WorkerProcessEmbedder
            print("script body ran")
            embedder = WorkerProcessEmbedder(
                HashingEmbedder(32), functools.partial(HashingEmbedder, 32), min_texts=2
            )
            matrix = anyio.run(embedder.embed_documents, ["a", "b", "c"])
            anyio.run(embedder.aclose)
            print("shape", matrix.shape)
            """
        )
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.splitlines() == ["script body ran", "shape (3, 32)"]

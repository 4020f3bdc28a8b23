"""The embedded profile's key file, ``<data_dir>/keys.json``: implements
:class:`~omoide.keys.KeyStore`.

File writes are atomic (a temporary file renamed over the old one, mode 0600) and, on POSIX,
serialised between processes with an advisory lock, so two ``omoide keys`` runs cannot lose
each other's changes.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

import anyio.to_thread

from omoide.domain import as_utc
from omoide.errors import ConfigError, InvalidInput
from omoide.store.records.keys import ApiKey, NewKey, check_characters, missing_key, new_key

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from pathlib import Path

KEY_FILE_NAME: Final = "keys.json"
FILE_FORMAT_VERSION: Final = 1

Fingerprint = tuple[int, int, int]
"""Inode, modification time (ns) and size of the key file: changes when it is rewritten."""


def key_file_path(data_dir: Path) -> Path:
    return data_dir / KEY_FILE_NAME


def _key_to_json(key: ApiKey) -> dict[str, Any]:
    return {
        "id": key.key_id,
        "sha256": key.secret_sha256,
        "characters": sorted(key.characters),
        "created_at": key.created_at.isoformat() if key.created_at else None,
    }


def _key_from_json(entry: object, path: Path) -> ApiKey:
    if not isinstance(entry, dict):
        raise ConfigError(f"{path}: every key must be a JSON object")
    try:
        created = entry.get("created_at")
        digest = str(entry["sha256"])
        if len(digest) != 64 or any(char not in "0123456789abcdef" for char in digest):
            raise ValueError("sha256 must be 64 lowercase hex digits")
        return ApiKey(
            key_id=str(entry["id"]),
            secret_sha256=digest,
            characters=check_characters(str(item) for item in entry["characters"]),
            created_at=as_utc(datetime.fromisoformat(created)) if created else None,
        )
    except (KeyError, TypeError, ValueError, InvalidInput) as exc:
        raise ConfigError(f"{path}: a key entry is damaged: {exc}") from exc


def read_key_file(path: Path) -> tuple[ApiKey, ...]:
    """Blocking read of the key file (a missing file holds no keys); ConfigError if damaged."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
        raise ConfigError(f'{path}: expected {{"version": 1, "keys": [...]}}')
    if data.get("version") != FILE_FORMAT_VERSION:
        raise ConfigError(f"{path}: unsupported version {data.get('version')!r}")
    return tuple(_key_from_json(entry, path) for entry in data["keys"])


def key_file_fingerprint(path: Path) -> Fingerprint | None:
    """Blocking ``stat`` of the key file; ``None`` when there is no file."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from exc
    return status.st_ino, status.st_mtime_ns, status.st_size


def _write_key_file(path: Path, keys: Sequence[ApiKey]) -> None:
    payload = {"version": FILE_FORMAT_VERSION, "keys": [_key_to_json(key) for key in keys]}
    text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    scratch = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(scratch, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
        raise ConfigError(f"{path}: cannot be written: {exc}") from exc


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise read-modify-write of the key file between processes (POSIX only)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "a", encoding="utf-8") as lock:
        if sys.platform != "win32":
            import fcntl

            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        yield


class KeyFile:
    """The key file of one data directory; implements :class:`KeyStore`."""

    def __init__(self, path: Path) -> None:
        self._path = path

    @property
    def path(self) -> Path:
        return self._path

    @property
    def location(self) -> str:
        return f"key file {self._path}"

    async def load(self) -> tuple[ApiKey, ...]:
        return await anyio.to_thread.run_sync(read_key_file, self._path)

    async def fingerprint(self) -> Fingerprint | None:
        return await anyio.to_thread.run_sync(key_file_fingerprint, self._path)

    async def create(self, characters: Iterable[str], *, now: datetime) -> NewKey:
        """Add a key for ``characters`` (``["*"]`` for all); the secret is returned once."""
        created = new_key(characters, now=now)
        await anyio.to_thread.run_sync(self._append, created.key)
        return created

    def _append(self, key: ApiKey) -> None:
        with _locked(self._path):
            _write_key_file(self._path, [*read_key_file(self._path), key])

    async def revoke(self, key_id: str) -> ApiKey:
        """Remove a key; NotFound if the file has no key with that id."""
        return await anyio.to_thread.run_sync(self._remove, key_id)

    def _remove(self, key_id: str) -> ApiKey:
        with _locked(self._path):
            keys = read_key_file(self._path)
            found = [key for key in keys if key.key_id == key_id]
            if not found:
                raise missing_key(key_id, self.location)
            _write_key_file(self._path, [key for key in keys if key.key_id != key_id])
        return found[0]

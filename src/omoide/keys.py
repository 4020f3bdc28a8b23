"""API keys for the HTTP service: who may use which characters.

Keys come from two places, used together:

* a :class:`KeyStore`, managed by ``omoide keys create | list | revoke``: the key file
  ``<data_dir>/keys.json`` (:class:`KeyFile`) in the embedded profile, the ``api_keys``
  table of the server store's PostgreSQL
  (:class:`~omoide.store.server.keys.PostgresKeyStore`) in the server profile, so every
  instance sees the same keys. Either holds, per key, an id, the SHA-256 hash of the
  secret, the characters the key may use and when it was created. The secret itself is
  shown once, at creation, and never stored;
* the ``OMOIDE_API_KEYS`` setting, ``secret:character,character;secret:*``, for deployments
  that inject secrets through the environment. Those keys are named ``env-1``, ``env-2``...

A key is bound to a set of character ids, or to every character with ``*``. Presented
secrets are hashed and compared with :func:`hmac.compare_digest` against every known hash,
without stopping at the first match, so timing says nothing about which key was close.

File writes are atomic (a temporary file renamed over the old one, mode 0600) and, on POSIX,
serialised between processes with an advisory lock, so two ``omoide keys`` runs cannot lose
each other's changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Protocol

import anyio.to_thread

from omoide.character.profile import check_character_id
from omoide.config import Settings
from omoide.domain import as_utc
from omoide.errors import AccessDenied, ConfigError, InvalidInput, NotFound

ALL_CHARACTERS: Final = "*"
KEY_FILE_NAME: Final = "keys.json"
FILE_FORMAT_VERSION: Final = 1
SECRET_PREFIX: Final = "omo_"
FILE_SOURCE: Final = "file"
DATABASE_SOURCE: Final = "database"
ENVIRONMENT_SOURCE: Final = "environment"

Fingerprint = tuple[int, int, int]
"""Inode, modification time (ns) and size of the key file: changes when it is rewritten."""

ChangeMarker = object
"""What a key store's :meth:`KeyStore.fingerprint` returns: equal while its keys are the same
(compared with ``==``; the file's :data:`Fingerprint`, a database's change counter)."""


def hash_secret(secret: str) -> str:
    """The hex SHA-256 of a secret: what is stored and compared, never the secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_characters(characters: Iterable[str]) -> frozenset[str]:
    """A key's character set: valid character ids, or exactly ``*`` for all of them."""
    chosen = frozenset(character.strip() for character in characters)
    if not chosen:
        raise InvalidInput("a key needs at least one character (or '*' for all characters)")
    if ALL_CHARACTERS in chosen:
        if len(chosen) > 1:
            raise InvalidInput("'*' already means every character: give it alone")
        return chosen
    for character in chosen:
        check_character_id(character)
    return chosen


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A key as stored: never the secret, only its hash."""

    key_id: str
    secret_sha256: str
    characters: frozenset[str]
    created_at: datetime | None
    source: str = FILE_SOURCE

    @property
    def all_characters(self) -> bool:
        return ALL_CHARACTERS in self.characters

    def allows(self, character_id: str) -> bool:
        return self.all_characters or character_id in self.characters


@dataclass(frozen=True, slots=True)
class NewKey:
    """A freshly created key and its secret, which exists only here."""

    key: ApiKey
    secret: str


class KeyRing:
    """The keys in force; looks up presented secrets in constant time per key."""

    def __init__(self, keys: Iterable[ApiKey]) -> None:
        self._keys = tuple(keys)
        ids = [key.key_id for key in self._keys]
        if len(set(ids)) != len(ids):
            raise ConfigError("two API keys share an id")

    @property
    def keys(self) -> tuple[ApiKey, ...]:
        return self._keys

    @property
    def is_empty(self) -> bool:
        return not self._keys

    def authenticate(self, secret: str | None) -> ApiKey:
        """The key whose secret this is; AccessDenied (not authenticated) otherwise."""
        if not secret:
            raise AccessDenied(
                "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'",
                authenticated=False,
            )
        presented = hash_secret(secret)
        found: ApiKey | None = None
        for key in self._keys:
            if hmac.compare_digest(presented, key.secret_sha256) and found is None:
                found = key
        if found is None:
            raise AccessDenied("the API key is not valid", authenticated=False)
        return found


class KeyStore(Protocol):
    """Where created keys are kept (never their secrets); what ``omoide keys`` manages."""

    @property
    def location(self) -> str:
        """Where the keys are, for messages (never a credential)."""
        ...

    async def load(self) -> tuple[ApiKey, ...]:
        """Every key, oldest first."""
        ...

    async def fingerprint(self) -> ChangeMarker:
        """A cheap marker that changes whenever a key is created or revoked."""
        ...

    async def create(self, characters: Iterable[str], *, now: datetime) -> NewKey:
        """Add a key for ``characters`` (``["*"]`` for all); the secret is returned once."""
        ...

    async def revoke(self, key_id: str) -> ApiKey:
        """Remove a key; NotFound if there is no key with that id."""
        ...


def new_key(characters: Iterable[str], *, now: datetime, source: str = FILE_SOURCE) -> NewKey:
    """A fresh key id and secret for ``characters``: what every key store creates."""
    chosen = check_characters(characters)
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    key = ApiKey("k_" + secrets.token_hex(6), hash_secret(secret), chosen, as_utc(now), source)
    return NewKey(key, secret)


def missing_key(key_id: str, location: str) -> NotFound:
    """The error for revoking a key ``location`` does not hold."""
    hint = " (keys from OMOIDE_API_KEYS are removed there)" if key_id.startswith("env-") else ""
    return NotFound(f"no API key {key_id!r} in {location}{hint}")


def authorize(key: ApiKey, character_id: str) -> None:
    """AccessDenied (authenticated) unless ``key`` may use ``character_id``."""
    if not key.allows(character_id):
        raise AccessDenied(
            f"API key {key.key_id} may not use character {character_id!r}", authenticated=True
        )


# --- OMOIDE_API_KEYS ------------------------------------------------------------------
def parse_key_spec(spec: str) -> tuple[ApiKey, ...]:
    """Keys from ``secret:character,character;secret:*``; errors never quote a secret."""
    keys: list[ApiKey] = []
    entries = [entry.strip() for entry in spec.split(";")]
    for position, entry in enumerate((entry for entry in entries if entry), start=1):
        secret, separator, characters = entry.rpartition(":")
        secret = secret.strip()
        if not separator or not secret:
            raise ConfigError(
                f"OMOIDE_API_KEYS entry {position} must look like "
                "'secret:character[,character...]' or 'secret:*'"
            )
        try:
            chosen = check_characters(part for part in characters.split(",") if part.strip())
        except InvalidInput as exc:
            raise ConfigError(f"OMOIDE_API_KEYS entry {position}: {exc}") from exc
        keys.append(
            ApiKey(f"env-{position}", hash_secret(secret), chosen, None, ENVIRONMENT_SOURCE)
        )
    return tuple(keys)


def environment_keys(settings: Settings) -> tuple[ApiKey, ...]:
    """The keys of the ``api_keys`` setting (``OMOIDE_API_KEYS``), if any."""
    if settings.api_keys is None:
        return ()
    return parse_key_spec(settings.api_keys.get_secret_value())


# --- the key file -----------------------------------------------------------------------
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

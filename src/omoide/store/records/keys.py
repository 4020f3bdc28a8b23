"""API keys as stored: never a secret, only its hash, and the characters a key may use.

Where keys are kept: :class:`~omoide.store.sqlite.key_file.KeyFile` (the embedded
profile's ``keys.json``) or :class:`~omoide.store.server.keys.PostgresKeyStore`; how a
presented secret is checked: :mod:`omoide.keys`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from omoide.domain import as_utc
from omoide.errors import InvalidInput, NotFound
from omoide.store.records.profile import check_character_id

ALL_CHARACTERS: Final = "*"
SECRET_PREFIX: Final = "omo_"
FILE_SOURCE: Final = "file"
DATABASE_SOURCE: Final = "database"
ENVIRONMENT_SOURCE: Final = "environment"


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

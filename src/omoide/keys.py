"""API keys for the HTTP service: who may use which characters.

Keys come from two places, used together:

* a :class:`KeyStore`, managed by ``omoide keys create | list | revoke``: the key file
  ``<data_dir>/keys.json`` (:class:`~omoide.store.sqlite.key_file.KeyFile`) in the
  embedded profile, the ``api_keys``
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

The stored values (:class:`~omoide.store.records.keys.ApiKey`, ...) live in
:mod:`omoide.store.records.keys`.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from omoide.config import Settings
from omoide.errors import AccessDenied, ConfigError, InvalidInput
from omoide.store.records.keys import (
    ENVIRONMENT_SOURCE,
    ApiKey,
    NewKey,
    check_characters,
    hash_secret,
)

ChangeMarker = object
"""What a key store's :meth:`KeyStore.fingerprint` returns: equal while its keys are the same
(compared with ``==``; the key file's
:data:`~omoide.store.sqlite.key_file.Fingerprint`, a database's change counter)."""


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

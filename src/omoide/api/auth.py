"""Who is calling: API keys from the key file and ``OMOIDE_API_KEYS``, checked per request.

The key file is re-read when it changes (its inode, size or modification time), so keys
created or revoked with ``omoide keys`` take effect on the next request, without a restart.

With no keys at all the service is open, but only to callers on the loopback interface:
:func:`create_app <omoide.api.app.create_app>` refuses to listen elsewhere without keys,
and this module refuses non-loopback clients even if the app was started some other way
(``uvicorn --host 0.0.0.0``) or every key was revoked while it ran.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import anyio

from omoide.config import Settings
from omoide.errors import AccessDenied
from omoide.keys import (
    ApiKey,
    Fingerprint,
    KeyFile,
    KeyRing,
    authorize,
    environment_keys,
    key_file_fingerprint,
    key_file_path,
    read_key_file,
)

OPEN_MODE_REFUSAL = (
    "no API keys are configured, so this service only answers on the loopback interface; "
    "create one with `omoide keys create --character <id>` or set OMOIDE_API_KEYS"
)


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` is a loopback address (``127.0.0.0/8``, ``::1``) or ``localhost``."""
    if not host:
        return False
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Caller:
    """An authenticated key, or ``None`` for a loopback caller while no keys exist."""

    key: ApiKey | None

    def allows(self, character_id: str) -> bool:
        return self.key is None or self.key.allows(character_id)

    def authorize(self, character_id: str) -> None:
        """AccessDenied (403) unless this caller may use ``character_id``."""
        if self.key is not None:
            authorize(self.key, character_id)


class KeySource:
    """The keys in force: fixed environment keys plus the key file, reloaded on change."""

    def __init__(self, environment: tuple[ApiKey, ...], key_file: KeyFile) -> None:
        self._environment = environment
        self._file = key_file
        self._fingerprint: Fingerprint | None = None
        self._ring = KeyRing(environment)
        self._lock = anyio.Lock()

    @classmethod
    def open(cls, settings: Settings) -> KeySource:
        """Read the keys once, blocking (at start-up); ConfigError on a malformed key."""
        source = cls(environment_keys(settings), KeyFile(key_file_path(settings.data_dir)))
        path = source._file.path
        source._install(key_file_fingerprint(path), read_key_file(path))
        return source

    def _install(self, fingerprint: Fingerprint | None, file_keys: tuple[ApiKey, ...]) -> None:
        self._ring = KeyRing([*self._environment, *file_keys])
        self._fingerprint = fingerprint

    @property
    def current_ring(self) -> KeyRing:
        """The ring as last loaded (no file check)."""
        return self._ring

    async def ring(self) -> KeyRing:
        """The keys in force now, re-reading the key file if it changed."""
        fingerprint = await self._file.fingerprint()
        if fingerprint == self._fingerprint:
            return self._ring
        async with self._lock:
            fingerprint = await self._file.fingerprint()
            if fingerprint != self._fingerprint:
                self._install(fingerprint, await self._file.load())
        return self._ring

    async def identify(self, secret: str | None, client_host: str | None) -> Caller:
        """The caller behind ``secret``; AccessDenied (401) if it is missing or wrong."""
        ring = await self.ring()
        if ring.is_empty:
            if is_loopback(client_host):
                return Caller(None)
            raise AccessDenied(OPEN_MODE_REFUSAL, authenticated=False)
        return Caller(ring.authenticate(secret))

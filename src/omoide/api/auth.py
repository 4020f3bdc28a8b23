"""Who is calling: API keys from the key store and ``OMOIDE_API_KEYS``, checked per request.

The key store (the key file in the embedded profile, PostgreSQL in the server profile) is
asked for its change marker on every request and re-read when it changed, so keys created
or revoked with ``omoide keys`` (on any instance, in the server profile) take effect on the
next request, without a restart.

With no keys at all the service is open, but only to callers on the loopback interface:
:func:`create_app <omoide.api.app.create_app>` refuses to listen elsewhere without keys,
and this module refuses non-loopback clients even if the app was started some other way
(``uvicorn --host 0.0.0.0``) or every key was revoked while it ran.

Behind a proxy on the same machine every request comes from loopback, so a request that
carries a proxy header (``Forwarded``, ``X-Forwarded-For``, ``X-Real-IP``) is not local
unless it comes from an address in ``Settings.forwarded_allow_ips`` and every address
those headers name is loopback too (:func:`is_local_request`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import anyio

from omoide.config import Settings
from omoide.errors import AccessDenied
from omoide.keys import ChangeMarker, KeyRing, KeyStore, authorize, environment_keys
from omoide.store.records.keys import ApiKey
from omoide.store.sqlite.key_file import key_file_path, read_key_file

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


PROXY_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip")
_FORWARDED_FOR = re.compile(r'for\s*=\s*"?([^";,]+)', re.IGNORECASE)


def _host_of(node: str) -> str:
    """``1.2.3.4``, ``[::1]:8080`` or ``1.2.3.4:80`` as its host."""
    node = node.strip().strip('"')
    if node.startswith("["):
        return node[1 : node.find("]")] if "]" in node else node
    return node.split(":")[0] if node.count(":") == 1 else node


def forwarded_clients(headers: Iterable[tuple[str, str]]) -> list[str]:
    """Every client address the proxy headers name, from every line of each (an empty
    header names an unknown one). ``headers`` are (name, value) pairs, names in lower case."""
    found: list[str] = []
    for name, value in headers:
        if name not in PROXY_HEADERS:
            continue
        nodes = (_FORWARDED_FOR.findall(value) or [""]) if name == "forwarded" else value.split(",")
        found.extend(_host_of(node) for node in nodes)
    return found


def is_local_request(
    peer: str | None, headers: Iterable[tuple[str, str]], trusted_proxies: Collection[str]
) -> bool:
    """Whether a request comes from this machine, for open mode (see the module docstring)."""
    if not is_loopback(peer):
        return False
    clients = forwarded_clients(headers)
    if not clients:
        return True
    return peer in trusted_proxies and all(is_loopback(client) for client in clients)


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

    def authorize_all(self, what: str) -> None:
        """AccessDenied (403) unless this caller may use every character (a ``*`` key):
        ``what`` spans characters, so a key bound to some of them may not see it."""
        if self.key is not None and not self.key.all_characters:
            raise AccessDenied(
                f"API key {self.key.key_id} is bound to characters; {what} needs a key for "
                "all characters (`omoide keys create --character '*'`)",
                authenticated=True,
            )


def startup_ring(settings: Settings) -> KeyRing | None:
    """The keys known before anything is opened, read blocking; ConfigError if malformed.

    The environment's keys plus the key file in the embedded profile. ``None`` in the server
    profile, whose keys are in its database: :meth:`KeySource.start` reads them once the
    store is open (the environment's keys are still checked here).
    """
    environment = environment_keys(settings)
    if settings.store != "sqlite":
        return None
    return KeyRing([*environment, *read_key_file(key_file_path(settings.data_dir))])


class KeySource:
    """The keys in force: fixed environment keys plus a key store, reloaded on change."""

    def __init__(self, environment: tuple[ApiKey, ...], store: KeyStore) -> None:
        self._environment = environment
        self._store = store
        self._fingerprint: ChangeMarker = None
        self._ring = KeyRing(environment)
        self._lock = anyio.Lock()

    @classmethod
    async def start(cls, environment: tuple[ApiKey, ...], store: KeyStore) -> KeySource:
        """A source with the store's keys read once; ConfigError on a malformed key."""
        source = cls(environment, store)
        await source._reload()
        return source

    async def _reload(self) -> None:
        fingerprint = await self._store.fingerprint()
        self._ring = KeyRing([*self._environment, *await self._store.load()])
        self._fingerprint = fingerprint

    @property
    def current_ring(self) -> KeyRing:
        """The ring as last loaded (no check of the store)."""
        return self._ring

    async def ring(self) -> KeyRing:
        """The keys in force now, re-reading the key store if it changed."""
        if await self._store.fingerprint() == self._fingerprint:
            return self._ring
        async with self._lock:
            if await self._store.fingerprint() != self._fingerprint:
                await self._reload()
        return self._ring

    async def identify(self, secret: str | None, *, local: bool) -> Caller:
        """The caller behind ``secret``; AccessDenied (401) if it is missing or wrong.

        ``local`` says whether the request comes from this machine (:func:`is_local_request`).
        """
        ring = await self.ring()
        if ring.is_empty:
            if local:
                return Caller(None)
            raise AccessDenied(OPEN_MODE_REFUSAL, authenticated=False)
        return Caller(ring.authenticate(secret))

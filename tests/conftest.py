"""What every test shares: the anyio backend, and an environment without ``OMOIDE_*``.

Tests ignore the developer's environment: every ``OMOIDE_*`` variable is removed for the
whole run, from before collection (modules that build Settings when imported, module and
session fixtures) to the end, and again around each test,
except ``OMOIDE_TEST_*`` (the test suite's own: server URLs, the browser requirement, the
local servers' cache, ...). A test that needs a variable sets it itself (``monkeypatch``).
``OMOIDE_CACHE_DIR`` is set for the run, to a directory of its own: the model cache a
test's settings use is never the developer's (``~/.cache/omoide``).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

KEPT_PREFIX = "OMOIDE_TEST_"


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


_RUN_CACHE_DIR = tempfile.mkdtemp(prefix="omoide-test-cache-")


def _clear_omoide_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("OMOIDE_") and not name.startswith(KEPT_PREFIX):
            monkeypatch.delenv(name)
    monkeypatch.setenv("OMOIDE_CACHE_DIR", _RUN_CACHE_DIR)


_RUN_ENVIRONMENT = pytest.StashKey[pytest.MonkeyPatch]()


def pytest_configure(config: pytest.Config) -> None:
    """Before collection: a test module may build Settings when it is imported."""
    monkeypatch = pytest.MonkeyPatch()
    _clear_omoide_environment(monkeypatch)
    config.stash[_RUN_ENVIRONMENT] = monkeypatch


def pytest_unconfigure(config: pytest.Config) -> None:
    monkeypatch = config.stash.get(_RUN_ENVIRONMENT, None)
    if monkeypatch is not None:
        monkeypatch.undo()
    shutil.rmtree(_RUN_CACHE_DIR, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_omoide_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_omoide_environment(monkeypatch)

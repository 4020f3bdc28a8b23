"""What every test shares: the anyio backend, and an environment without ``OMOIDE_*``.

Tests ignore the developer's environment: every ``OMOIDE_*`` variable is removed for the
whole session (module and session fixtures build Settings too) and again around each test,
except ``OMOIDE_TEST_*`` (the test suite's own: server URLs, the browser requirement, the
local servers' cache, ...). A test that needs a variable sets it itself (``monkeypatch``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

KEPT_PREFIX = "OMOIDE_TEST_"


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


def _clear_omoide_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("OMOIDE_") and not name.startswith(KEPT_PREFIX):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session", autouse=True)
def _no_omoide_environment_in_the_session() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _clear_omoide_environment(monkeypatch)
        yield


@pytest.fixture(autouse=True)
def _no_omoide_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_omoide_environment(monkeypatch)

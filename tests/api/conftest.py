from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from tests.api.harness import Api, make_characters_dir, make_settings, running_api


@pytest.fixture(scope="module")
async def api(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Api]:
    """One running service per test module (open mode: no keys, loopback client).

    Tests share it and stay apart by using their own viewer ids (the ``viewer`` fixture).
    """
    root = tmp_path_factory.mktemp("api")
    characters = make_characters_dir(root, "ash")
    settings = make_settings(root / "data", characters_dirs=[characters])
    async with running_api(settings) as running:
        yield running


@pytest.fixture
def viewer() -> str:
    """A viewer id no other test uses."""
    return f"viewer-{uuid.uuid4().hex[:10]}"

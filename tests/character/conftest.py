from __future__ import annotations

import pytest

from omoide.character import CharacterProfile


@pytest.fixture
def profile() -> CharacterProfile:
    """A small character with the default emotion labels."""
    return CharacterProfile(id="tester", name="Tess")

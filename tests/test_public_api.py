from __future__ import annotations

import omoide


def test_public_api_is_pinned() -> None:
    assert sorted(omoide.__all__) == sorted(
        name for name in dir(omoide) if not name.startswith("_") and name[0].isupper()
    )
    for name in omoide.__all__:
        assert getattr(omoide, name) is not None

"""omoide's HTTP service: REST API, chat over server-sent events, API keys.

``create_app`` and ``app_from_environment`` are imported on first use, so that the
response models (``omoide.api.views``), which the CLI prints too, load without the web
stack.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from omoide.api.app import app_from_environment, create_app

__all__ = ["app_from_environment", "create_app"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module 'omoide.api' has no attribute {name!r}")
    return getattr(importlib.import_module("omoide.api.app"), name)

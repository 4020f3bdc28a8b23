"""The ``omoide`` command (``omoide.cli.main``), one module per group of commands:
``memory`` (remember, search, ...), ``maintenance`` (decay, restore, reembed), ``service``
(demo, chat, serve, mcp), ``server`` (check, reindex, migrate), ``stream`` (stream),
``identity`` (identity) and ``keys``; ``common`` and ``render`` are what they all share,
``remote`` what ``stream`` and ``identity`` share (a server or the library)."""

from omoide.cli.main import app, main

__all__ = ["app", "main"]

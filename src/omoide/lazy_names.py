"""A package's public names imported from their modules on first use (PEP 562).

``omoide.embed``, ``omoide.llm`` and ``omoide.wiring`` name many classes whose modules pull
in heavy dependencies (a model runtime, HTTP clients, the whole pipeline); a command that
needs one of them should not pay for the others. Each package lists where each of its
names lives and takes its module ``__getattr__`` from :func:`names_on_first_use`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def names_on_first_use(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: a name of ``homes`` (name -> module of the
    package) is imported from its module when first asked for and kept in ``namespace``
    (the package's ``globals()``), so it is imported once."""

    def attribute(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    return attribute

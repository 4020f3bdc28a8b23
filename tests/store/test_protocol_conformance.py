"""Every MemoryStore implementation has exactly the Protocol's signatures; scope is everywhere.

Implementations are found by scanning the ``omoide.store`` package for classes named
``*MemoryStore``, so a new backend is checked without anyone registering it here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest

import omoide.store
from omoide.store.base import MemoryStore

NOT_TOUCHING_MEMORY = {"embedding", "close"}


def protocol_members() -> dict[str, Any]:
    return {
        name: value
        for name, value in vars(MemoryStore).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }


def implementations() -> list[type]:
    found: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(omoide.store.__path__, "omoide.store."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and name.endswith("MemoryStore")
                and value is not MemoryStore
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{name}"] = value
    return [found[key] for key in sorted(found)]


def describe(function: Callable[..., Any]) -> tuple[object, ...]:
    """Parameter names, kinds, defaults and annotations (as source strings), and the return."""
    signature = inspect.signature(function)
    parameters = tuple(
        (parameter.name, parameter.kind, parameter.default, str(parameter.annotation))
        for parameter in signature.parameters.values()
    )
    return parameters, str(signature.return_annotation), inspect.iscoroutinefunction(function)


def test_the_scan_finds_the_sqlite_store() -> None:
    names = [cls.__name__ for cls in implementations()]
    assert "SqliteMemoryStore" in names


@pytest.mark.parametrize("implementation", implementations(), ids=lambda cls: cls.__name__)
def test_implementation_matches_the_protocol_exactly(implementation: type) -> None:
    mismatches: list[str] = []
    for name, expected in protocol_members().items():
        actual = inspect.getattr_static(implementation, name, None)
        if actual is None:
            mismatches.append(f"{name}: missing")
        elif isinstance(expected, property):
            if not isinstance(actual, property) or actual.fget is None or expected.fget is None:
                mismatches.append(f"{name}: must be a property")
            elif describe(actual.fget) != describe(expected.fget):
                mismatches.append(f"{name}: {describe(actual.fget)} != {describe(expected.fget)}")
        elif describe(actual) != describe(expected):
            mismatches.append(f"{name}: {describe(actual)} != {describe(expected)}")
    assert mismatches == []


@pytest.mark.parametrize("name", sorted(set(protocol_members()) - NOT_TOUCHING_MEMORY))
def test_every_method_touching_memory_takes_a_scope_or_character(name: str) -> None:
    parameters = inspect.signature(protocol_members()[name]).parameters
    scoped = {(parameter.name, str(parameter.annotation)) for parameter in parameters.values()} & {
        ("scope", "Scope"),
        ("scopes", "Sequence[Scope]"),
        ("character_id", "str"),
    }
    assert scoped, f"MemoryStore.{name} can touch memory without a scope"


def test_the_exemptions_really_do_not_touch_memory() -> None:
    members = protocol_members()
    assert isinstance(members["embedding"], property)
    assert list(inspect.signature(members["close"]).parameters) == ["self"]

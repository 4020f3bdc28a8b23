"""Both memory stores have the same methods, signature for signature; scope is everywhere;
and each plays every role a consumer declares.

No Protocol names the whole store: consumers declare small roles where they use them
(``memory.recall.MemorySearch``, ``memory.manager.ViewerAdmin``, ...). Implementations are
found by scanning the ``omoide.store`` package for classes named ``*MemoryStore``, so a new
backend is checked without anyone registering it here; the roles by scanning the use
cases for Protocols whose docstring says they are played by "a memory store".
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import pytest

import omoide.store

NOT_TOUCHING_MEMORY = {"embedding", "close"}
ONE_BACKEND_ONLY = {"scrub", "engines"}
"""The SQLite file's scrub (privacy.viewer_data.Scrubbable); the server's engines."""


def implementations() -> list[type]:
    found: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(omoide.store.__path__, "omoide.store."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and name.endswith("MemoryStore")
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{name}"] = value
    return [found[key] for key in sorted(found)]


def members(cls: type) -> dict[str, Any]:
    """Public methods and properties, as defined (inherited ones included)."""
    found: dict[str, Any] = {}
    for name in dir(cls):
        if name.startswith("_"):
            continue
        value = inspect.getattr_static(cls, name)
        if callable(value) or isinstance(value, property):
            found[name] = value
    return found


def describe(member: Any) -> tuple[object, ...]:
    """Parameter names, kinds, defaults and annotations (as source strings), and the return."""
    function = member.fget if isinstance(member, property) else member
    assert callable(function)
    signature = inspect.signature(function)
    parameters = tuple(
        (parameter.name, parameter.kind, parameter.default, str(parameter.annotation))
        for parameter in signature.parameters.values()
    )
    return (
        parameters,
        str(signature.return_annotation),
        inspect.iscoroutinefunction(function),
        isinstance(member, property),
    )


CONSUMERS = ("memory", "stream", "privacy", "chat", "character")
"""The use-case packages, where the store's roles are declared."""


def consumer_modules() -> list[str]:
    names: list[str] = []
    for package in CONSUMERS:
        path = importlib.import_module(f"omoide.{package}").__path__
        names.extend(info.name for info in pkgutil.walk_packages(path, f"omoide.{package}."))
    return names


def store_roles() -> list[type]:
    """Every Protocol of the use cases that a memory store plays (its docstring says so)."""
    found: dict[str, type] = {}
    for module_name in consumer_modules():
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and getattr(value, "_is_protocol", False)
                and value.__module__ == module.__name__
                and "(a memory store" in (value.__doc__ or "")
            ):
                found[f"{value.__module__}.{name}"] = value
    return [found[key] for key in sorted(found)]


def role_members(role: type) -> dict[str, Any]:
    """The role's own members and those of the roles it extends."""
    found: dict[str, Any] = {}
    for cls in reversed(role.__mro__):
        if cls is object or not getattr(cls, "_is_protocol", False):
            continue
        for name, value in vars(cls).items():
            if not name.startswith("_") and (callable(value) or isinstance(value, property)):
                found[name] = value
    return found


def shared_methods() -> dict[str, Any]:
    first, *_ = implementations()
    return {name: value for name, value in members(first).items() if name not in ONE_BACKEND_ONLY}


def test_the_scan_finds_both_stores() -> None:
    names = [cls.__name__ for cls in implementations()]
    assert names == ["ServerMemoryStore", "SqliteMemoryStore"]


def test_the_scan_finds_the_roles_consumers_declare() -> None:
    names = {role.__name__ for role in store_roles()}
    assert {"MemorySearch", "TurnWriting", "FactWriting", "ViewerAdmin", "DecayMaintenance"} <= (
        names
    )


@pytest.mark.parametrize("implementation", implementations(), ids=lambda cls: cls.__name__)
def test_both_stores_have_the_same_methods_exactly(implementation: type) -> None:
    own = {
        name: describe(value)
        for name, value in members(implementation).items()
        if name not in ONE_BACKEND_ONLY
    }
    assert own == {name: describe(value) for name, value in shared_methods().items()}


@pytest.mark.parametrize("role", store_roles(), ids=lambda role: role.__name__)
def test_every_role_is_played_by_every_store_exactly(role: type) -> None:
    mismatches: list[str] = []
    for implementation in implementations():
        played = members(implementation)
        for name, expected in role_members(role).items():
            actual = played.get(name)
            if actual is None:
                mismatches.append(f"{implementation.__name__}.{name}: missing")
            elif describe(actual) != describe(expected):
                mismatches.append(f"{implementation.__name__}.{name}: {describe(actual)}")
    assert mismatches == []


@pytest.mark.parametrize("name", sorted(set(shared_methods()) - NOT_TOUCHING_MEMORY))
def test_every_method_touching_memory_takes_a_scope_or_character(name: str) -> None:
    parameters = inspect.signature(shared_methods()[name]).parameters
    scoped = {(parameter.name, str(parameter.annotation)) for parameter in parameters.values()} & {
        ("scope", "Scope"),
        ("scopes", "Sequence[Scope]"),
        ("character_id", "str"),
    }
    assert scoped, f"the store's {name} can touch memory without a scope"


def test_the_exemptions_really_do_not_touch_memory() -> None:
    methods = shared_methods()
    assert isinstance(methods["embedding"], property)
    assert list(inspect.signature(methods["close"]).parameters) == ["self"]

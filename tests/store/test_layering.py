"""The store sits below the memory layer: nothing under ``omoide.store`` imports upwards."""

from __future__ import annotations

import ast
from pathlib import Path

import omoide.store

UPPER_LAYERS = (
    "omoide.memory",
    "omoide.privacy",
    "omoide.api",
    "omoide.cli",
    "omoide.wiring",
)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
    return found


def upward_imports(root: Path) -> list[str]:
    return sorted(
        f"{path.relative_to(root)}: {module}"
        for path in root.rglob("*.py")
        for module in imported_modules(path)
        if module.startswith(UPPER_LAYERS)
    )


def test_the_store_imports_nothing_from_the_layers_above_it() -> None:
    assert upward_imports(Path(omoide.store.__path__[0])) == []


def test_the_scan_sees_an_upward_import(tmp_path: Path) -> None:
    (tmp_path / "queue.py").write_text("from omoide.memory.queue import TurnQueue\n")
    assert upward_imports(tmp_path) == ["queue.py: omoide.memory.queue"]

"""Imports flow one way: shells -> wiring -> use cases -> ports and adapters -> domain.

Two rules, read from the source (``ast``, nothing imported):

* every module imports only its own layer or the layers below it (:data:`LAYERS`);
* the store is stricter: besides itself and third-party packages, it imports only the
  domain's leaf modules (:data:`STORE_MAY_IMPORT`), not even the embedder or the model
  ports beside it; a seam it needs (an embedder, for re-embedding) it declares itself.

Each rule is also run on a planted upward import, so a scan that sees nothing fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import omoide

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "domain",
        (
            "omoide.domain",
            "omoide.metadata",
            "omoide.errors",
            "omoide.clock",
            "omoide.config",
            "omoide.text_rules",
            "omoide.fence",
            "omoide.injection",
            "omoide.metrics",
            "omoide.wire_types",
            "omoide.lazy_names",
            "omoide.text_caches",
        ),
    ),
    ("ports and adapters", ("omoide.store", "omoide.embed", "omoide.llm")),
    (
        "use cases",
        (
            "omoide.memory",
            "omoide.stream",
            "omoide.character",
            "omoide.chat",
            "omoide.privacy",
            "omoide.keys",
        ),
    ),
    ("composition root", ("omoide.wiring", "omoide.wiring_server")),
    ("shells", ("omoide.api", "omoide.web", "omoide.cli", "omoide.__main__")),
)
"""Lowest first; a module belongs to the layer with a prefix naming it or its package
(``omoide.cli`` covers ``omoide.cli_keys`` too). ``omoide`` itself, the public API, and
any module not listed count as shells: nothing may import them."""

STORE_MAY_IMPORT = (
    "omoide.store",
    "omoide.domain",
    "omoide.metadata",
    "omoide.errors",
    "omoide.clock",
    "omoide.text_rules",
    "omoide.text_caches",
)


def layer_of(module: str) -> int:
    if module.startswith("omoide.cli"):
        module = "omoide.cli"
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(module == prefix or module.startswith(f"{prefix}.") for prefix in prefixes):
            return rank
    return len(LAYERS) - 1


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
    return {module for module in found if module == "omoide" or module.startswith("omoide.")}


def upward_imports(root: Path) -> list[str]:
    """``module -> imported`` for every import of a higher layer under the package ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(root, path)
        for imported in sorted(imported_modules(path)):
            if layer_of(imported) > layer_of(module):
                found.append(f"{module} -> {imported}")
    return found


def store_imports_outside_its_allowance(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "store").rglob("*.py")):
        module = module_name(root, path)
        for imported in sorted(imported_modules(path)):
            if not any(
                imported == allowed or imported.startswith(f"{allowed}.")
                for allowed in STORE_MAY_IMPORT
            ):
                found.append(f"{module} -> {imported}")
    return found


PACKAGE = Path(omoide.__path__[0])


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert upward_imports(PACKAGE) == []


def test_the_store_imports_only_itself_and_the_domain() -> None:
    assert store_imports_outside_its_allowance(PACKAGE) == []


def test_every_layer_is_placed_as_declared() -> None:
    assert layer_of("omoide.domain") == 0
    assert layer_of("omoide.store.sqlite.files") == layer_of("omoide.embed.base") == 1
    assert layer_of("omoide.memory.drain") == layer_of("omoide.keys") == 2
    assert layer_of("omoide.wiring") == layer_of("omoide.wiring_server") == 3
    assert layer_of("omoide.cli_keys") == layer_of("omoide.api.app") == 4
    assert layer_of("omoide") == layer_of("omoide.not_yet_placed") == 4


def plant(tmp_path: Path, relative: str, source: str) -> Path:
    root = tmp_path / "omoide"
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return root


def test_the_scans_see_a_planted_upward_import(tmp_path: Path) -> None:
    root = plant(tmp_path, "store/sqlite/queue.py", "from omoide.memory.queue import TurnQueue\n")
    plant(tmp_path, "memory/drain.py", "import omoide.wiring\n")
    plant(tmp_path, "domain.py", "from omoide.store.base import Hit\n")
    assert upward_imports(root) == [
        "omoide.domain -> omoide.store.base",
        "omoide.memory.drain -> omoide.wiring",
        "omoide.store.sqlite.queue -> omoide.memory.queue",
    ]
    assert store_imports_outside_its_allowance(root) == [
        "omoide.store.sqlite.queue -> omoide.memory.queue"
    ]


def test_the_store_scan_sees_a_sideways_import(tmp_path: Path) -> None:
    root = plant(tmp_path, "store/sqlite/reembed.py", "from omoide.embed.base import Embedder\n")
    assert upward_imports(root) == []  # same layer: allowed in general
    assert store_imports_outside_its_allowance(root) == [
        "omoide.store.sqlite.reembed -> omoide.embed.base"
    ]

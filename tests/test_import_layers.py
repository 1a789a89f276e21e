"""The house's layers hold: no import cycle and no import from a lower layer to a higher one.

An AST scan of ``src/ofc`` (lazy imports inside functions and ``TYPE_CHECKING`` imports count
like any other) and a scan of the browser client's ES modules. The core (rules, engine, series,
formats) imports the standard library only. Each check is also run on a small planted tree, so
the test is seen to fail where it must.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

LAYERS: dict[str, int] = {
    "rules": 0,
    "engine": 1,
    "series": 2,
    "formats": 3,
    "i18n": 4,
    "fast": 5,
    "solver": 6,
    "bots": 7,
    "sim": 8,
    "train": 8,
    "keep": 9,
    "env": 9,
    "terminal": 10,
    "server": 11,
    "cli": 12,
}
"""Each package's layer, bottom up: a module imports only from its own layer or lower ones."""
TOP = 13
"""The layer of ``ofc`` itself and ``ofc.__main__`` (the command's entry)."""
CORE = ("rules", "engine", "series", "formats")
"""Packages that import nothing beyond the standard library."""


def modules(src: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``src`` by dotted name (a package by its own name)."""
    found = {}
    for path in sorted((src / package).rglob("*.py")):
        name = ".".join(path.relative_to(src).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported(name: str, path: Path) -> Iterable[str]:
    """Every absolute module name that the module ``name`` imports anywhere in its body."""
    in_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if in_package else name.split(".")[:-1]
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(src: Path, package: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Edges between the package's modules, and each module's imports from outside the package."""
    known = modules(src, package)
    edges: dict[str, set[str]] = {name: set() for name in known}
    outside: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target in imported(name, path):
            if target.split(".")[0] != package:
                outside[name].add(target.split(".")[0])
                continue
            while target not in known:  # ``from ofc.x import name``: the module is ofc.x
                target = target.rpartition(".")[0]
            if target != name:
                edges[name].add(target)
    return edges, outside


def cycles(edges: dict[str, set[str]], faces: set[str]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), package faces left out."""
    graph = {name: targets - faces for name, targets in edges.items() if name not in faces}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while (member := stack.pop()) != node:
                group.append(member)
            if group:
                found.append(sorted([node, *group]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer(name: str) -> int:
    parts = name.split(".")
    return LAYERS.get(parts[1], TOP) if len(parts) > 1 else TOP


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Imports from a module to a module of a higher layer."""
    return [
        f"{name} -> {target}" for name, targets in edges.items() for target in targets if layer(target) > layer(name)
    ]


def beyond_stdlib(outside: dict[str, set[str]], core: Iterable[str]) -> list[str]:
    """Imports of packages outside the standard library by the core's modules."""
    prefixes = tuple(f"ofc.{package}" for package in core)
    return [
        f"{name} -> {target}"
        for name, targets in outside.items()
        if name.startswith(prefixes)
        for target in targets
        if target not in sys.stdlib_module_names and target != "__future__"
    ]


JS_IMPORT = re.compile(r"""(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]""")


def js_cycles(folder: Path) -> list[list[str]]:
    """Cycles among the ES modules of ``folder`` (static and dynamic relative imports)."""
    edges: dict[str, set[str]] = {}
    for path in folder.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        edges[path.name] = {Path(a or b).name for a, b in JS_IMPORT.findall(text)}
    return cycles(edges, set())


def test_no_import_cycles() -> None:
    edges, _ = import_graph(SRC, "ofc")
    faces = {name for name, path in modules(SRC, "ofc").items() if path.name == "__init__.py"}
    assert cycles(edges, faces) == []


def test_no_import_from_a_lower_layer_to_a_higher_one() -> None:
    edges, _ = import_graph(SRC, "ofc")
    assert upward(edges) == []


def test_every_package_has_a_layer() -> None:
    packages = {path.parent.name for path in (SRC / "ofc").glob("*/__init__.py")}
    assert packages == set(LAYERS)
    assert sorted(path.name for path in (SRC / "ofc").glob("*.py")) == ["__init__.py", "__main__.py"]


def test_the_core_imports_the_standard_library_only() -> None:
    _, outside = import_graph(SRC, "ofc")
    assert beyond_stdlib(outside, CORE) == []


def test_no_cycles_among_the_browser_modules() -> None:
    assert js_cycles(SRC / "ofc" / "web") == []


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A tiny ``ofc`` tree with a clean layering, for the checks to be tried on."""
    for folder in ("ofc", "ofc/rules", "ofc/engine"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "ofc/rules/cards.py").write_text("import random\n", encoding="utf-8")
    (tmp_path / "ofc/rules/ranking.py").write_text("from ofc.rules.cards import x\n", encoding="utf-8")
    (tmp_path / "ofc/engine/hand.py").write_text("from ofc.rules import ranking\n", encoding="utf-8")
    return tmp_path


def test_the_checks_pass_on_a_clean_planted_tree(planted: Path) -> None:
    edges, outside = import_graph(planted, "ofc")
    assert edges["ofc.engine.hand"] == {"ofc.rules", "ofc.rules.ranking"}
    assert (cycles(edges, {"ofc", "ofc.rules", "ofc.engine"}), upward(edges)) == ([], [])
    assert beyond_stdlib(outside, CORE) == []


def test_a_planted_lazy_cycle_is_found(planted: Path) -> None:
    (planted / "ofc/rules/cards.py").write_text("def f():\n    from . import ranking\n", encoding="utf-8")
    edges, _ = import_graph(planted, "ofc")
    assert cycles(edges, {"ofc", "ofc.rules", "ofc.engine"}) == [["ofc.rules.cards", "ofc.rules.ranking"]]


def test_a_planted_upward_import_under_type_checking_is_found(planted: Path) -> None:
    text = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ofc.engine.hand import Hand\n"
    (planted / "ofc/rules/cards.py").write_text(text, encoding="utf-8")
    edges, _ = import_graph(planted, "ofc")
    assert upward(edges) == ["ofc.rules.cards -> ofc.engine.hand"]


def test_a_planted_numpy_import_in_the_core_is_found(planted: Path) -> None:
    (planted / "ofc/engine/hand.py").write_text("import numpy as np\n", encoding="utf-8")
    _, outside = import_graph(planted, "ofc")
    assert beyond_stdlib(outside, CORE) == ["ofc.engine.hand -> numpy"]


def test_a_planted_browser_cycle_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\n', encoding="utf-8")
    (tmp_path / "b.js").write_text('export const b = 1;\nconst a = () => import("./a.js");\n', encoding="utf-8")
    (tmp_path / "c.js").write_text('import { b } from "./b.js";\n', encoding="utf-8")
    assert js_cycles(tmp_path) == [["a.js", "b.js"]]

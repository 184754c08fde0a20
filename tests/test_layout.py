"""The package's layout rules, read from the source with ast (nothing is imported):

- no import cycle among harp_desktop modules. Every import counts: module level, inside
  functions and under TYPE_CHECKING, because a cycle hidden in a function is still a cycle
  in the design (issue 16: agent -> api, cluster <-> api, cli <-> cli_*);
- no Qt import outside harp_desktop/ui/ (the CLI, the API and Ray workers run without a display).

Each rule is also run on a small made-up tree that breaks it, so a checker that stopped
seeing imports would fail here rather than pass silently.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "harp_desktop"
QT_ROOTS = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "PySide2", "qtpy", "pyqtgraph")


def modules(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file under the package folder."""
    out = {}
    for f in sorted(package.rglob("*.py")):
        parts = list(f.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def imported_names(name: str, path: Path, mods: dict | frozenset = frozenset()) -> list[tuple[str, int]]:
    """(absolute dotted name, line) of every import in the file, relative imports resolved.
    ``from pkg import sub`` names pkg.sub when that is one of ``mods`` (a submodule), else pkg:
    Python runs a package's __init__ before any submodule, a parent relation, not a dependency."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(p for p in [*parts, base] if p)
            found += [(f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base, node.lineno) for a in node.names]
    return found


def import_graph(package: Path) -> tuple[dict[str, set[str]], dict[tuple[str, str], list[int]]]:
    """module -> the package's modules it imports, and the lines of each edge."""
    mods = modules(package)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    lines: dict[tuple[str, str], list[int]] = {}
    for m, path in mods.items():
        for target, line in imported_names(m, path, mods):
            if target in mods and target != m:
                graph[m].add(target)
                lines.setdefault((m, target), []).append(line)
    return graph, lines


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def describe(comps: list[list[str]], graph: dict[str, set[str]], lines: dict) -> str:
    rows = []
    for comp in comps:
        rows.append("cycle: " + ", ".join(comp))
        rows += [f"  {a} -> {b} (line {', '.join(map(str, sorted(set(lines[a, b]))))})"
                 for a in comp for b in sorted(graph[a] & set(comp))]
    return "\n".join(rows)


def qt_imports(package: Path) -> list[str]:
    """file:line of every Qt import outside the package's ui/ folder."""
    bad = []
    for name, path in modules(package).items():
        if path.is_relative_to(package / "ui"):
            continue
        for target, line in imported_names(name, path):
            if target.split(".")[0] in QT_ROOTS:
                bad.append(f"{path.relative_to(package.parent)}:{line} imports {target}")
    return sorted(set(bad))


def test_no_import_cycles_among_harp_desktop_modules():
    graph, lines = import_graph(PACKAGE)
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300  # the scan sees the real package
    assert "harp_desktop.api" in graph["harp_desktop.cli.common"]  # function-level imports are edges too
    comps = cycles(graph)
    assert not comps, "break these cycles by moving the shared piece into a lower module:\n" + describe(
        comps, graph, lines)


def test_no_qt_import_outside_ui():
    assert qt_imports(PACKAGE) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path / "pkg"


def test_the_checks_find_what_they_forbid(tmp_path):
    pkg = _tree(tmp_path, {
        "pkg/__init__.py": "from pkg import cli\n",
        "pkg/cli/__init__.py": "from pkg.cli import ask\n",
        # a submodule imported from its package is no edge to the package __init__ ...
        "pkg/cli/ask.py": "from pkg.cli import common\nfrom pkg.cli.common import x\n",
        "pkg/cli/common.py": "x = 1\n",
        # ... but a cycle through a function-level, relative or TYPE_CHECKING import is one
        "pkg/api.py": "def f():\n    from pkg.agent import ask\n",
        "pkg/agent/__init__.py": "",
        "pkg/agent/ask.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..api import Library\n",
        "pkg/a.py": "from . import b\n",
        "pkg/b.py": "import pkg.a\n",
        "pkg/ui/window.py": "from PySide6.QtWidgets import QWidget\n",
        "pkg/report.py": "def plot():\n    import pyqtgraph as pg\n",
    })
    graph, lines = import_graph(pkg)
    assert graph["pkg.cli.ask"] == {"pkg.cli.common"} and graph["pkg.cli"] == {"pkg.cli.ask"}
    assert sorted(cycles(graph)) == [["pkg.a", "pkg.b"], ["pkg.agent.ask", "pkg.api"]]
    assert "pkg.agent.ask -> pkg.api (line 3)" in describe(cycles(graph), graph, lines)
    assert qt_imports(pkg) == ["pkg/report.py:2 imports pyqtgraph"]

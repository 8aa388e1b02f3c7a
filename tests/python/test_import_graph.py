"""The package's modules import each other without a circle (DESIGN.md: "Python presentation
without circles"). Every import of a lossylink module counts: at module level, inside a function
(deferred for start-up time), and under ``if TYPE_CHECKING:``; a circle that only deferred or
type-only imports keep working is still a circle in the design."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import lossylink

PACKAGE = Path(lossylink.__file__).resolve().parent


def module_names(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by dotted name (a package by its own name); an
    extension module by its stub (``_core.pyi``)."""
    modules = {}
    sources = [
        *root.rglob("*.py"),
        *(p for p in root.rglob("*.pyi") if not p.with_suffix(".py").exists()),
    ]
    for path in sorted(sources):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imported(node: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    """The dotted names an import statement asks for, ``from pkg import name`` as ``pkg.name``
    (a submodule if there is one; the caller falls back to ``pkg``)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            # Relative: level 1 is the module's own package (a package's __init__ is its own).
            base = module.split(".")
            drop = node.level - 1 if is_package else node.level
            base = base[: len(base) - drop]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        for alias in node.names:
            yield f"{prefix}.{alias.name}"
        yield prefix


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, anywhere in its source."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            names = list(_imported(node, module, is_package))
            if isinstance(node, ast.ImportFrom):
                # `from pkg import a, b`: each a submodule if one exists, else a name of pkg.
                *members, prefix = names
                found = [m for m in members if m in modules]
                targets = found if len(found) == len(members) else [*found, prefix]
            else:
                targets = names
            for target in targets:
                # `import a.b.c` needs a.b.c; the nearest existing module stands for it.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph[module].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as a list of modules (first repeated last), or None."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_package_imports_without_a_circle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 50, sorted(graph)  # the whole package was read
    assert "lossylink.scenario" in graph["lossylink.runner"]  # edges were found
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_checker_finds_a_circle_through_deferred_and_type_only_imports(
    tmp_path: Path,
) -> None:
    pkg = tmp_path / "toy"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy.sub import b\n"
    )
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import thing\n")
    (pkg / "c.py").write_text("from . import a\n")
    graph = import_graph(pkg)
    assert graph["toy.a"] == {"toy.sub.b"}
    assert graph["toy.sub.b"] == {"toy.c"}
    assert graph["toy.c"] == {"toy.a"}
    assert find_cycle(graph) == ["toy.a", "toy.sub.b", "toy.c", "toy.a"]
    # Without the back edge there is none.
    (pkg / "c.py").write_text("import os\n")
    assert find_cycle(import_graph(pkg)) is None

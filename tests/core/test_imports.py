"""No module inside ``domain/`` imports itself round a loop.

A cycle makes the order of imports decide whether a name exists yet, and it is usually hidden by an import
moved inside a function; so every import counts here, wherever in the module it is written.
"""
from __future__ import annotations

import ast
from pathlib import Path

import domain

ROOT = Path(domain.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def domain_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of ``domain`` that module ``name`` imports: ``from package import module`` imports the
    module, not the package (whose ``__init__`` only runs first, as for every submodule)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known
            found |= submodules
            if len(submodules) < len(node.names):
                found.add(base)
    return {module for module in found if module in known and module != name}


def import_graph() -> dict[str, set[str]]:
    modules = domain_modules()
    known = set(modules)
    return {name: imports_of(path, name, known) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One loop of imports, as the modules along it with the first repeated at the end, or ``None``."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for imported in sorted(graph[module]):
            if imported in on_path:
                return path[path.index(imported):] + [imported]
            if imported not in done:
                cycle = visit(imported)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(module)
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def test_the_domain_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle)


def test_a_cycle_is_found_where_there_is_one():
    graph = {"domain.game.decide": {"domain.game.flow"}, "domain.game.flow": {"domain.game.dig"},
             "domain.game.dig": {"domain.game.flow"}, "domain.game.rules": {"domain.game.decide"}}
    assert find_cycle(graph) == ["domain.game.flow", "domain.game.dig", "domain.game.flow"]

"""The package's import graph, read from the source (every import, function-level and TYPE_CHECKING ones
included), and the architecture's contracts checked on it. Used by tests/test_architecture.py, which
also runs these checks on small broken packages to show that each contract fails when broken."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT_PACKAGE = "logitscope"


@dataclass(frozen=True)
class Imports:
    internal: frozenset[str]   # modules of the package ("logitscope.protocol.api")
    external: frozenset[str]   # top-level names of everything else ("numpy", "PySide6")


def module_name(path: Path, src: Path) -> str:
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def read_graph(src: Path, package: str = ROOT_PACKAGE) -> dict[str, Imports]:
    """module -> what it imports. `from pkg import mod` counts as an import of pkg.mod when mod is a module
    (a plain name scan would record only pkg and miss the edge)."""
    paths = {module_name(p, src): p for p in sorted((src / package).rglob("*.py"))}
    graph: dict[str, Imports] = {}
    for name, path in paths.items():
        internal: set[str] = set()
        external: set[str] = set()
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
                froms: list[str] = []
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: resolve against this module's package
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[: len(here) - node.level + 1]
                    base = ".".join([*here, base] if base else here)
                froms = [f"{base}.{a.name}" for a in node.names]
                # the package counts when a name is not a module of it (a class from its __init__)
                targets = [base] if not all(f in paths for f in froms) else []
            else:
                continue
            for target in targets:
                if target == package or target.startswith(package + "."):
                    internal.add(target)
                else:
                    external.add(target.split(".")[0])
            internal.update(f for f in froms if f in paths)
        graph[name] = Imports(frozenset(m for m in internal if m in paths and m != name), frozenset(external))
    return graph


def cycles(graph: Mapping[str, Imports]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative: the graph is deep enough to hit Python's recursion limit
        work = [(start, iter(sorted(graph[start].internal)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt].internal))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def package_of(module: str) -> str:
    """logitscope.protocol.api -> protocol; logitscope.__main__ -> __main__; logitscope -> "" (the root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_violations(graph: Mapping[str, Imports], layers: Sequence[Iterable[str]],
                     allowed: Iterable[tuple[str, str]] = ()) -> list[str]:
    """Imports that point up, or sideways to another package of the same layer (unless `allowed` names the
    (importer, imported) modules). Every package must be in a layer: a new one has to be placed."""
    rank = {pkg: i for i, layer in enumerate(layers) for pkg in layer}
    exceptions = set(allowed)
    problems = [f"{m}: package {package_of(m)!r} is in no layer" for m in graph if package_of(m) not in rank]
    for module, imports in sorted(graph.items()):
        mine = package_of(module)
        for dep in sorted(imports.internal):
            theirs = package_of(dep)
            if mine not in rank or theirs not in rank or mine == theirs or (module, dep) in exceptions:
                continue
            if rank[theirs] > rank[mine]:
                problems.append(f"{module} imports {dep}: {mine} is below {theirs}")
            elif rank[theirs] == rank[mine]:
                problems.append(f"{module} imports {dep}: {mine} and {theirs} are side by side in one layer")
    return problems


def foreign_imports(graph: Mapping[str, Imports], libraries: Iterable[str], inside: Iterable[str]) -> list[str]:
    """Modules outside `inside` (module-name prefixes) that import any of `libraries`."""
    libs, homes = set(libraries), tuple(inside)
    return [f"{m} imports {sorted(i.external & libs)}" for m, i in sorted(graph.items())
            if i.external & libs and not any(m == h or m.startswith(h + ".") for h in homes)]

"""The architecture's boundaries, enforced: no Qt below the UI, no llama.cpp in the UI; plus the lint."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app" / "logitscope"
QT = ("PySide6", "pyqtgraph", "shiboken6")
QT_FREE = ("engine", "host", "library", "store", "session", "diagnosis")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(package: str) -> list[Path]:
    return sorted((APP / package).rglob("*.py"))


@pytest.mark.parametrize("package", QT_FREE)
def test_no_qt_below_the_ui(package):
    for path in python_files(package):
        bad = {m for m in imported_modules(path) if m.split(".")[0] in QT}
        assert not bad, f"{path.relative_to(APP)} imports {bad}"


def test_ui_never_imports_llama_cpp():
    for path in python_files("ui"):
        bad = {m for m in imported_modules(path) if m.split(".")[0] == "llama_cpp"}
        assert not bad, f"{path.relative_to(APP)} imports {bad}: the engine runs in its own process"


def test_html_is_escaped_one_way():
    """html.escape everywhere: hand-written escapers had drifted apart (one kept line breaks, none quotes)."""
    for path in sorted(APP.rglob("*.py")):
        literals = {node.value for node in ast.walk(ast.parse(path.read_text(), str(path)))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert not literals & {"&lt;", "&gt;", "&amp;"}, f"{path.relative_to(APP)} escapes HTML by hand: use html.escape"


@pytest.mark.model
def test_engine_import_pulls_in_no_qt():
    code = ("import sys, logitscope.engine.core, logitscope.host.client, logitscope.cli.main, logitscope.session.history; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_lint_is_clean():
    root = APP.parents[1]
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "app", "tests"], cwd=root,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_gui_and_cli_processes_never_load_llama_cpp():
    """Only the engine process loads llama.cpp's library: the window, the client, the store and the
    library work without it (what crosses the boundary lives in protocol/api.py)."""
    code = ("import sys, logitscope.ui.main_window, logitscope.ui.app, logitscope.host.client, "
            "logitscope.store.history, logitscope.store.settings, logitscope.library.catalog, logitscope.cli.main, "
            "logitscope.diagnosis.stored, logitscope.cli.explain; "
            "bad = [m for m in sys.modules if m.split('.')[0] == 'llama_cpp']; print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("package", ["ui", "session"])
def test_no_import_cycles_in_the_window(package):
    """Counting imports inside functions too: a cycle hidden in a function (ui/app.py <-> ui/main_window.py
    once) still ties two rooms together."""
    graph = {module_name(p): {m for m in imported_modules(p) if m.startswith("logitscope.")}
             for p in python_files(package)}
    modules = set(graph)
    edges = {m: {d for d in deps if d in modules and d != m} for m, deps in graph.items()}
    cycles = []
    for start in edges:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                if nxt == start:
                    cycles.append(" -> ".join([*path, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert not cycles, "\n".join(sorted(set(cycles))[:10])

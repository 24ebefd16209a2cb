"""The architecture's contracts (README, How it works): layers that point down only, llama.cpp only in the
engine, Qt only in the window, no import cycle anywhere, small modules. Each contract is also run on a
small broken package, to show that it fails when broken."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.imports import cycles, foreign_imports, layer_violations, read_graph
from tests.helpers.layers import (
    LAYERS,
    LLAMA,
    LLAMA_HOMES,
    MAX_MAIN_WINDOW_LINES,
    MAX_MODULE_LINES,
    QT,
    QT_HOMES,
    SIDEWAYS,
)

SRC = Path(__file__).resolve().parents[1] / "app"
APP = SRC / "logitscope"

@pytest.fixture(scope="module")
def graph():
    return read_graph(SRC)


def test_layers_point_down_only(graph):
    assert not layer_violations(graph, LAYERS, SIDEWAYS), "\n".join(layer_violations(graph, LAYERS, SIDEWAYS))


def test_no_import_cycle_anywhere(graph):
    found = cycles(graph)
    assert not found, "\n".join(" <-> ".join(c) for c in found)


def test_llama_cpp_only_in_the_engine(graph):
    bad = foreign_imports(graph, LLAMA, LLAMA_HOMES)
    assert not bad, "\n".join(bad)


def test_qt_only_in_the_window(graph):
    bad = foreign_imports(graph, QT, QT_HOMES)
    assert not bad, "\n".join(bad)


def test_the_window_never_imports_the_engine_cli_or_benchmarks(graph):
    bad = [f"{m} imports {d}" for m, i in graph.items() if m.startswith("logitscope.ui")
           for d in i.internal if d.startswith(("logitscope.engine", "logitscope.cli", "logitscope.bench"))]
    assert not bad, "\n".join(bad)


def test_modules_stay_small():
    sizes = {p.relative_to(APP): len(p.read_text().splitlines()) for p in APP.rglob("*.py")}
    big = {str(p): n for p, n in sizes.items() if n > MAX_MODULE_LINES}
    assert not big, f"modules over {MAX_MODULE_LINES} lines: {big}"
    assert sizes[Path("ui/main_window.py")] <= MAX_MAIN_WINDOW_LINES, "MainWindow is assembly: move behaviour out"


# -- the contracts fail when broken -----------------------------------------------------------------

def write_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "logitscope" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in [root / "logitscope", *(p for p in (root / "logitscope").rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return root


def test_an_upward_import_breaks_the_layers(tmp_path):
    src = write_package(tmp_path, {
        "base/errors.py": "",
        "protocol/api.py": "from logitscope.base import errors\n",
        "base/paths.py": "def f():\n    from logitscope.protocol import api\n",  # hidden in a function
    })
    problems = layer_violations(read_graph(src), LAYERS)
    assert problems == ["logitscope.base.paths imports logitscope.protocol.api: base is below protocol"]


def test_a_sideways_import_and_an_unplaced_package_break_the_layers(tmp_path):
    src = write_package(tmp_path, {"store/db.py": "import logitscope.library.hub\n", "library/hub.py": "",
                                   "newpkg/x.py": ""})
    problems = layer_violations(read_graph(src), LAYERS)
    assert "logitscope.store.db imports logitscope.library.hub: store and library are side by side in one layer" \
        in problems
    assert any("'newpkg' is in no layer" in p for p in problems)


def test_a_cycle_through_a_from_import_is_found(tmp_path):
    src = write_package(tmp_path, {
        "ui/main_window.py": "from logitscope.ui import beams_view\n",
        "ui/beams_view.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                            "    from logitscope.ui.main_window import MainWindow\n",
        "ui/other.py": "from . import beams_view\n",  # relative imports resolve too
    })
    assert cycles(read_graph(src)) == [["logitscope.ui.beams_view", "logitscope.ui.main_window"]]
    assert "logitscope.ui.beams_view" in read_graph(src)["logitscope.ui.other"].internal


def test_llama_cpp_or_qt_in_the_wrong_place_is_found(tmp_path):
    src = write_package(tmp_path, {
        "ui/view.py": "def f():\n    import llama_cpp\n",
        "engine/runtime.py": "import llama_cpp\n",
        "store/db.py": "from PySide6.QtCore import QObject\n",
    })
    graph = read_graph(src)
    assert foreign_imports(graph, LLAMA, LLAMA_HOMES) == ["logitscope.ui.view imports ['llama_cpp']"]
    assert foreign_imports(graph, QT, QT_HOMES) == ["logitscope.store.db imports ['PySide6']"]

"""The boundaries in the running processes (the static contracts are tests/test_architecture.py): importing
the window, the client, the store, the library or the CLI loads no llama.cpp, the engine no Qt; plus the lint
and one way of escaping HTML."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app" / "logitscope"


def test_html_is_escaped_one_way():
    """html.escape everywhere: hand-written escapers had drifted apart (one kept line breaks, none quotes)."""
    for path in sorted(APP.rglob("*.py")):
        literals = {node.value for node in ast.walk(ast.parse(path.read_text(), str(path)))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert not literals & {"&lt;", "&gt;", "&amp;"}, f"{path.relative_to(APP)} escapes HTML by hand: use html.escape"


def test_number_boxes_are_one_kind():
    """ui/common/spin_boxes.py's: Qt's own refuse a digit typed past the range without a word."""
    for path in sorted((APP / "ui").rglob("*.py")):
        if path.name == "spin_boxes.py":
            continue
        made = {node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                for node in ast.walk(ast.parse(path.read_text(), str(path)))
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)}
        assert not made & {"QSpinBox", "QDoubleSpinBox"}, f"{path.relative_to(APP)}: use ui/common/spin_boxes.py"


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

"""The type checker is part of the test suite: mypy, configured in pyproject.toml ([tool.mypy]): strict on
every Qt-free package and module, checked in the window's (ui/, bench/window/)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers.layers import QT_HOMES

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors():
    # The incremental cache (.mypy_cache, git-ignored) makes a warm run take a second, a cold one ~15 s.
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, f"mypy reports:\n{proc.stdout}{proc.stderr}"


STRICT_FLAGS = ("disallow_untyped_defs", "disallow_any_generics", "warn_return_any")


def mypy_overrides() -> list[dict]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)["tool"]["mypy"]["overrides"]


def test_strict_covers_exactly_the_qt_free_packages():
    """Strict on every package but the window's (QT_HOMES: ui/ and bench/window/, checked, not strict)."""
    packages = sorted(p.parent.name for p in (ROOT / "app" / "logitscope").glob("*/__init__.py"))
    qt_free = {"logitscope", "logitscope.__main__"} | {f"logitscope.{p}.*" for p in packages if p != "ui"}
    (strict,) = [o for o in mypy_overrides() if all(o.get(flag) is True for flag in STRICT_FLAGS)]
    assert set(strict["module"]) == qt_free
    (relaxed,) = [o for o in mypy_overrides() if all(o.get(flag) is False for flag in STRICT_FLAGS)]
    window_runs = {f"{home}.*" for home in QT_HOMES if home != "logitscope.ui"}
    assert set(relaxed["module"]) == window_runs == {"logitscope.bench.window.*"}

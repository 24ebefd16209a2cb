"""The type checker is part of the test suite: mypy, configured in pyproject.toml ([tool.mypy]): strict on
engine/, host/, library/, store/ and the Qt-free top-level modules, checked everywhere else."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors():
    # The incremental cache (.mypy_cache, git-ignored) makes a warm run take a second, a cold one ~15 s.
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, f"mypy reports:\n{proc.stdout}{proc.stderr}"

"""Running the app (from source or built) as a user would: a clean environment, no display."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

SELFTEST_TIMEOUT_S = 600  # generous: the machine may be shared; a self-test takes seconds when it is not


def user_env(home: Path) -> dict[str, str]:
    """No display and no Qt platform set (the self-test must choose offscreen itself), an empty data
    folder (so the demo model comes from the app, not from the developer's models folder), and nothing
    that would let a frozen app find the source tree's Python."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH", "PYTHONHOME",
                        "VIRTUAL_ENV", "LD_LIBRARY_PATH")}
    home.mkdir(parents=True, exist_ok=True)
    env["LOGITSCOPE_HOME"] = str(home)
    return env


def run(cmd: Sequence[str | Path], env: dict[str, str], cwd: Path,
        timeout: float = SELFTEST_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def assert_one_clear_error(proc: subprocess.CompletedProcess[str], phrase: str = "") -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = error_lines(proc.stderr)
    assert len(errors) == 1, proc.stderr
    assert phrase in errors[0], errors[0]
    return errors[0]

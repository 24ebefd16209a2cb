"""fetch-demo: idempotent, and a damaged copy is detected and replaced (through real pip)."""

from __future__ import annotations

import os
import subprocess
import sys

from logitscope.library.demo import DEMO_SHA256, DEMO_SIZE, demo_model_path, fetch_demo, sha256_of


def test_fetch_demo_is_idempotent(isolated_home):
    path = demo_model_path()
    before = path.stat().st_mtime_ns
    messages = []
    assert fetch_demo(log=messages.append) == path
    assert path.stat().st_mtime_ns == before and not messages  # nothing downloaded


def test_damaged_copy_is_replaced(tmp_path, monkeypatch, demo_model):
    home = tmp_path / "home"
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    target = demo_model_path()
    target.write_bytes(demo_model.read_bytes()[:1_000_000])  # a partial download
    proc = subprocess.run([sys.executable, "-m", "logitscope", "models", "fetch-demo"], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, LOGITSCOPE_HOME=str(home)))
    assert proc.returncode == 0, proc.stderr
    assert "damaged or partial" in proc.stderr
    assert target.stat().st_size == DEMO_SIZE and sha256_of(target) == DEMO_SHA256
    assert not list(target.parent.glob("*.partial"))

"""`logitscope generate` as a real subprocess: Ctrl+C always works (also with a stopped engine), a stopped
engine is reported and ended, and no engine process is ever left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logitscope.host.client import TIMEOUT_ENV

pytestmark = pytest.mark.model  # starts an engine process (the CLI, the window or EngineClient)

ARGS = ["generate", "--prompt", "1, 2, 3, 4, 5,", "--max-tokens", "3000", "--temperature", "0", "--n-ctx", "4096", "--threads", "1"]


def _children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (from /proc: no psutil)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _start(demo_model: Path, **env: str) -> tuple[subprocess.Popen[bytes], int]:
    """The CLI in its own process group (as a terminal runs it), once it prints its first tokens; and the
    pid of its engine process."""
    proc = subprocess.Popen([sys.executable, "-m", "logitscope", *ARGS, "--model", str(demo_model)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, **env})
    assert proc.stdout is not None
    first = proc.stdout.read(8)  # the answer has started streaming
    assert first, proc.stderr.read().decode() if proc.stderr else ""
    engines = _children(proc.pid)
    assert len(engines) == 1
    return proc, engines[0]


def _finish(proc: subprocess.Popen[bytes], within_s: float) -> tuple[int, str, float]:
    start = time.monotonic()
    try:
        _out, err = proc.communicate(timeout=within_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"logitscope generate still running {within_s} s later")
    return proc.returncode, err.decode(), time.monotonic() - start


def _assert_gone(pid: int) -> None:
    deadline = time.monotonic() + 2
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}"), "the engine process was left behind"


def test_ctrl_c_mid_generation_stops_promptly(demo_model):
    """A terminal's Ctrl+C goes to the whole process group, the engine included: the answer stops, the CLI
    exits 130 without a traceback, and the engine has ended."""
    proc, engine = _start(demo_model)
    os.killpg(proc.pid, signal.SIGINT)
    code, err, took = _finish(proc, 10)
    assert code == 130, err
    assert "Traceback" not in err and "crashed" not in err
    assert took < 3
    _assert_gone(engine)


def test_ctrl_c_with_a_stopped_engine(demo_model):
    proc, engine = _start(demo_model)
    os.kill(engine, signal.SIGSTOP)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGINT)
    code, err, took = _finish(proc, 15)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("error: ")
    assert took < 5
    _assert_gone(engine)


def test_second_ctrl_c_interrupts_at_once(demo_model):
    proc, engine = _start(demo_model)
    os.kill(engine, signal.SIGSTOP)
    os.kill(proc.pid, signal.SIGINT)
    time.sleep(0.2)
    os.kill(proc.pid, signal.SIGINT)
    code, err, took = _finish(proc, 15)
    assert code == 130 and "Traceback" not in err and "error: interrupted" in err
    assert took < 1.5
    _assert_gone(engine)


def test_stopped_engine_is_reported_and_ended(demo_model):
    proc, engine = _start(demo_model, **{TIMEOUT_ENV: "2"})
    os.kill(engine, signal.SIGSTOP)
    code, err, took = _finish(proc, 20)
    assert code == 2
    assert err.strip().splitlines()[-1].startswith("error: the engine stopped responding (no sign of life for 2 s)")
    assert "Traceback" not in err
    assert took < 6
    _assert_gone(engine)


def test_ctrl_c_mid_beam_search_exits_130(demo_model):
    """A beam search stopped by Ctrl+C is not an answer: exit 130, as a stopped `generate` (it exited 0 when
    the Ctrl+C came during the search's steps, printing the live beams as the winner)."""
    proc = subprocess.Popen([sys.executable, "-m", "logitscope", "generate", "--model", str(demo_model), "--prompt",
                             "Once upon a time", "--beams", "4", "--max-tokens", "1000", "--n-ctx", "4096",
                             "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(3)  # loaded and searching (1,000 steps of 4 beams take far longer than that)
    os.killpg(proc.pid, signal.SIGINT)
    code, err, _took = _finish(proc, 30)
    assert code == 130, err
    assert "Traceback" not in err

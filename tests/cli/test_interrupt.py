"""`logitscope generate` as a real subprocess: Ctrl+C always works (also with a stopped engine), a stopped
engine is reported and ended, and no engine process is ever left behind."""

from __future__ import annotations

import array
import fcntl
import json
import os
import signal
import subprocess
import sys
import termios
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
    code, _out, err, took = _finish_all(proc, within_s)
    return code, err, took


def _finish_all(proc: subprocess.Popen[bytes], within_s: float) -> tuple[int, bytes, str, float]:
    start = time.monotonic()
    try:
        out, err = proc.communicate(timeout=within_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"logitscope {proc.args[3]} still running {within_s} s later")  # type: ignore[index]
    return proc.returncode, out, err.decode(), time.monotonic() - start


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


# -- SIGTERM (a service manager, `timeout`, `kill`): stopped as by Ctrl+C, then exit 143 with one line --------

def _one_terminated_line(err: str) -> None:
    assert "Traceback" not in err, err
    assert [line for line in err.splitlines() if line.startswith("error:")] == ["error: terminated"], err


@pytest.mark.parametrize("group", [False, True], ids=["the-command", "its-process-group"])
def test_sigterm_mid_generation_ends_the_trace_with_its_done_line(demo_model, group):
    """`kill PID`, or `timeout` / a service manager signalling the whole group (the engine ignores it: the
    command stops it and keeps what came). Before: exit 143, nothing said, the trace without its `done` line."""
    proc = subprocess.Popen([sys.executable, "-m", "logitscope", *ARGS, "--json", "--model", str(demo_model)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the first step's line: the answer streams
    assert json.loads(first)["type"] == "step", first
    engine, = _children(proc.pid)
    (os.killpg if group else os.kill)(proc.pid, signal.SIGTERM)
    code, out, err, took = _finish_all(proc, 15)
    assert code == 143, err
    _one_terminated_line(err)
    assert took < 5
    lines = [json.loads(line) for line in (first + out).splitlines()]
    assert [line["type"] for line in lines] == ["step"] * (len(lines) - 1) + ["done"]
    assert lines[-1]["finish_reason"] == "cancelled" and lines[-1]["n_gen"] == len(lines) - 1
    _assert_gone(engine)


def _terminate_after(argv: list[str], wait_s: float) -> tuple[int, str, str]:
    proc = subprocess.Popen([sys.executable, "-m", "logitscope", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(wait_s)  # loaded and at work (or still loading: the same outcome, sooner)
    engines = _children(proc.pid)
    os.kill(proc.pid, signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"logitscope {argv[0]} still running 30 s after SIGTERM")
    for engine in engines:
        _assert_gone(engine)
    return proc.returncode, out.decode(), err.decode()


def test_sigterm_mid_score_json(demo_model, tmp_path):
    text = tmp_path / "long.txt"
    text.write_text("The quick brown fox jumps over the lazy dog, and the dog sleeps on. " * 3000)  # ~50k tokens
    code, out, err = _terminate_after(["score", str(text), "--json", "--model", str(demo_model), "--n-ctx", "512",
                                       "--threads", "1"], 4)
    assert code == 143 and out == "", err
    _one_terminated_line(err)


def test_sigterm_mid_beam_search(demo_model):
    code, out, err = _terminate_after(["generate", "--model", str(demo_model), "--prompt", "Once upon a time",
                                       "--beams", "4", "--max-tokens", "1000", "--n-ctx", "4096", "--threads", "1"], 4)
    assert code == 143, err
    _one_terminated_line(err)


def test_sigterm_mid_chat_answer_saves_it_as_stopped_and_releases_its_lock(demo_model, isolated_home):
    """Before: exit 143 with nothing said, the answer left `streaming` and its owner's lock file behind."""
    from logitscope.store.history import HistoryStore
    from logitscope.store.owners import owners_folder

    proc = subprocess.Popen([sys.executable, "-m", "logitscope", "chat", "--model", str(demo_model), "--n-ctx", "4096",
                             "--max-tokens", "3000", "--temperature", "0", "--threads", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"Count from 1 to 1000, one number a line.\n")
    proc.stdin.flush()  # and left open: the chat would wait for the next question
    shown = b""
    while b"bot> " not in shown or len(shown.split(b"bot> ", 1)[1]) < 30:
        chunk = os.read(proc.stdout.fileno(), 100)
        assert chunk, proc.stderr.read() if proc.stderr else b""
        shown += chunk
    engine, = _children(proc.pid)
    os.kill(proc.pid, signal.SIGTERM)
    code, out, err, _took = _finish_all(proc, 20)
    assert code == 143, err
    _one_terminated_line(err)
    shown += out
    _assert_gone(engine)
    db = isolated_home / "history.sqlite3"
    assert list(owners_folder(db).glob("*.lock")) == []  # released, not left to be swept
    with HistoryStore(db, read_only=True) as store:
        (conversation,) = store.list_conversations()
        _question, answer = store.active_path(conversation.id)
        assert (answer.status, answer.finish_reason) in {("done", "cancelled"), ("error", None)}, answer
        steps, _ = store.load_trace(answer.id)
        assert answer.content == "".join(s.text for s in steps) and answer.content in shown.decode()
        assert len(answer.content) >= 30


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_one_stop_signal_ends_a_trace_that_nobody_reads(demo_model, sig):
    """`generate --json | reader` whose reader stopped reading (the pipe full): the engine process sat in its
    write, so the first Ctrl+C (or SIGTERM) did nothing for as long as the reader slept; a second one was needed."""
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "logitscope", *ARGS, "--json", "--model", str(demo_model)],
                                stdout=write_end, stderr=subprocess.PIPE, start_new_session=True)
        os.close(write_end)
        deadline, seen = time.monotonic() + 60, [-1]
        while time.monotonic() < deadline:   # the pipe is full (nothing more comes): the engine waits to write
            time.sleep(0.5)   # (its 16 pages full: 40-64 KiB of 128 tokens' lines, as the writes fell)
            seen.append(_bytes_in(read_end))
            if len(set(seen[-4:])) == 1 and seen[-1] > 16_384:
                break
        else:
            pytest.fail(f"the trace never filled the pipe ({seen[-1]} bytes in it)")
        (engine,) = _children(proc.pid)
        proc.send_signal(sig)
        code, err, took = _finish(proc, within_s=10)
        assert code == (130 if sig == signal.SIGINT else 143), err
        assert [line for line in err.splitlines() if line.startswith("error:")] == [
            "error: interrupted" if sig == signal.SIGINT else "error: terminated"], err
        assert "Traceback" not in err and took < 5
        _assert_gone(engine)
    finally:
        os.close(read_end)


def _bytes_in(fd: int) -> int:
    """How many bytes wait in the pipe to be read (FIONREAD)."""
    held = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, held)
    return held[0]

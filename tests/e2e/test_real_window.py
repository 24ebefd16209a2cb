"""The real app in a real X11 window (Qt's xcb platform under Xvfb), driven like a person with xdotool:
type a question, press Enter, see the answer saved, quit with Ctrl+Q."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                reason="needs Xvfb and xdotool (scripts/setup.sh installs them as root)")


def _free_display() -> int:
    for n in range(90, 140):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return n
    pytest.skip("no free X display number")


@pytest.fixture
def xvfb():
    n = _free_display()
    server = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not os.path.exists(f"/tmp/.X11-unix/X{n}") and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f":{n}"
    server.terminate()
    server.wait(10)


def xdo(display: str, *args: str) -> str:
    proc = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=20,
                          env=dict(os.environ, DISPLAY=display))
    return proc.stdout.strip()


def test_type_a_question_in_the_real_window(xvfb, isolated_home, demo_model, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=xvfb, QT_QPA_PLATFORM="xcb")
    app = subprocess.Popen([sys.executable, "-m", "logitscope", "window", "--model", str(demo_model)], env=env,
                           stdout=subprocess.DEVNULL, stderr=open(tmp_path / "app.log", "wb"))
    try:
        window = ""
        deadline = time.monotonic() + 60
        while not window and time.monotonic() < deadline:
            time.sleep(0.3)
            window = xdo(xvfb, "search", "--name", "Logitscope — Smollm2").split("\n")[0]
        assert window, (tmp_path / "app.log").read_text()[-2000:]
        db = isolated_home / "history.sqlite3"

        def query(sql: str) -> list[tuple]:
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                    return conn.execute(sql).fetchall()
            except sqlite3.Error:
                return []

        asked: list[tuple] = []
        for _attempt in range(3):  # on a loaded machine the first keystrokes can arrive before the focus
            xdo(xvfb, "windowfocus", "--sync", window)  # no window manager here: set the X input focus itself
            time.sleep(1.0)
            xdo(xvfb, "key", "ctrl+a", "BackSpace")
            xdo(xvfb, "type", "--delay", "20", "Hello there")
            xdo(xvfb, "key", "Return")
            deadline = time.monotonic() + 20
            while not asked and time.monotonic() < deadline:
                time.sleep(0.3)
                asked = query("SELECT content FROM messages WHERE role='user'")
            if asked:
                break
        assert asked == [("Hello there",)], (tmp_path / "app.log").read_text()[-2000:]
        done: list[tuple] = []
        deadline = time.monotonic() + 240
        while not done and time.monotonic() < deadline:
            time.sleep(0.5)
            done = query("SELECT status FROM messages WHERE role='assistant' AND status != 'streaming'")
        assert done == [("done",)], (done, (tmp_path / "app.log").read_text()[-2000:])
        shot = tmp_path / "real-window.xwd"
        subprocess.run(["xwd", "-root", "-silent", "-out", str(shot)], env=dict(os.environ, DISPLAY=xvfb), timeout=20)
        assert shot.stat().st_size > 100_000
        xdo(xvfb, "key", "ctrl+q")
        assert app.wait(20) == 0
    finally:
        if app.poll() is None:
            app.send_signal(signal.SIGKILL)
            app.wait()

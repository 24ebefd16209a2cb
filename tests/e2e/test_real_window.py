"""The real app in a real X11 window (Qt's xcb platform under Xvfb), driven like a person with xdotool:
type a question, press Enter, see the answer saved, quit with Ctrl+Q."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

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


WINDOW_TITLE = "Logitscope — SmolLM2-135M-Instruct"   # the window names the model after its file


def launch(display: str, demo_model, tmp_path, **env_extra: str) -> tuple[subprocess.Popen, Path]:  # noqa: ANN001
    """The real app on `display` (Qt's xcb platform), its stderr in tmp_path/app.log."""
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", **env_extra)
    log = tmp_path / "app.log"
    app = subprocess.Popen([sys.executable, "-m", "logitscope", "window", "--model", str(demo_model)], env=env,
                           stdout=subprocess.DEVNULL, stderr=open(log, "wb"))
    return app, log


def end(app: subprocess.Popen) -> None:
    """Kill the app if a test left it running (a failed assertion before Ctrl+Q)."""
    if app.poll() is None:
        app.send_signal(signal.SIGKILL)
        app.wait()


def find_window(display: str, log: Path, title: str = WINDOW_TITLE, timeout: float = 60) -> str:
    window = ""
    deadline = time.monotonic() + timeout
    while not window and time.monotonic() < deadline:
        time.sleep(0.3)
        window = xdo(display, "search", "--name", title).split("\n")[0]
    assert window, log.read_text()[-2000:]
    return window


@pytest.mark.model
def test_type_a_question_in_the_real_window(xvfb, isolated_home, demo_model, tmp_path):
    app, log = launch(xvfb, demo_model, tmp_path)
    try:
        window = find_window(xvfb, log)
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
        assert asked == [("Hello there",)], log.read_text()[-2000:]
        done: list[tuple] = []
        deadline = time.monotonic() + 240
        while not done and time.monotonic() < deadline:
            time.sleep(0.5)
            done = query("SELECT status FROM messages WHERE role='assistant' AND status != 'streaming'")
        assert done == [("done",)], (done, log.read_text()[-2000:])
        shot = tmp_path / "real-window.xwd"
        subprocess.run(["xwd", "-root", "-silent", "-out", str(shot)], env=dict(os.environ, DISPLAY=xvfb), timeout=20)
        assert shot.stat().st_size > 100_000
        xdo(xvfb, "key", "ctrl+q")
        assert app.wait(20) == 0
    finally:
        end(app)


@pytest.mark.model
def test_the_panels_follow_new_chat_switch_and_delete(xvfb, isolated_home, demo_model, tmp_path):
    """With a step on the panels, New chat, switching conversation and deleting the open one each leave the
    distribution, waterfall and timeline empty (or showing the conversation on screen), never another
    chat's step. The window reports what it shows through its e2e state file (ui/window/state_probe.py)."""
    from logitscope.ui.window.state_probe import STATE_FILE_ENV

    state_file = tmp_path / "ui-state.json"
    app, log = launch(xvfb, demo_model, tmp_path, **{STATE_FILE_ENV: str(state_file)})

    def state() -> dict:
        try:
            return json.loads(state_file.read_text())
        except (OSError, ValueError):
            return {}

    def wait_for(what: str, check, timeout: float) -> dict:  # noqa: ANN001
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            now = state()
            if now and check(now):
                return now
            time.sleep(0.2)
        raise AssertionError(f"{what}: {state()}\n{log.read_text()[-2000:]}")

    def empty(now: dict) -> bool:
        return all(now["panels_empty"].values())

    def ask(text: str, turns: int) -> None:
        for _attempt in range(3):  # on a loaded machine the first keystrokes can arrive before the focus
            xdo(xvfb, "windowfocus", "--sync", window)
            time.sleep(1.0)
            xdo(xvfb, "type", "--delay", "20", text)
            xdo(xvfb, "key", "Return")
            try:
                wait_for("the question was sent", lambda s: s["turns"] == turns, 20)
                break
            except AssertionError:
                xdo(xvfb, "key", "ctrl+a", "BackSpace")
        # the inspector follows the streaming answer: a step on every panel, the latest one
        wait_for("the answer's last step on every panel", lambda s: s["turns"] == turns and not s["answering"]
                 and not any(s["panels_empty"].values()), 240)

    def click(at: list[int]) -> None:
        xdo(xvfb, "mousemove", "--sync", str(at[0]), str(at[1]))
        xdo(xvfb, "click", "1")

    try:
        window = find_window(xvfb, log)
        wait_for("the state file", lambda s: "panels_empty" in s, 30)

        ask("Hello there", 1)
        xdo(xvfb, "key", "ctrl+n")
        wait_for("New chat empties the panels", lambda s: s["turns"] == 0 and empty(s), 20)

        first = next(row for row in state()["rows"] if "Hello" in row["title"])
        click(first["at"])
        wait_for("switching shows that chat with no stale step", lambda s: s["turns"] == 1 and empty(s), 20)

        ask("Thanks", 2)
        click(state()["delete_button"])
        dialog = find_window(xvfb, log, "Delete conversation", timeout=20)
        xdo(xvfb, "windowfocus", "--sync", dialog)
        xdo(xvfb, "key", "Return")  # Yes
        wait_for("deleting the open chat empties the panels",
                 lambda s: empty(s) and not any("Hello" in row["title"] for row in s["rows"]), 20)
        xdo(xvfb, "windowfocus", "--sync", window)
        xdo(xvfb, "key", "ctrl+q")
        assert app.wait(20) == 0
    finally:
        end(app)

"""The window over a real engine process that stops answering (SIGSTOP) mid-answer."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.helpers.window import GEN_TIMEOUT_MS, ask

pytestmark = pytest.mark.gui


def test_stopped_engine_is_ended_and_the_partial_answer_stays(qtbot, real_window):
    real_window.bridge.local.timeout_s = 2.0
    real_window.sampler.max_tokens.setValue(3000)
    real_window.send("1, 2, 3, 4, 5,")
    qtbot.waitUntil(lambda: len(real_window.current.turns[-1].answer.steps) >= 5, timeout=GEN_TIMEOUT_MS)
    pid = real_window.bridge.local.pid
    start = time.monotonic()
    try:
        with qtbot.waitSignal(real_window.bridge.engineUnresponsive, timeout=10_000):
            os.kill(pid, signal.SIGSTOP)
    finally:
        if os.path.exists(f"/proc/{pid}"):  # without the fix: free the test run
            os.kill(pid, signal.SIGKILL)
    assert time.monotonic() - start < 8
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    answer = real_window.current.turns[-1].answer
    assert answer.status == "error" and len(answer.steps) >= 5
    assert "stopped responding" in answer.error
    assert real_window.chat.answers[-1].view.toPlainText()  # what was generated stays
    title, message = real_window.last_error
    assert title == "The engine stopped responding"
    assert "2 s" in message and "Reload" in message
    assert real_window.windowTitle() == "Logitscope"
    assert not real_window.send_button.isEnabled()
    qtbot.waitUntil(lambda: not os.path.exists(f"/proc/{pid}"), timeout=3_000)  # it was ended
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000):
        real_window.reload_model()
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert ask(qtbot, real_window, "Still there?", max_tokens=4).steps



def test_an_engine_killed_while_idle_is_said_at_once_and_reload_brings_it_back(qtbot, real_window):
    """Killed between answers (the OOM killer, kill -9): the window says so within a second or so, as for a crash
    mid-answer, instead of starting an empty engine at the next question and answering "no model is loaded"."""
    pid = real_window.bridge.local.pid
    with qtbot.waitSignal(real_window.bridge.engineCrashed, timeout=10_000):
        os.kill(pid, signal.SIGKILL)
    title, message = real_window.last_error
    assert title == "The engine process crashed" and "SIGKILL" in message and "Reload" in message
    assert real_window.windowTitle() == "Logitscope" and not real_window.send_button.isEnabled()
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000):
        real_window.reload_model()
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert ask(qtbot, real_window, "Still there?", max_tokens=4).steps

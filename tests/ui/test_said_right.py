"""What a new user met, said right: a failed or interrupted answer gets no "no problem found" verdict, an error's
status line does not repeat its title, an export's suggested file name is a file name."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def test_a_failed_answer_gets_no_verdict_and_errors_are_said_once(qtbot, scripted_window):
    from dataclasses import replace

    from logitscope.ui.controllers.file_actions import export_file_name
    from logitscope.ui.window.boxes import error_status_line

    window = scripted_window
    with qtbot.waitSignal(window.session.answerEnded, timeout=10_000):
        assert window.session.send("Hello")
    done = window.session.current.turns[0].answer
    assert window.diagnosis.diagnose(done) is not None
    for status in ("error", "interrupted"):   # "✓ no problem found" under "failed: …" before
        assert window.diagnosis.diagnose(replace(done, status=status)) is None
    assert error_status_line("The engine process crashed", "The engine process crashed (SIGKILL: killed)\n\nSafe.") == (
        "The engine process crashed (SIGKILL: killed)")
    assert error_status_line("The model could not be loaded", "frobnicator.gguf is not a GGUF file") == (
        "The model could not be loaded: frobnicator.gguf is not a GGUF file")
    assert export_file_name("Tell me a long story about a robot.") == "Tell me a long story about a robot.md"
    assert export_file_name("What is 1/2?") == "What is 1 2.md" and export_file_name(" ... ") == "conversation.md"

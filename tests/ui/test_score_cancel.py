"""Cancel names its job in the window: with a chat answer and a score sharing the one engine,
the Score dialog's Cancel stops only the scoring and the chat's Stop stops only the answer. Real window, real
engine, demo model. While the score waits behind the answer, the dialog says so instead of looking frozen."""

from __future__ import annotations

from tests.helpers.score_dialog import SCORE_TIMEOUT_MS, SCORED_TEXT, open_score_dialog
from tests.helpers.window import GEN_TIMEOUT_MS

LONG_ANSWER = 200   # tokens: the answer is still streaming when the score is queued and cancelled
PROMPT = "Write a long story about a lighthouse keeper and the sea, with many chapters."


def test_the_score_dialogs_cancel_leaves_a_streaming_answer_alone(qtbot, real_window) -> None:
    real_window.sampler.max_tokens.setValue(LONG_ANSWER)
    steps: list[object] = []
    finished: list[object] = []
    real_window.bridge.steps.connect(steps.extend)
    real_window.bridge.generationFinished.connect(finished.append)
    real_window.send(PROMPT)
    qtbot.waitUntil(lambda: bool(steps), timeout=GEN_TIMEOUT_MS)
    dialog = open_score_dialog(qtbot, real_window)
    dialog.text.setPlainText(SCORED_TEXT)
    dialog.score_button.click()
    assert dialog.running
    assert dialog.status.text().startswith("Waiting for the chat's answer to finish")  # queued, and it says so
    assert real_window.session.busy  # the answer is still streaming when Cancel is pressed
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=5_000)  # at once: the queued score is dropped
    assert dialog.scored is None and dialog.status.text().startswith("Scoring stopped:")
    assert real_window.session.busy  # and the answer streams on
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=3 * GEN_TIMEOUT_MS)
    assert len(finished) == 1 and finished[0].finish_reason != "cancelled"  # type: ignore[attr-defined]
    assert real_window.current.turns[-1].answer.status == "done"
    # the dialog scores again afterwards
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=4 * SCORE_TIMEOUT_MS)
    assert dialog.scored is not None, dialog.status.text()


def test_the_chats_stop_leaves_a_running_score_alone(qtbot, real_window) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    progress: list[float] = []
    dialog.progressed.connect(progress.append)
    dialog.text.setPlainText(SCORED_TEXT * 8)  # about 300 tokens in 32-position windows: many passes, a few seconds
    dialog.n_ctx.setValue(32)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: bool(progress), timeout=4 * SCORE_TIMEOUT_MS)
    real_window.sampler.max_tokens.setValue(8)
    real_window.send("Say hi.")  # queued behind the score
    assert real_window.session.busy and real_window.stop_button.isEnabled()
    assert dialog.running  # the score is still running when the chat's Stop is pressed
    real_window.stop_button.click()
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=4 * SCORE_TIMEOUT_MS)
    assert real_window.current.turns[-1].answer.status == "stopped"
    qtbot.waitUntil(lambda: not dialog.running, timeout=4 * SCORE_TIMEOUT_MS)
    assert dialog.scored is not None, dialog.status.text()
    assert progress[-1] == 1.0 and dialog.scored.n_passes > 1


def test_esc_stops_a_running_score_and_keeps_the_dialog_open(qtbot, real_window) -> None:
    from PySide6.QtCore import Qt

    dialog = open_score_dialog(qtbot, real_window)
    progress: list[float] = []
    dialog.progressed.connect(progress.append)
    dialog.text.setPlainText(SCORED_TEXT * 8)  # many 32-position windows: still running when Esc is pressed
    dialog.n_ctx.setValue(32)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: bool(progress), timeout=4 * SCORE_TIMEOUT_MS)
    assert dialog.running and "Esc" in dialog.cancel_button.toolTip()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.running, timeout=4 * SCORE_TIMEOUT_MS)
    assert dialog.isVisible() and dialog.scored is None, dialog.status.text()
    assert dialog.status.text().startswith("Scoring stopped:")


def test_closing_the_dialog_stops_its_scoring_and_starts_no_comparison(qtbot, real_window, demo_model) -> None:
    """A closed dialog's score would hold the engine (a chat answer waiting behind it), then start the
    comparison model's engine process for nobody."""
    dialog = open_score_dialog(qtbot, real_window)
    progress: list[float] = []
    dialog.progressed.connect(progress.append)
    dialog.picker.set_path(str(demo_model))  # a comparison is asked for: it must not start after the close
    dialog.text.setPlainText(SCORED_TEXT * 8)
    dialog.n_ctx.setValue(32)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: bool(progress), timeout=4 * SCORE_TIMEOUT_MS)
    dialog.close()
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)  # the score stopped: the engine is free
    qtbot.wait(500)
    assert dialog.compare.client is None  # no second engine process
    real_window.sampler.max_tokens.setValue(4)
    real_window.send("Say hi.")
    qtbot.waitUntil(lambda: real_window.streaming is None and real_window.current.turns[-1].answer.status == "done",
                    timeout=GEN_TIMEOUT_MS)

"""The status line says how many threads the answer ended with and, when the tuner moved, from what and why (the
trace's `threads` record); a remote answer (no record) says nothing of threads."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QStatusBar

from logitscope.protocol.trace import Timings
from logitscope.ui.window.status_line import StatusLine

pytestmark = pytest.mark.gui
TIMINGS = Timings(n_gen=100, gen_s=1.25, ttft_s=0.2)


def wide_line(qtbot) -> tuple[QStatusBar, StatusLine]:
    """A status bar 1280 px wide, on screen, showing the demo model's fields."""
    bar = QStatusBar()
    qtbot.addWidget(bar)
    bar.resize(1280, 30)
    bar.show()
    status = StatusLine(bar)
    status.show_model("SmolLM2-135M-Instruct.Q4_1.gguf", None, {"backend": "CPU"})
    return bar, status


def test_the_thread_count_and_why_it_moved(qtbot) -> None:
    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = StatusLine(bar)
    status.show_speed(TIMINGS, None, {"auto": True, "start": 2, "runs": [[0, 2], [7, 1]],
                                      "changes": [[11, 2, 1, 4.29, "slowdown"]]})
    assert status.speed.text().endswith("· threads 1 (was 2: 4.3× faster)")
    assert "another program was taking a core" in status.speed.toolTip() and "token 11" in status.speed.toolTip()
    status.show_speed(TIMINGS, None, {"auto": True, "start": 2, "runs": [[0, 2]], "changes": []})
    assert status.speed.text().endswith("· threads 2") and "follows the machine's load" in status.speed.toolTip()
    status.show_speed(TIMINGS, None, None)
    assert "threads" not in status.speed.text() and status.speed.toolTip() == ""


def test_a_stall_under_a_burst_of_load_reads_as_a_bound_not_a_figure(qtbot) -> None:
    """Tokens that stalled while another program held the cores made the ratio 263.0×: a true measurement that
    reads as a broken one in the status line; its tooltip keeps the figure."""
    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = StatusLine(bar)
    status.show_speed(TIMINGS, None, {"auto": True, "start": 2, "runs": [[0, 2], [7, 1]],
                                      "changes": [[11, 2, 1, 263.04, "slowdown"]]})
    assert status.speed.text().endswith("· threads 1 (was 2: over 10× faster)")
    assert "263.0× faster" in status.speed.toolTip()


def test_another_model_clears_the_last_answers_speed(qtbot) -> None:
    """The speed shown is the last answer's, of the model that wrote it: after loading another model it went on
    showing the old model's figures."""
    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = StatusLine(bar)
    status.show_model("SmolLM2-135M-Instruct", None, {})
    status.show_speed(TIMINGS, None, None)
    assert "tok/s" in status.speed.text()
    status.show_model("SmolLM2-135M-Instruct", None, {"backend": "CPU"})   # the same model, its capabilities
    assert "tok/s" in status.speed.text()
    status.show_model("gemma-3-270m", None, {})
    assert status.speed.text() == "" and status.speed.toolTip() == ""


def test_a_long_message_takes_the_whole_bar_while_it_shows(qtbot) -> None:
    """A batch's cost, the main result of Regenerate ×N, was cut off by the fields at 1280 px, then gone in 8 s."""
    bar, status = wide_line(qtbot)
    status.show_speed(TIMINGS, None, {"auto": True, "start": 2, "runs": [[0, 2]], "changes": []})
    fields = (status.model, status.backend, status.context, status.speed)
    qtbot.waitUntil(lambda: all(f.isVisible() for f in fields))
    status.show_notice("Saved")   # a short one leaves them
    assert all(f.isVisible() for f in fields) and bar.currentMessage() == "Saved"
    text = ("4 answers in 1.5 s, decoded together: 111 tokens/s in all, 28 per answer (one answer alone: 81 "
            "tokens/s), and a few more words to be sure it cannot fit beside the fields")
    status.show_notice(text)
    assert bar.currentMessage() == text and not any(f.isVisible() for f in fields)
    assert bar.fontMetrics().horizontalAdvance(text) < bar.width()   # it fits alone
    bar.clearMessage()   # the message ends (its time runs out, or another replaces it): the fields are back
    assert all(f.isVisible() for f in fields)
    status.show_notice(text)
    status.show_notice("Saved")
    assert all(f.isVisible() for f in fields)


def test_an_answer_stopped_before_its_first_token_shows_no_speed(qtbot) -> None:
    """Esc before the first token read 'first token 0 ms · 0.0 tok/s': figures of a token that never came."""
    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = StatusLine(bar)
    status.show_speed(Timings(n_gen=0, gen_s=0.0, ttft_s=0.0), None, {"auto": True, "start": 2, "runs": [[0, 2]]})
    assert status.speed.text() == "stopped before the first token · threads 2"
    status.show_speed(Timings(n_gen=1, gen_s=0.0, ttft_s=0.25), None, None)
    assert status.speed.text() == "first token 250 ms"      # one token: no rate yet
    status.show_speed(Timings(n_gen=1, gen_s=0.004, ttft_s=0.25), None, None)   # (a local engine times it)
    assert status.speed.text() == "first token 250 ms"


def test_a_message_that_fitted_is_not_cut_when_a_field_grows_under_it(qtbot) -> None:
    """The batch's cost came just before the answer's speed: it fitted beside the fields, then the speed field
    grew and cut it off at 1280 px ('…(one answer alone: 46 tokens/')."""
    bar, status = wide_line(qtbot)
    fields = (status.model, status.backend, status.context, status.speed)
    qtbot.waitUntil(lambda: status.model.isVisible())

    def room() -> int:
        return bar.width() - sum(f.sizeHint().width() for f in fields if f.isVisible()) - 40

    text = "4 answers decoded together"
    while bar.fontMetrics().horizontalAdvance(text + " and more") < room() - 10:
        text += " and more"
    status.show_notice(text)
    assert status.model.isVisible()                         # it fits beside them
    status.show_speed(TIMINGS, None, {"auto": True, "start": 2, "runs": [[0, 2]], "changes": []})
    assert not any(f.isVisible() for f in fields) or bar.fontMetrics().horizontalAdvance(text) <= room()
    bar.clearMessage()
    assert all(f.isVisible() for f in fields if f is not status.context or f.text())


def test_the_undo_button_does_not_make_the_bar_taller(qtbot) -> None:
    """The window's contents moved by ~5 px when Undo appeared after a deletion (and back 15 s later)."""
    bar, status = wide_line(qtbot)

    def height() -> int:   # what a window gives the bar
        return max(bar.sizeHint().height(), bar.minimumHeight())

    before = height()
    status.offer_undo("Deleted “Hi”", lambda: None)
    assert height() == before

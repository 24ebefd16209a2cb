"""Comparing two models in the Score dialog: the second model scores the same tokens in an
engine process of its own, the perplexities show side by side, every token is coloured by the difference in
surprisal (hover: both models' numbers), and the second process ends when the dialog closes. The demo model
compared with itself: every difference is 0 and both perplexities are equal. A model with another vocabulary
(Gemma 3) is refused in one line. Real window, real engines."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from logitscope.ui.score.widgets import DIFF_SAME, compare_tooltip_html
from tests.helpers.score_dialog import SCORE_TIMEOUT_MS, SCORED_TEXT, open_score_dialog, token_background


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_demo_model_compared_with_itself(qtbot, real_window, demo_model) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    dialog.text.setPlainText(SCORED_TEXT)
    dialog.picker.fill_menu()  # the app's models folder is offered, then any file
    names = [a.text() for a in dialog.picker.menu.actions() if a.text()]
    assert names[-1] == "Other GGUF file…" and len(names) >= 2
    next(a for a in dialog.picker.menu.actions() if a.text() == names[0]).trigger()
    assert dialog.picker.path is not None and Path(dialog.picker.path).name == demo_model.name
    loading: list[float] = []
    dialog.compare.loading.connect(loading.append)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=3 * SCORE_TIMEOUT_MS)
    a, b = dialog.scored, dialog.other
    assert a is not None and b is not None, dialog.status.text()
    assert loading and loading[-1] == 1.0  # the second engine's load was shown
    pid = dialog.compare.pid
    assert pid is not None and pid != real_window.bridge.local.pid  # a process of its own

    assert [t.token for t in b.tokens] == [t.token for t in a.tokens]
    assert b.perplexity == pytest.approx(a.perplexity, rel=1e-6)
    diffs = [tb.bits - ta.bits for ta, tb in zip(a.tokens, b.tokens, strict=True) if ta.scored]
    assert diffs and max(abs(d) for d in diffs) < 1e-3
    summary = dialog.summary.text()
    assert summary.count(f"{a.perplexity:.3f}") >= 2 and "B / A perplexity: 1.000" in summary
    assert "B − A bits per token: +0.0000" in summary or "B − A bits per token: -0.0000" in summary
    # the two models' summary is taller than the side panel at the dialog's size: it scrolls, never cut
    label = dialog.summary
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()) > 0, timeout=3_000)  # laid out

    # coloured by the difference: all the middle of the diverging scale; the legend says so
    assert dialog.by_difference.isEnabled() and dialog.by_difference.isChecked()
    assert dialog.view.color_by == "difference" and dialog.legend.color_by == "difference"
    shown = [t for t in a.tokens if t.scored and t.text]
    assert {token_background(dialog.view, t.i).name() for t in shown} == {QColor(DIFF_SAME).name()}
    token = next(t for t in shown if t.rank > 0)
    tip = dialog.view.tooltip(token.i)
    assert tip == compare_tooltip_html(token, b.tokens[token.i], real_window.bridge.vocab, dialog.view.names)
    assert "B − A = +0.00 bits" in tip or "B − A = -0.00 bits" in tip
    assert tip.count("<tr>") == 3 and dialog.view.names[1] == demo_model.name

    # without a comparison, the next score is one model again and the difference colouring goes away
    dialog.picker.set_path(None)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SCORE_TIMEOUT_MS)
    assert dialog.other is None and not dialog.by_difference.isEnabled() and dialog.view.color_by == "rank"

    dialog.close()  # the second engine process ends with the dialog
    qtbot.waitUntil(lambda: _gone(pid), timeout=30_000)


def test_a_model_with_another_vocabulary_is_refused_in_one_line(qtbot, real_window, gemma3) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    dialog.text.setPlainText(SCORED_TEXT)
    dialog.picker.set_path(str(gemma3))
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=5 * SCORE_TIMEOUT_MS)
    status = dialog.status.text()
    assert dialog.other is None and "has another vocabulary" in status and "\n" not in status, status
    assert status.startswith("Scoring stopped:")
    dialog.close()

"""The inspector as people read it: a ranked list (1-based) with bars and cut markers, a heatmap legend."""

from __future__ import annotations

import numpy as np
import pytest

from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.ui.inspector.distribution import FINAL, RANK, RAW, TOKEN
from tests.helpers.window import ask, heatmap_answer, token_point

pytestmark = pytest.mark.gui


def test_distribution_is_a_ranked_list_with_markers(qtbot, real_window):
    answer = ask(qtbot, real_window, "Name three colours.", max_tokens=8)
    real_window.select_step(0, 1)
    step = answer.steps[1]
    model = real_window.distribution.model
    assert model.rowCount() >= 8
    assert [model.index(r, RANK).data() for r in range(3)] == ["1", "2", "3"]   # ranks count from 1
    chosen = [r for r in range(model.rowCount()) if model.index(r, TOKEN).data().startswith("▶")]
    assert chosen == [step.rank_raw]   # greedy: the chosen token is the most likely one, marked
    assert model.index(0, RAW).data().endswith("%") and model.index(0, FINAL).data() == "100.0%"
    assert "(rank 1)" in real_window.distribution.caption.text()
    assert "rank 1)" in real_window.chat.answers[0].view.tooltip_html(step)
    # a preview with top-p and min-p: both cuts fall among the shown rows
    real_window.sampler.set_settings(SamplerSettings(temperature=1.5, top_k=0, top_p=0.5, min_p=0.05))
    assert model.preview
    kept = [s for s in real_window.current_step_view().stages if s.name == "top_p"][0].n_out
    assert model.top_p_kept == kept and 0 < kept < model.rowCount()
    assert model.min_p_at == pytest.approx(0.05 * float(step.raw_probs[0]))
    finals = [model.rows[r].final for r in range(model.rowCount())]
    assert all(p == 0.0 for p in finals[kept:]) and finals[0] > 0


def test_heatmap_has_a_legend(qtbot, real_window):
    ask(qtbot, real_window, "Say hi.", max_tokens=4)
    legend = real_window.chat.legend
    assert not legend.isVisible()
    real_window.window_actions.heatmap.setChecked(True)
    real_window.toggle_heatmap()
    assert legend.isVisible() and "p" in legend.title.text() and legend.high.text() == "100%"
    real_window.window_actions.rank.setChecked(True)
    real_window.toggle_heatmap()
    assert legend.isVisible() and "rank" in legend.title.text()
    real_window.window_actions.heatmap.setChecked(False)
    real_window.toggle_heatmap()
    assert not legend.isVisible()


def test_model_named_after_its_file_and_layers_counted_alike(real_window):
    card = real_window.bridge.info.card
    assert card.name != "SmolLM2-135M-Instruct"   # the metadata's name is a training-run name
    assert "SmolLM2-135M-Instruct" in real_window.windowTitle() and "SmolLM2-135M-Instruct" in real_window.model_label.text()
    shown = real_window.status_backend.text()
    total = card.n_layer + 1
    assert f"of {total} layers" in shown, shown
    html = real_window.model_card.text.toPlainText()
    assert f"{card.n_layer} (+ the output layer: {total}" in html
    assert f"of {total} layers on the GPU" in html



@pytest.mark.qt_log_ignore("does not support")  # offscreen popups
def test_token_menu_is_ours(qtbot, real_window):
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    answer, view, target = heatmap_answer(qtbot, real_window)
    point = token_point(view, answer, target)
    assert view.step_at(point) == target
    seen: list[str] = []

    def look_and_close() -> None:
        menu = QApplication.activePopupWidget()
        seen.extend(a.text() for a in menu.actions())
        menu.close()

    QTimer.singleShot(200, look_and_close)
    view.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, view.viewport().mapToGlobal(point)))
    assert seen, "no menu"
    assert not any("Link" in text for text in seen), seen
    assert "Copy" in seen and "Fork here with…" in seen and "Inspect this token" in seen


def test_edit_dialog_is_roomy_and_wraps(qtbot, real_window):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog, QPlainTextEdit, QTextEdit

    question = "Explain, in a few sentences, why the sky looks blue on a clear day and red at sunset, please."
    ask(qtbot, real_window, question, max_tokens=2)
    seen: dict[str, object] = {}

    def look_and_cancel() -> None:
        dialog = QApplication.activeModalWidget()
        editor = dialog.findChild(QPlainTextEdit) or dialog.findChild(QTextEdit)
        seen.update(size=(dialog.width(), dialog.height()), text=editor.toPlainText(),
                    wraps=editor.lineWrapMode() == editor.LineWrapMode.WidgetWidth,
                    grip=isinstance(dialog, QDialog) and dialog.isSizeGripEnabled(),
                    resizable=dialog.maximumWidth() > dialog.width())
        dialog.reject()

    QTimer.singleShot(200, look_and_cancel)
    real_window.edit_turn(0)
    assert seen["text"] == question
    assert seen["size"][0] >= 560 and seen["size"][1] >= 300, seen
    assert seen["wraps"] and seen["grip"] and seen["resizable"], seen
    assert len(real_window.current.turns) == 1  # cancelled: nothing sent


def test_the_waterfalls_stage_names_never_touch_at_1280x720(qtbot, real_window):
    """Six stages at 1280x720: "vocabulary" and "penalties" once touched (the names were staggered only beyond
    six bars). Names side by side keep a gap; names that would not are staggered, and again when the dock widens."""
    from PySide6.QtCore import QPointF

    real_window.sampler.set_settings(SamplerSettings(temperature=0.7, top_k=40, top_p=0.9, min_p=0.05, seed=7))
    ask(qtbot, real_window, "Write a short poem about the sea.", max_tokens=6)
    panel = real_window.waterfall

    def touching() -> list[tuple[str, str]]:
        qtbot.wait(200)   # laid out
        axis, box = panel.mass.getAxis("bottom"), panel.mass.getViewBox()   # the names, under the lower plot
        names = [text for _x, text in axis._tickLevels[0]]   # pyqtgraph keeps the ticks set there
        advance = panel.fontMetrics().horizontalAdvance   # the axis draws in the panel's font
        pitch = box.mapViewToScene(QPointF(1, 0)).x() - box.mapViewToScene(QPointF(0, 0)).x()
        return [(a, b) for a, b in zip(names, names[1:], strict=False)
                if "\n" not in a + b and (advance(a) + advance(b)) / 2 + 2 > pitch]

    for size in ((1280, 720), (1920, 1080)):
        real_window.resize(*size)
        qtbot.wait(50)
        real_window.reset_layout()
        real_window.select_step(0, 2)
        assert len(panel._names) == 6, panel._names   # vocabulary, penalties, top-k, top-p, min-p, temperature
        assert not touching(), size
    assert not panel._staggered   # at full HD they stand side by side again


def test_the_waterfall_sets_its_bars_again_only_when_they_would_look_different(qtbot, real_window):
    """Bars set again repaint both plots (the dear part of a streaming refresh): a step whose bars are the
    same to a thousandth leaves them, a step whose bars differ shows its own."""
    from dataclasses import replace

    from logitscope.ui.inspector.state import StepView

    answer = ask(qtbot, real_window, "Name three colours.", max_tokens=4)
    step, panel = answer.steps[1], real_window.waterfall
    panel.show_step(StepView(step, answer.settings))
    counts, mass = panel.count_bars.opts["height"], panel.mass_bars.opts["height"]
    nudged = [replace(s, mass_kept=s.mass_kept * (1 - 1e-9)) for s in step.stages]
    panel.show_step(StepView(replace(step, i=step.i + 1, stages=nudged), answer.settings))
    assert panel.count_bars.opts["height"] is counts and panel.mass_bars.opts["height"] is mass
    assert f"Step {step.i + 1}," in panel.caption.text()   # the rest of the panel follows the step
    halved = [*step.stages[:-1], replace(step.stages[-1], n_out=1, mass_kept=step.stages[-1].mass_kept / 2)]
    panel.show_step(StepView(replace(step, stages=halved), answer.settings))
    expected = 0.5 * float(np.prod([s.mass_kept for s in step.stages]))
    assert panel.mass_bars.opts["height"][-1] == pytest.approx(expected, abs=1e-3)
    assert panel.count_bars.opts["height"][-1] == 0.0   # log10 of one candidate

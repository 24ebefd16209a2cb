"""The mouse wheel over the sampler controls scrolls the panel instead of moving the slider or box under the
pointer (top-p once went 0.95 -> 0.86 unnoticed, and the next answer used it); a focused control takes it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support")]


def wheel(widget: QWidget, notches: int = -3) -> None:
    """`notches` turns of the wheel (negative: towards the user, i.e. scroll down) over the widget's centre."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 120 * notches),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def scroll_area(widget: QWidget) -> QScrollArea:
    parent = widget.parentWidget()
    while not isinstance(parent, QScrollArea):
        parent = parent.parentWidget()
    return parent


@pytest.mark.model   # the window starts its engine process
def test_the_wheel_scrolls_the_sampler_panel_past_unfocused_controls(qtbot, bare_window):
    window = bare_window
    window.docks["sampler"].raise_()
    qtbot.waitUntil(lambda: window.sampler.isVisible())
    row = window.sampler.rows["top_p"]
    area = scroll_area(row)
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0   # the panel is taller than its dock: there is something to scroll
    window.prompt.setFocus()
    before = (row.value(), row.slider.value(), bar.value())
    for target in (row.slider, row.spin):
        wheel(target)
    assert (row.value(), row.slider.value()) == before[:2]
    assert bar.value() > before[2]          # the panel scrolled instead
    for name in ("top_k", "min_p", "temperature"):
        wheel(window.sampler.rows[name].spin, 2)
    assert window.sampler.settings().top_p == before[0]


@pytest.mark.model
def test_a_focused_control_takes_the_wheel(qtbot, bare_window):
    window = bare_window
    window.docks["sampler"].raise_()
    qtbot.waitUntil(lambda: window.sampler.isVisible())
    row = window.sampler.rows["top_k"]
    row.spin.setFocus()
    qtbot.waitUntil(row.spin.hasFocus)
    before = row.value()
    wheel(row.spin, 2)
    assert row.value() != before
    row.slider.setFocus()
    qtbot.waitUntil(row.slider.hasFocus)
    position = row.slider.value()
    wheel(row.slider, 2)
    assert row.slider.value() != position


def test_the_wheel_passes_the_steering_scale_slider(qtbot):
    from logitscope.ui.steering.rows import ScaleControl

    holder = QScrollArea()
    content = QWidget()
    control = ScaleControl(span=10.0, limit=100.0, value=2.0, parent=content)
    content.setMinimumHeight(2000)
    holder.setWidget(content)
    holder.resize(300, 200)
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitExposed(holder)
    wheel(control.slider)
    wheel(control.spin)
    assert control.value() == 2.0
    assert holder.verticalScrollBar().value() > 0

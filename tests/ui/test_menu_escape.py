"""Esc closes a menu, and the next Esc reaches the window again (Stop generating)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support")]  # offscreen popups


@pytest.mark.model
def test_escape_after_closing_a_menu_is_not_swallowed(qtbot, bare_window):
    window = bare_window
    with qtbot.waitActive(window):
        window.activateWindow()
    window.prompt.setFocus()
    stops = []
    window.window_actions.stop.setEnabled(True)  # as while an answer streams
    window.window_actions.stop.triggered.connect(lambda: stops.append(True))
    bar = window.menuBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(bar.actions()[0]).center())
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=2_000)
    qtbot.wait(200)  # the menu settles (offscreen, its activation comes a little later)
    QTest.keyClick(QApplication.activePopupWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None and QApplication.activeWindow() is window,
                    timeout=2_000)
    qtbot.wait(50)
    assert not stops  # that Esc closed the menu only
    window.window_actions.stop.setEnabled(True)  # again: a late state update of the window (no model) may have disabled it
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Escape)
    assert stops == [True]
    assert QApplication.focusWidget() is window.prompt

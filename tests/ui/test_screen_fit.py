"""The window on the tests' offscreen screen (1400x860, tests/helpers/offscreen_screen.json): a first start
takes the screen's available area; a saved size larger than the screen gives way to it, with the docks laid
out for the screen (not squeezed from the bigger layout); a saved size that fits comes back with its docks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSettings

from logitscope.ui.window.layout_facts import in_window

pytestmark = [pytest.mark.gui, pytest.mark.model,   # the window starts its engine process
              pytest.mark.qt_log_ignore("does not support")]


def open_window(qtbot, path):
    from logitscope.ui.main_window import MainWindow

    window = MainWindow(settings=QSettings(str(path), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_first_start_and_a_saved_size_too_large_take_the_screen(qtbot, tmp_path, isolated_home):
    first = open_window(qtbot, tmp_path / "ui.ini")
    area = first.screen().availableGeometry()
    qtbot.waitUntil(lambda: first.frameGeometry() == area)   # offscreen windows have a 2 px frame
    first.resize(area.width() + 600, area.height() + 400)   # left at a size this screen cannot hold
    qtbot.waitUntil(lambda: first.width() > area.width())
    first.close()
    again = open_window(qtbot, tmp_path / "ui.ini")
    qtbot.waitUntil(lambda: again.frameGeometry() == area)
    assert QRect(0, 0, area.width(), area.height()).contains(in_window(again, again.statusBar()))
    assert again.distribution.visible_rows() >= 8
    assert again.docks["distribution"].width() < area.width() // 2   # laid out for this screen
    again.close()


def test_a_saved_size_that_fits_comes_back_with_its_docks(qtbot, tmp_path, isolated_home):
    first = open_window(qtbot, tmp_path / "ui.ini")
    first.setGeometry(40, 30, 1200, 760)
    first.docks["timeline"].hide()
    qtbot.waitUntil(lambda: first.width() == 1200)
    first.close()
    again = open_window(qtbot, tmp_path / "ui.ini")
    assert (again.width(), again.height()) == (1200, 760)
    assert not again.docks["timeline"].isVisible()
    again.close()


def test_a_size_set_before_the_window_is_shown_stands(qtbot, tmp_path, isolated_home):
    """A script that sizes the window before showing it keeps that size, even larger than the screen (the
    screenshot scripts ask for 1280x720 on Qt's 800x800 offscreen screen): the fit for a window manager's frame,
    at the first show, once undid it."""
    from logitscope.ui.main_window import MainWindow

    window = MainWindow(settings=QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.resize(1500, 900)   # the tests' screen is 1400x860
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(100)   # the frame fit runs on the event loop after the show
    assert (window.width(), window.height()) == (1500, 900)
    window.close()

"""The docks keep their share of the window through a resize (ui/window/dock_shares.py): QMainWindow gives every
pixel a resize adds or takes to the chat, so a window shrunk to 800x500 and grown back kept its docks squashed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support")]  # offscreen: size hints


def _sizes(window) -> tuple[int, int]:
    return window.docks["distribution"].width(), window.docks["timeline"].height()


def _resize(qtbot, window, width: int, height: int) -> None:
    """To that size, or the smallest the docks' own minimums allow."""
    window.resize(width, height)
    qtbot.wait(100)  # the shares are put back once the resize has been handled


def test_shrinking_and_growing_back_gives_the_docks_their_share_again(qtbot, scripted_window):
    window = scripted_window
    _resize(qtbot, window, 1280, 720)
    window.reset_layout()
    qtbot.wait(50)
    before = _sizes(window)
    _resize(qtbot, window, 800, 500)
    _resize(qtbot, window, 1280, 720)
    right, bottom = _sizes(window)
    assert abs(right - before[0]) <= 12 and abs(bottom - before[1]) <= 12, (before, (right, bottom))


def test_a_share_the_user_chose_is_kept(qtbot, scripted_window):
    """Dragging a separator sets the share; a resize keeps it, proportionally."""
    window = scripted_window
    _resize(qtbot, window, 1280, 720)
    window.reset_layout()
    qtbot.wait(50)
    window.resizeDocks([window.docks["distribution"]], [500], Qt.Orientation.Horizontal)  # as a drag does
    qtbot.wait(50)
    wide = window.docks["distribution"].width()
    _resize(qtbot, window, 1920, 1080)
    assert abs(window.docks["distribution"].width() - wide * 1920 / 1280) <= 16
    _resize(qtbot, window, 900, 560)
    _resize(qtbot, window, 1280, 720)
    assert abs(window.docks["distribution"].width() - wide) <= 12

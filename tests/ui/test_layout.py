"""The default layout at common screen sizes: every dock legible, none over another, all inside the window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QTabBar

from tests.helpers.window import cut_tabs

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support")]  # offscreen: floating docks

MIN_DOCK = (160, 110)  # the smallest a dock's content may be and still be read


def _in_window(window, widget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


@pytest.mark.model
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_reset_layout_fits_the_window(qtbot, bare_window, size):
    window = bare_window
    window.resize(*size)
    qtbot.wait(50)
    window.docks["waterfall"].setFloating(True)   # something a user did, undone by Reset layout
    window.docks["sampler"].hide()
    window.reset_layout()
    qtbot.wait(100)
    assert (window.width(), window.height()) == size
    frame = window.rect()
    visible = [d for d in window.docks.values() if d.isVisible() and not d.visibleRegion().isEmpty()]
    assert {"distribution", "sampler", "timeline", "waterfall"} <= {k for k, d in window.docks.items() if d in visible}
    for dock in visible:
        rect = _in_window(window, dock)
        assert frame.contains(rect), (dock.objectName(), rect, frame)
        assert dock.widget().width() >= MIN_DOCK[0] and dock.widget().height() >= MIN_DOCK[1], (
            dock.objectName(), dock.widget().size())
    for i, a in enumerate(visible):
        for b in visible[i + 1:]:
            assert not _in_window(window, a).intersects(_in_window(window, b)), (a.objectName(), b.objectName())
    assert window.distribution.visible_rows() >= 8
    assert frame.contains(_in_window(window, window.statusBar()))
    assert window.statusBar().isVisible() and window.statusBar().height() > 0
    chat = _in_window(window, window.centralWidget())
    assert chat.width() >= 500 and chat.height() >= 250, chat
    for bar in window.findChildren(QTabBar):
        if bar.isVisible():
            assert frame.contains(_in_window(window, bar)), bar


@pytest.mark.model
def test_every_dock_tab_reads_in_full_at_1280x720(qtbot, bare_window):
    """The bottom docks' tabs once read "Sampler waterf…", "Memory and cont…", "Model c…", "Attenti…"."""
    window = bare_window
    window.resize(1280, 720)
    qtbot.wait(50)
    window.reset_layout()
    qtbot.wait(100)
    # the bottom's two, and the right column's: the sampler controls with the Steering dock behind them
    assert sum(bar.isVisible() for bar in window.findChildren(QTabBar)) == 3
    assert not cut_tabs(window)
    # the short tab titles keep their full names in the View menu
    assert window.docks["waterfall"].toggleViewAction().text() == "Sampler waterfall"
    assert window.docks["memory"].toggleViewAction().text() == "Memory and context"

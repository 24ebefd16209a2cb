"""The docks keep their share of the window when it is resized.

QMainWindow gives every pixel a resize adds or takes to the chat (the central widget): a window shrunk to its
smallest squashed the docks to their minimum, and growing it back left them there (Reset layout was the only
way back). Here the right column's width and the bottom row's height are kept as shares of the window: read
whenever those docks change size while the window does not (the user dragging a separator, a layout restored
or reset), and put back after every resize of the window (as far as the docks' minimums allow).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow


class DockShares(QObject):
    """`right`: a dock of the right column (its width); `bottom`: one of the bottom row (its height)."""

    def __init__(self, window: QMainWindow, right: QDockWidget, bottom: QDockWidget) -> None:
        super().__init__(window)
        self.window, self.right, self.bottom = window, right, bottom
        self.shares: tuple[float | None, float | None] = (None, None)
        self._settled = QSize(window.size())  # the window size the docks were last read or put back at
        self._pending = False                 # a resize of the window not settled yet
        self._scheduled = False               # a put-back waiting in the event loop
        for watched in (window, right, bottom):
            watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            if watched is self.window:
                self._pending = True
                if not self._scheduled:
                    self._scheduled = True
                    QTimer.singleShot(0, self._put_back)
            elif not self._pending and self.window.size() == self._settled:
                self._read()
        return False

    def _placed(self, dock: QDockWidget, area: Qt.DockWidgetArea) -> bool:
        """The dock is where the shares are about (a floating, hidden or moved dock has no share to keep)."""
        return dock.isVisible() and not dock.isFloating() and self.window.dockWidgetArea(dock) == area

    def _read(self) -> None:
        size = self.window.size()
        if size.width() <= 0 or size.height() <= 0:
            return
        right, bottom = self.shares  # a dock away from its place keeps the share it had
        if self._placed(self.right, Qt.DockWidgetArea.RightDockWidgetArea):
            right = self.right.width() / size.width()
        if self._placed(self.bottom, Qt.DockWidgetArea.BottomDockWidgetArea):
            bottom = self._bottom_extent() / size.height()
        self.shares = (right, bottom)

    def _bottom_extent(self) -> int:
        """The bottom row's height as resizeDocks takes it: the dock and the tab bar under it (a tabified dock)."""
        bar = self.window.statusBar()
        floor = bar.geometry().top() if bar.isVisible() else self.window.height()
        return floor - self.bottom.geometry().top()

    def _put_back(self) -> None:
        self._scheduled = False
        size = QSize(self.window.size())
        right, bottom = self.shares
        if right is not None and self._placed(self.right, Qt.DockWidgetArea.RightDockWidgetArea):
            self.window.resizeDocks([self.right], [round(right * size.width())], Qt.Orientation.Horizontal)
        if bottom is not None and self._placed(self.bottom, Qt.DockWidgetArea.BottomDockWidgetArea):
            self.window.resizeDocks([self.bottom], [round(bottom * size.height())], Qt.Orientation.Vertical)
        # what the docks get now follows from the resize, not from the user: read only once it is laid out
        QTimer.singleShot(0, lambda: self._settle(size))

    def _settle(self, size: QSize) -> None:
        if self._scheduled or self.window.size() != size:
            return  # resized again meanwhile: that put-back settles
        self._settled = size
        self._pending = False
        if self.shares == (None, None):
            self._read()  # the first time: the layout as built or restored

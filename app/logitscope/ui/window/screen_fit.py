"""The window on the screen it opens on: on first start, and whenever the size it was left at does not fit
that screen, it takes the screen's available area (a 1400x860 window once opened on a 1280x720 screen with
the status bar and the right column off screen).

Qt sets the client area; a window manager adds a frame only once the window is shown, so then the window
gives back what its frame overhangs, and the docks are laid out again for the size it ends at."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget


def available_area(window: QWidget) -> QRect:
    """The available geometry (without panels and task bars) of the screen the window is on or opens on."""
    return window.screen().availableGeometry()


FRAME_ROOM = QSize(20, 40)   # a typical title bar and borders


def resize_within_screen(window: QWidget, width: int, height: int) -> None:
    """Resize a dialog or window to the size it was designed at, or less where its screen's available area is
    smaller (a 1300x820 window on a 1280x720 screen hid its buttons), leaving room for a window manager's frame."""
    area = available_area(window)
    window.resize(min(width, area.width() - FRAME_ROOM.width()), min(height, area.height() - FRAME_ROOM.height()))


def fits_a_screen(frame: QRect) -> bool:
    """Whether a window with this frame lies inside the available area of the screen its centre is on."""
    screen = QGuiApplication.screenAt(frame.center())
    return screen is not None and screen.availableGeometry().contains(frame)


def fill_screen(window: QWidget, arrange: Callable[[], None]) -> None:
    """Give the window its screen's available area and lay the docks out for it (`arrange`); once shown,
    take back what a window manager's frame overhangs."""
    area = available_area(window)
    window.setGeometry(area)
    arrange()
    _FrameFit(window, area, arrange)


class _FrameFit(QObject):
    """At the window's first show: shrink it by what its frame overhangs the area, then lay the docks out."""

    def __init__(self, window: QWidget, area: QRect, arrange: Callable[[], None]) -> None:
        super().__init__(window)
        self.window, self.area, self.arrange = window, area, arrange
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.window and event.type() == QEvent.Type.Show:
            self.window.removeEventFilter(self)
            QTimer.singleShot(0, self._fit_frame)  # the frame is known once the show has been handled
        return False

    def _fit_frame(self) -> None:
        frame, client = self.window.frameGeometry(), self.window.geometry()
        if self.area.contains(frame) or frame == client or client.size() != self.area.size():
            return   # it fits, or someone sized the window since (a script, a test): theirs stands
        extra = QSize(frame.width() - client.width(), frame.height() - client.height())
        self.window.resize(self.area.size() - extra)
        self.window.move(self.area.topLeft())  # move() places the frame's corner
        self.arrange()

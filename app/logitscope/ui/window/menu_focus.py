"""Esc after a menu: closing a menu bar menu with Esc leaves Qt's menu bar holding the keyboard focus (its
keyboard-navigation mode), so the next Esc only leaves that mode and never reaches the window (Stop).
Once a menu closes without another opening, the focus goes back to where it was before the menu."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QMenuBar, QWidget


class MenuFocusKeeper(QObject):
    """A child of the window: Qt disconnects it from the application when the window goes."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.last: QWidget | None = None
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self.remember)
        for action in window.menuBar().actions():
            menu = action.menu()
            if isinstance(menu, QMenu):
                menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self, self.give_back))

    def remember(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and not isinstance(new, QMenu | QMenuBar) and new.window() is self.window:
            self.last = new

    def give_back(self) -> None:
        bar = self.window.menuBar()
        if bar.hasFocus() and QApplication.activePopupWidget() is None:
            target = self.last if self.last is not None and self.last.isVisible() else self.window.centralWidget()
            if target is not None:
                target.setFocus()  # the bar loses focus and leaves keyboard mode: Esc reaches the window again

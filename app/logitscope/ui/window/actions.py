"""The window's action registry: menu entries that are also window-wide shortcuts."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

Shortcut = QKeySequence | QKeySequence.StandardKey | str


class ActionRegistry:
    """Makes actions owned by one widget (the main window). Each is added to that widget as well as to its
    menu, so its shortcut works wherever the focus is in the window, not only while the menu bar has it."""

    def __init__(self, owner: QWidget) -> None:
        self.owner = owner

    def add(self, text: str, slot: Callable[[], object], shortcut: Shortcut | None = None, tip: str = "") -> QAction:
        action = QAction(text, self.owner)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.owner.addAction(action)
        return action

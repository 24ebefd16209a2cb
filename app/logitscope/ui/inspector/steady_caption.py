"""A word-wrapped caption whose text changes often without making the window lay itself out again.

A QLabel's new text invalidates every layout up to the main window (Qt's updateGeometry), and the main
window's next layout pass repaints most of it: with the step panels' captions changing 4 times a second
while an answer streams, that was the largest single cost of the window (bench --window). Here the label
sits in a box without a layout: a new text repaints the label only, and asks for a relayout only when it
needs another number of lines.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class SteadyCaption(QWidget):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(text, self)
        self.label.setWordWrap(True)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:  # noqa: N802 - as QLabel
        if text == self.label.text():
            return
        before = self.label.heightForWidth(self.width())
        self.label.setText(text)
        if self.label.heightForWidth(self.width()) != before:
            self.updateGeometry()  # another number of lines: the layout must make room

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.label.heightForWidth(width)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.label.sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(0, self.label.heightForWidth(max(1, self.width())))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        self.label.setGeometry(self.rect())
        super().resizeEvent(event)

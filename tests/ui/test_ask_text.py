"""A line of text asked in a dialog (renaming a conversation, naming a preset) shows what is in its field: Qt's
getText field showed about half of a long title."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLineEdit

pytestmark = pytest.mark.gui
TITLE = "Why does the demo model repeat itself at temperature zero?"   # 58 characters


def test_renaming_a_conversation_shows_its_whole_title(qtbot, scripted_window) -> None:
    window = scripted_window
    with qtbot.waitSignal(window.session.answerEnded, timeout=10_000):
        assert window.session.send("Hello")
    window.sidebar.current.title = TITLE
    seen: dict[str, int] = {}

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        field = dialog.findChild(QLineEdit)
        seen["text"], seen["room"] = field.text(), field.contentsRect().width()
        seen["needed"] = field.fontMetrics().horizontalAdvance(TITLE)
        field.setText("Repetition at temperature 0")
        dialog.accept()

    QTimer.singleShot(50, look)
    window.rename_conversation()
    assert seen["text"] == TITLE and seen["room"] >= seen["needed"], seen
    assert window.sidebar.current.title == "Repetition at temperature 0"

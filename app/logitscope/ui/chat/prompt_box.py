"""The message editor: Enter or Ctrl+Enter sends, Shift+Enter starts a new line; files dropped on it are
attached to the message (filesDropped), text dropped on it is inserted as usual."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget


def dropped_files(mime: QMimeData) -> list[str]:
    """The local files (or folders) a drag carries; [] when it carries anything else."""
    if not mime.hasUrls():
        return []
    urls = mime.urls()
    return [url.toLocalFile() for url in urls] if urls and all(url.isLocalFile() for url in urls) else []


class PromptBox(QPlainTextEdit):
    submitted = Signal(str)
    filesDropped = Signal(list)   # [path]: to attach

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(self.tr("Message the model… (Enter to send, Shift+Enter for a new line)"))
        self.setTabChangesFocus(True)
        # four lines, then it scrolls: at 1280x720 every line here is a line less of the chat
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 2 * round(self.document().documentMargin()) + 4)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                return
            self.submitted.emit(self.toPlainText().strip())   # empty text: the attached files alone, if any
            return
        super().keyPressEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_files(event.mimeData()):
            event.acceptProposedAction()
            return
        super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if dropped_files(event.mimeData()):
            event.acceptProposedAction()
            return
        super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        files = dropped_files(event.mimeData())
        if files:   # attached, not their paths typed into the message
            event.acceptProposedAction()
            self.filesDropped.emit(files)
            return
        super().dropEvent(event)

"""Editing a question before it is sent again: a resizable dialog whose text wraps at its width."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

DEFAULT_SIZE = (640, 380)  # a paragraph or two visible at once; grows with the parent window


class EditMessageDialog(QDialog):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editMessage")
        self.setWindowTitle(self.tr("Edit message"))
        self.setSizeGripEnabled(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Your message (Ctrl+Enter sends it again):")))
        self.editor = QPlainTextEdit(text)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout.addWidget(self.editor, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.send_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.send_button.setText(self.tr("Send again"))
        buttons.accepted.connect(self.send)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.send)
        # an emptied message cannot be sent: the button says so instead of closing the dialog with nothing sent
        self.editor.textChanged.connect(self._allow_sending)
        self._allow_sending()
        width, height = DEFAULT_SIZE
        if parent is not None:  # half the window, never smaller than the default
            width, height = max(width, parent.width() // 2), max(height, parent.height() // 2)
        self.resize(width, height)

    def text(self) -> str:
        return self.editor.toPlainText()

    def send(self) -> None:
        if self.text().strip():
            self.accept()

    def _allow_sending(self) -> None:
        empty = not self.text().strip()
        self.send_button.setEnabled(not empty)
        self.send_button.setToolTip(self.tr("Write a message to send") if empty else "")

    @classmethod
    def ask(cls, parent: QWidget, text: str) -> tuple[str, bool]:
        """The edited text, and whether the user accepted it."""
        dialog = cls(text, parent)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        return dialog.text(), accepted
